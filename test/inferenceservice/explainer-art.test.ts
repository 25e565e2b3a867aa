import { describe, expect, it } from 'vitest';
import { defaultHookConfig, loadConfig, type HookConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { converge, runSync } from '../../hooks/testing/index.js';
import { expectValid } from '../support/validate.js';

/*
 * KServe v0.20.0's ART explainer, field by field (paths in github.com/kserve/kserve at tag
 * v0.20.0; `v1beta1/` is pkg/apis/serving/v1beta1/, `controller/` pkg/controller/v1beta1/inferenceservice/),
 * and the rule for a component modelhooks cannot serve.
 */

const config = defaultHookConfig();
const isvc = (explainer: Record<string, unknown>, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'art', namespace: 'ml', generation: 1 },
  spec: { predictor: { sklearn: { storageUri: 'gs://b/m' } }, explainer, ...extra },
});
const explainerPod = (out: ReturnType<typeof runSync>): any => (out.child('Deployment', 'art-explainer') as any)?.spec.template.spec;
const server = (out: ReturnType<typeof runSync>): any => explainerPod(out).containers[0];

interface Row {
  field: string;
  cite: string;
  explainer: Record<string, unknown>;
  got: (out: ReturnType<typeof runSync>) => unknown;
  want: unknown;
}

const square = { type: 'SquareAttack', config: { nb_classes: '10' } };
const rows: Row[] = [
  {
    field: 'args: --model_name, --http_port, --predictor_host, --adversary_type, config',
    cite: 'v1beta1/explainer_art.go GetContainer; controller/components/explainer.go (PredictorServiceName)',
    explainer: { art: square },
    got: (o) => server(o).args,
    want: ['--model_name', 'art', '--http_port', '8080', '--predictor_host', 'art-predictor.ml', '--adversary_type', 'SquareAttack', '--nb_classes', '10'],
  },
  {
    field: 'config entries in sorted key order',
    cite: 'v1beta1/explainer_art.go GetContainer (sort.Strings(keys))',
    explainer: { art: { type: 'SquareAttack', config: { nb_classes: '10', max_iter: '5', Batch: '2' } } },
    got: (o) => server(o).args.slice(8),
    want: ['--Batch', '2', '--max_iter', '5', '--nb_classes', '10'],
  },
  {
    field: '--workers from containerConcurrency, before --adversary_type',
    cite: 'v1beta1/explainer_art.go GetContainer (ArgumentWorkers, extensions.ContainerConcurrency)',
    explainer: { art: square, containerConcurrency: 3 },
    got: (o) => server(o).args.slice(6, 10),
    want: ['--workers', '3', '--adversary_type', 'SquareAttack'],
  },
  {
    field: 'storageUri: --storage_uri /mnt/models before --adversary_type',
    cite: 'v1beta1/explainer_art.go GetContainer (DefaultModelLocalMountPath)',
    explainer: { art: { ...square, storageUri: 'gs://b/art' } },
    got: (o) => server(o).args.slice(6, 10),
    want: ['--storage_uri', '/mnt/models', '--adversary_type', 'SquareAttack'],
  },
  {
    field: 'storageUri: downloaded by the storage initializer',
    cite: 'controller/components/explainer.go (StorageInitializerSourceUriInternalAnnotationKey); webhook/admission/pod/storage_initializer_injector.go',
    explainer: { art: { ...square, storageUri: 'gs://b/art' } },
    got: (o) => [explainerPod(o).initContainers[0].args, server(o).volumeMounts],
    want: [['gs://b/art', '/mnt/models'], [{ name: 'kserve-provision-location', mountPath: '/mnt/models', readOnly: true }]],
  },
  {
    field: "the user's arguments last; a --predictor_host of theirs replaces KServe's",
    cite: 'v1beta1/explainer_art.go GetContainer (utils.IncludesArg, args = append(args, s.Args...))',
    explainer: { art: { ...square, args: ['--predictor_host=elsewhere:80'] } },
    got: (o) => server(o).args,
    want: ['--model_name', 'art', '--http_port', '8080', '--adversary_type', 'SquareAttack', '--nb_classes', '10', '--predictor_host=elsewhere:80'],
  },
  {
    field: 'image: explainers.art image and defaultImageVersion',
    cite: 'v1beta1/explainer_art.go Default, GetContainer; charts/_common/common-patches/configmap-patch.yaml (defaultImageVersion = kserve.version v0.20.0)',
    explainer: { art: square },
    got: (o) => server(o).image,
    want: 'kserve/art-explainer:v0.20.0',
  },
  {
    field: 'image: runtimeVersion is the tag',
    cite: 'v1beta1/explainer_art.go GetContainer (ContainerImage + ":" + RuntimeVersion)',
    explainer: { art: { ...square, runtimeVersion: 'v0.14.1' } },
    got: (o) => server(o).image,
    want: 'kserve/art-explainer:v0.14.1',
  },
  {
    field: "image: the user's wins",
    cite: 'v1beta1/explainer_art.go GetContainer (s.Image == "")',
    explainer: { art: { ...square, image: 'me/art:1' } },
    got: (o) => server(o).image,
    want: 'me/art:1',
  },
  {
    field: "container name kserve-container; the user's env and resources kept",
    cite: 'v1beta1/explainer_art.go Default (Name = InferenceServiceContainerName), ExplainerExtensionSpec inlines corev1.Container',
    explainer: { art: { ...square, env: [{ name: 'A', value: '1' }], resources: { limits: { cpu: '2', memory: '4Gi' } } } },
    got: (o) => [server(o).name, server(o).env, server(o).resources.limits],
    want: ['kserve-container', [{ name: 'A', value: '1' }], { cpu: '2', memory: '4Gi' }],
  },
  {
    field: 'default resources 1 CPU / 2Gi',
    cite: 'v1beta1/explainer_art.go Default (setResourceRequirementDefaults; inferenceService.resource defaults)',
    explainer: { art: square },
    got: (o) => server(o).resources,
    want: { requests: { cpu: '1', memory: '2Gi' }, limits: { cpu: '1', memory: '2Gi' } },
  },
  {
    field: 'TCP readiness on 8080, no liveness or startup probe',
    cite: 'controller/reconcilers/deployment/deployment_reconciler.go setDefaultPodSpec',
    explainer: { art: square },
    got: (o) => [server(o).readinessProbe?.tcpSocket, server(o).livenessProbe, server(o).startupProbe],
    want: [{ port: 8080 }, undefined, undefined],
  },
  {
    field: 'no INFERENCE_SERVICE_NAME env',
    cite: 'controller/components/explainer.go (no AddEnvVarToPodSpec, unlike predictor.go and transformer.go)',
    explainer: { art: square },
    got: (o) => server(o).env,
    want: undefined,
  },
  {
    field: 'Service <n>-explainer on port 80 → 8080',
    cite: 'controller/reconcilers/service/service_reconciler.go createService; constants.ExplainerServiceName',
    explainer: { art: square },
    got: (o) => (o.child('Service', 'art-explainer') as any)?.spec.ports.map((p: any) => [p.port, p.targetPort]),
    want: [[80, 8080]],
  },
  {
    field: 'HPA <n>-explainer',
    cite: 'controller/reconcilers/raw/raw_kube_reconciler.go (autoscaler.NewAutoscalerReconciler per component)',
    explainer: { art: square },
    got: (o) => (o.child('HorizontalPodAutoscaler', 'art-explainer') as any)?.spec.scaleTargetRef.name,
    want: 'art-explainer',
  },
  {
    field: 'Ingress host <n>-explainer-<ns> → the explainer Service',
    cite: 'controller/reconcilers/ingress/kube_ingress_reconciler.go createRawIngress (explainer host)',
    explainer: { art: square },
    got: (o) => (o.child('Ingress', 'art') as any)?.spec.rules.find((r: any) => r.host.startsWith('art-explainer'))?.http.paths[0].backend.service.name,
    want: 'art-explainer',
  },
];

describe('the ART explainer as KServe v0.20.0 builds it', () => {
  for (const r of rows) {
    it(`${r.field} (${r.cite})`, () => {
      // Converged: the Ingress is made once the predictor and explainer are ready (kube_ingress_reconciler.go createRawIngress).
      const out = converge(inferenceservice, { parent: isvc(r.explainer), config }).result;
      expect(r.got(out)).toEqual(r.want);
      for (const child of out.children) expectValid(child);
    });
  }

  it('MODELHOOKS_IMAGE_ART_EXPLAINER sets the image and its tag is the default version', () => {
    const hooks = loadConfig({ MODELHOOKS_IMAGE_ART_EXPLAINER: 'registry.local:5000/kserve/art-explainer:v9' }).hooks as HookConfig;
    expect(hooks.inferenceservice.explainers.art).toEqual({ image: 'registry.local:5000/kserve/art-explainer', defaultImageVersion: 'v9' });
    expect(server(runSync(inferenceservice, { parent: isvc({ art: square }), config: hooks })).image).toBe('registry.local:5000/kserve/art-explainer:v9');
    const tagged = runSync(inferenceservice, { parent: isvc({ art: { ...square, runtimeVersion: 'v10' } }), config: hooks });
    expect(server(tagged).image).toBe('registry.local:5000/kserve/art-explainer:v10');
  });

  it('a pod security level that forbids a field of art names spec.explainer.art', () => {
    const baseline = loadConfig({ MODELHOOKS_POD_SECURITY: 'baseline' }).hooks;
    const out = runSync(inferenceservice, { parent: isvc({ art: { ...square, securityContext: { privileged: true } } }), config: baseline });
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(out.condition('Ready')?.message).toContain('spec.explainer.art');
  });
});

describe('a component modelhooks cannot serve: a False condition on it, the rest served', () => {
  const cases = [
    {
      reason: 'an alibi explainer (KServe before v0.13)',
      spec: { explainer: { alibi: { type: 'AnchorTabular' } } },
      condition: 'ExplainerReady',
      want: 'UnsupportedExplainer',
      names: 'spec.explainer.alibi',
    },
    {
      reason: 'an empty explainer',
      spec: { explainer: {} },
      condition: 'ExplainerReady',
      want: 'UnsupportedExplainer',
      names: 'spec.explainer: no art or containers',
    },
    {
      reason: 'art and containers both',
      spec: { explainer: { art: square, containers: [{ image: 'me/e:1' }] } },
      condition: 'ExplainerReady',
      want: 'UnsupportedExplainer',
      names: 'art and containers are both set',
    },
    {
      reason: 'an art storageUri of an unknown scheme',
      spec: { explainer: { art: { ...square, storageUri: 'ftp://x/y' } } },
      condition: 'ExplainerReady',
      want: 'UnsupportedExplainer',
      names: 'spec.explainer.art.storageUri',
    },
    {
      reason: 'a transformer without containers',
      spec: { transformer: {} },
      condition: 'TransformerReady',
      want: 'UnsupportedTransformer',
      names: 'spec.transformer: no containers',
    },
  ];
  const parent = (spec: Record<string, unknown>): KubeObject => ({
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: 'art', namespace: 'ml', generation: 1 },
    spec: { predictor: { sklearn: { storageUri: 'gs://b/m' } }, ...spec },
  });

  it.each(cases)(
    '$reason: $condition False ($want), the predictor and (but behind a missing transformer) the Ingress are created',
    ({ spec, condition, want, names }) => {
      // Converged: the Ingress waits for the predictor; an explainer that cannot be served does not hold it back, a transformer
      // does (callers enter through it: kube_ingress_reconciler.go createRawIngress waits for TransformerReady).
      const out = converge(inferenceservice, { parent: parent(spec), config }).result;
      expect(out.condition(condition)).toMatchObject({ status: 'False', reason: want });
      expect(out.condition(condition)?.message).toContain(names);
      expect(out.condition('Ready')).toMatchObject({ status: 'False' });
      expect(out.child('Deployment', 'art-predictor')).toBeDefined();
      expect(out.child('Service', 'art-predictor')).toBeDefined();
      const role = condition === 'ExplainerReady' ? 'explainer' : 'transformer';
      if (role === 'explainer') expect(out.child('Ingress', 'art')).toBeDefined();
      else expect([out.child('Ingress', 'art'), out.condition('IngressReady')?.reason]).toEqual([undefined, 'TransformerNotReady']);
      expect(out.child('Deployment', `art-${role}`)).toBeUndefined();
    },
  );

  it('an explainer that was served and no longer can be keeps its Deployment, Service and HPA as last applied', () => {
    const before = runSync(inferenceservice, { parent: parent({ explainer: { art: square } }), config }).children;
    const out = runSync(inferenceservice, { parent: parent({ explainer: { alibi: {} } }), observed: before, config });
    for (const [kind, name] of [
      ['Deployment', 'art-explainer'],
      ['Service', 'art-explainer'],
      ['HorizontalPodAutoscaler', 'art-explainer'],
    ] as const) {
      expect(out.child(kind, name)).toEqual(before.find((c) => c.kind === kind && c.metadata.name === name));
    }
    expect(out.condition('ExplainerReady')).toMatchObject({ status: 'False', reason: 'UnsupportedExplainer' });
  });

  it("the predictor's URL is not held back by an explainer that cannot be served", () => {
    const out = converge(inferenceservice, { parent: parent({ explainer: { alibi: {} } }), config }).result;
    expect(out.condition('PredictorReady')?.status).toBe('True');
    expect(out.status.url).toBe('http://art-ml.example.com');
  });
});
