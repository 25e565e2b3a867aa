import { describe, expect, it } from 'vitest';
import { defaultHookConfig, loadConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import { modelStatusFrom } from '../../hooks/inferenceservice/status/model-status.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { runSync } from '../../hooks/testing/index.js';
import { loadYamlFile, repoRoot } from '../support/reference.js';
import path from 'node:path';

/*
 * KServe v0.20.0 docs samples, field by field: the expected values are read off KServe's
 * code, cited per row (paths in github.com/kserve/kserve at tag v0.20.0).
 */

const config = defaultHookConfig();
const sample = (file: string, meta: Record<string, unknown> = {}): KubeObject => {
  const [o] = loadYamlFile(path.join(repoRoot(), 'test/vendor/samples', file)) as [KubeObject];
  return { ...o, metadata: { ...o.metadata, namespace: 'models', generation: 1, ...meta } };
};
const deployment = (out: ReturnType<typeof runSync>, name: string) => out.child('Deployment', name) as any;
const envOf = (d: any, container = 'kserve-container') => d.spec.template.spec.containers.find((c: any) => c.name === container).env;
const STORAGE_INIT = 'storage-initializer';

interface Row {
  sample: string;
  name: string;
  field: string;
  cite: string;
  want: (d: any) => unknown;
  expected: unknown;
}

const rows: Row[] = [
  {
    sample: 'kserve-sklearn-v1.yaml',
    name: 'sklearn-iris',
    field: 'pod annotation prometheus.kserve.io/port',
    cite: 'config/runtimes/kserve-sklearnserver.yaml spec.annotations; components/predictor.go buildObjectMeta (sRuntimeAnnotations)',
    want: (d) => d.spec.template.metadata.annotations['prometheus.kserve.io/port'],
    expected: '8080',
  },
  {
    sample: 'kserve-sklearn-v1.yaml',
    name: 'sklearn-iris',
    field: 'Deployment annotation prometheus.kserve.io/path',
    cite: 'reconcilers/deployment/deployment_reconciler.go createRawDefaultDeployment (ObjectMeta: componentMeta)',
    want: (d) => d.metadata.annotations['prometheus.kserve.io/path'],
    expected: '/metrics',
  },
  {
    sample: 'kserve-sklearn-v1.yaml',
    name: 'sklearn-iris',
    field: 'label serving.kserve.io/inferenceservice',
    cite: 'components/predictor.go buildObjectMeta (InferenceServicePodLabelKey)',
    want: (d) => d.spec.template.metadata.labels['serving.kserve.io/inferenceservice'],
    expected: 'sklearn-iris',
  },
  {
    sample: 'kserve-sklearn-v1.yaml',
    name: 'sklearn-iris',
    field: 'label component',
    cite: 'components/predictor.go buildObjectMeta (KServiceComponentLabel)',
    want: (d) => d.metadata.labels.component,
    expected: 'predictor',
  },
  {
    sample: 'kserve-sklearn-v1.yaml',
    name: 'sklearn-iris',
    field: 'label app (selector)',
    cite: 'deployment_reconciler.go createRawDefaultDeployment (GetRawServiceLabel)',
    want: (d) => d.spec.template.metadata.labels.app,
    expected: 'isvc.sklearn-iris-predictor',
  },
  {
    sample: 'kserve-sklearn-v1.yaml',
    name: 'sklearn-iris',
    field: 'env INFERENCE_SERVICE_NAME',
    cite: 'components/predictor.go buildPredictorResources (AddEnvVarToPodSpec)',
    want: (d) => envOf(d),
    expected: [{ name: 'INFERENCE_SERVICE_NAME', value: 'sklearn-iris' }],
  },
  {
    sample: 'kserve-sklearn-v1.yaml',
    name: 'sklearn-iris',
    field: 'storage-initializer HF_* env',
    cite: 'pkg/utils/storage.go AddDefaultHuggingFaceEnvVars; webhook/admission/pod/storage_initializer_injector.go',
    want: (d) => d.spec.template.spec.initContainers.find((c: any) => c.name === STORAGE_INIT).env,
    expected: [
      { name: 'HF_HUB_ENABLE_HF_TRANSFER', value: '1' },
      { name: 'HF_XET_HIGH_PERFORMANCE', value: '1' },
      { name: 'HF_XET_NUM_CONCURRENT_RANGE_GETS', value: '8' },
    ],
  },
  {
    sample: 'kserve-sklearn-v1.yaml',
    name: 'sklearn-iris',
    field: 'no prometheus.io/port without enable-prometheus-scraping',
    cite: 'webhook/admission/pod/metrics_aggregate_injector.go InjectMetricsAggregator (config default "false")',
    want: (d) => d.spec.template.metadata.annotations['prometheus.io/port'],
    expected: undefined,
  },
  {
    sample: 'kserve-tensorflow.yaml',
    name: 'flower-sample',
    field: 'pod annotation enable-prometheus-scraping kept',
    cite: 'components/predictor.go buildPredictorResources (isvc annotations, filtered)',
    want: (d) => d.spec.template.metadata.annotations['serving.kserve.io/enable-prometheus-scraping'],
    expected: 'true',
  },
  {
    sample: 'kserve-tensorflow.yaml',
    name: 'flower-sample',
    field: 'pod annotation prometheus.io/path',
    cite: 'metrics_aggregate_injector.go (constants.DefaultPrometheusPath)',
    want: (d) => d.spec.template.metadata.annotations['prometheus.io/path'],
    expected: '/metrics',
  },
  {
    sample: 'kserve-tensorflow.yaml',
    name: 'flower-sample',
    field: "pod annotation prometheus.io/port: queue-proxy's aggregate port, as the sample enables aggregation",
    cite: 'metrics_aggregate_injector.go InjectMetricsAggregator (constants.QueueProxyAggregatePrometheusMetricsPort 9088)',
    want: (d) => d.spec.template.metadata.annotations['prometheus.io/port'],
    expected: '9088',
  },
  {
    sample: 'kserve-tensorflow.yaml',
    name: 'flower-sample',
    field: 'prometheus.io/* only on pods, not the Deployment',
    cite: 'metrics_aggregate_injector.go mutates pods only',
    want: (d) => d.metadata.annotations['prometheus.io/port'],
    expected: undefined,
  },
  {
    sample: 'kserve-torchserve-v1.yaml',
    name: 'torchserve',
    field: 'pod annotation prometheus.kserve.io/port',
    cite: 'config/runtimes/kserve-torchserve.yaml spec.annotations',
    want: (d) => d.spec.template.metadata.annotations['prometheus.kserve.io/port'],
    expected: '8082',
  },
  {
    sample: 'kserve-torchserve-v1.yaml',
    name: 'torchserve',
    field: 'env: runtime env, then INFERENCE_SERVICE_NAME',
    cite: 'utils.go MergeServingRuntimeAndInferenceServiceSpecs; predictor.go AddEnvVarToPodSpec',
    want: (d) => envOf(d).map((e: any) => e.name),
    expected: ['TS_SERVICE_ENVELOPE', 'PROTOCOL_VERSION', 'INFERENCE_SERVICE_NAME'],
  },
  {
    sample: 'kserve-triton-torchscript.yaml',
    name: 'torchscript-cifar',
    field: 'pod annotation prometheus.kserve.io/port',
    cite: 'config/runtimes/kserve-tritonserver.yaml spec.annotations',
    want: (d) => d.spec.template.metadata.annotations['prometheus.kserve.io/port'],
    expected: '8002',
  },
  {
    sample: 'kserve-triton-torchscript.yaml',
    name: 'torchscript-cifar',
    field: "env: the user's, then INFERENCE_SERVICE_NAME",
    cite: 'components/predictor.go AddEnvVarToPodSpec (appended when absent)',
    want: (d) => envOf(d),
    expected: [
      { name: 'OMP_NUM_THREADS', value: '1' },
      { name: 'INFERENCE_SERVICE_NAME', value: 'torchscript-cifar' },
    ],
  },
];

describe('KServe docs samples: metadata and env as KServe v0.20 sets them', () => {
  for (const r of rows) {
    it(`${r.sample}: ${r.field} (${r.cite})`, () => {
      const out = runSync(inferenceservice, { parent: sample(r.sample), config });
      expect(r.want(deployment(out, `${r.name}-predictor`))).toEqual(r.expected);
    });
  }
});

describe('propagation rules', () => {
  const parent = (meta: Record<string, unknown>, predictor: Record<string, unknown> = {}): KubeObject => ({
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: 'demo', namespace: 'ml', generation: 1, ...meta },
    spec: { predictor: { ...predictor, sklearn: { storageUri: 'gs://b/m' } } },
  });

  it("filters KServe's ServiceAnnotationDisallowedList from workloads and the Ingress (pkg/constants/constants.go)", () => {
    const annotations = {
      'autoscaling.knative.dev/min-scale': '1',
      'autoscaling.knative.dev/max-scale': '3',
      'internal.serving.kserve.io/storage-initializer-sourceuri': 'x',
      'kubectl.kubernetes.io/last-applied-configuration': '{}',
      modelFormat: 'x',
      keep: 'me',
    };
    const out = runSync(inferenceservice, { parent: parent({ annotations }), config });
    for (const child of out.children as KubeObject[]) {
      if (child.kind === 'HTTPRoute') continue;
      const a = child.metadata.annotations ?? {};
      expect(a.keep).toBe('me');
      // The Ingress gets them all, unfiltered (kube_ingress_reconciler.go createRawIngress: isvc.Annotations).
      if (child.kind === 'Ingress') expect(a).toMatchObject({ ...annotations, 'serving.kserve.io/deploymentMode': 'Standard' });
      else {
        expect(Object.keys(a).filter((k) => k in annotations && k !== 'keep' && k !== 'internal.serving.kserve.io/storage-initializer-sourceuri')).toEqual([]);
        // The user's value is filtered; the predictor reconciler writes the model's URI (components/predictor.go addStorageInitializerAnnotations).
        expect(a['internal.serving.kserve.io/storage-initializer-sourceuri']).toBe('gs://b/m');
      }
    }
  });

  it("the component's annotations win over the InferenceService's, which win over the runtime's (buildObjectMeta)", () => {
    const out = runSync(inferenceservice, {
      parent: parent({ annotations: { 'prometheus.kserve.io/port': '9000', a: 'isvc' } }, { annotations: { a: 'component' } }),
      config,
    });
    const d = deployment(out, 'demo-predictor');
    expect(d.spec.template.metadata.annotations['prometheus.kserve.io/port']).toBe('9000');
    expect(d.spec.template.metadata.annotations.a).toBe('component');
  });

  it('a transformer gets INFERENCE_SERVICE_NAME on its first container only; an explainer none (transformer.go, explainer.go)', () => {
    const p = parent({});
    (p.spec as any).transformer = { containers: [{ image: 't:1' }, { name: 'side', image: 's:1' }] };
    (p.spec as any).explainer = { containers: [{ image: 'e:1' }] };
    const out = runSync(inferenceservice, { parent: p, config });
    const t = deployment(out, 'demo-transformer').spec.template.spec.containers;
    expect(t[0].env).toEqual([{ name: 'INFERENCE_SERVICE_NAME', value: 'demo' }]);
    expect(t[1].env).toBeUndefined();
    expect(deployment(out, 'demo-explainer').spec.template.spec.containers[0].env).toBeUndefined();
  });

  it("user initContainers run before KServe's storage initializer, as written (the restricted defaults under them only at the restricted level)", () => {
    const out = runSync(inferenceservice, { parent: parent({}, { initContainers: [{ name: 'warm', image: 'w:1' }] }), config });
    const init = deployment(out, 'demo-predictor').spec.template.spec.initContainers;
    expect(init.map((c: any) => c.name)).toEqual(['warm', 'storage-initializer']);
    expect(init[0]).toEqual({ name: 'warm', image: 'w:1' });
    const restricted = loadConfig({ MODELHOOKS_POD_SECURITY: 'restricted' }).hooks;
    const strict = runSync(inferenceservice, { parent: parent({}, { initContainers: [{ name: 'warm', image: 'w:1' }] }), config: restricted });
    expect(deployment(strict, 'demo-predictor').spec.template.spec.initContainers[0].securityContext.allowPrivilegeEscalation).toBe(false);
  });

  it('deploymentStrategy becomes the Deployment strategy (deployment_reconciler.go createRawDefaultDeployment)', () => {
    const strategy = { type: 'Recreate' };
    const out = runSync(inferenceservice, { parent: parent({}, { deploymentStrategy: strategy }), config });
    expect(deployment(out, 'demo-predictor').spec.strategy).toEqual(strategy);
    expect(out.condition('IgnoredFields')).toBeUndefined();
  });

  it('an unconfined AppArmor annotation on the InferenceService is refused at baseline (it would reach the pods), naming metadata.annotations', () => {
    const key = 'container.apparmor.security.beta.kubernetes.io/kserve-container';
    const config = loadConfig({ MODELHOOKS_POD_SECURITY: 'baseline' }).hooks;
    const out = runSync(inferenceservice, { parent: parent({ annotations: { [key]: 'unconfined' } }), config });
    expect(out.condition('Ready')?.reason).toBe('InvalidSpec');
    expect(out.condition('Ready')?.message).toContain(`metadata.annotations["${key}"]`);
    const ok = runSync(inferenceservice, { parent: parent({ annotations: { [key]: 'runtime/default' } }), config });
    expect(ok.condition('Ready')?.reason).not.toBe('InvalidSpec');
  });
});

describe('status as KServe v0.20 writes it', () => {
  const parent = (status: Record<string, unknown> = {}): KubeObject => ({
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: 'demo', namespace: 'ml', generation: 1 },
    spec: { predictor: { sklearn: { storageUri: 'gs://b/m' } } },
    status,
  });
  const ready = (out: ReturnType<typeof runSync>, name: string, readyReplicas = 2): KubeObject => {
    const d = out.child('Deployment', name) as KubeObject;
    return {
      ...d,
      metadata: { ...d.metadata, generation: 1 },
      status: { observedGeneration: 1, readyReplicas, conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' }] },
    };
  };

  it('deploymentMode is Standard (constants.ParseDeploymentMode normalises RawDeployment)', () => {
    expect(runSync(inferenceservice, { parent: parent(), config }).status.deploymentMode).toBe('Standard');
  });

  it('url only once the Ingress exists and the predictor is Ready (kube_ingress_reconciler.go createRawIngress)', () => {
    const first = runSync(inferenceservice, { parent: parent(), config });
    expect(first.status.url).toBeUndefined();
    expect(first.child('Ingress', 'demo')).toBeUndefined();
    // The predictor ready: the Ingress is made in this sync, the URL comes once it is observed.
    const deploymentOnly = runSync(inferenceservice, { parent: parent(), config, observed: [ready(first, 'demo-predictor')] });
    expect(deploymentOnly.status.url).toBeUndefined();
    const ingress = deploymentOnly.child('Ingress', 'demo') as KubeObject;
    expect(ingress).toBeDefined();
    const both = runSync(inferenceservice, { parent: parent(), config, observed: [ready(first, 'demo-predictor'), ingress] });
    expect(both.status.url).toBe('http://demo-ml.example.com');
    // KServe never clears it: a predictor going unready keeps the URL written before.
    const later = runSync(inferenceservice, { parent: parent({ url: 'http://demo-ml.example.com' }), config, observed: [ingress] });
    expect(later.status.url).toBe('http://demo-ml.example.com');
  });

  it('modelStatus: Loaded with copies.totalCopies = ready pods, targetModelState as UpdateModelRevisionStates sets it', () => {
    const first = runSync(inferenceservice, { parent: parent(), config });
    expect(first.status.modelStatus).toEqual({
      transitionStatus: 'InProgress',
      states: { activeModelState: 'Pending', targetModelState: 'Pending' },
      copies: { failedCopies: 0 },
    });
    const both = runSync(inferenceservice, {
      parent: parent(),
      config,
      observed: [ready(first, 'demo-predictor', 3), { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'demo', namespace: 'ml' } }],
    });
    expect(both.status.modelStatus).toEqual({
      transitionStatus: 'UpToDate',
      states: { activeModelState: 'Loaded', targetModelState: 'Loaded' },
      copies: { failedCopies: 0, totalCopies: 3 },
    });
  });

  it("lastFailureInfo.reason is one of KServe's six FailureInfoReason values: a stale other reason is dropped", () => {
    const previous = { modelStatus: { transitionStatus: 'BlockedByFailedLoad', lastFailureInfo: { reason: 'ProgressDeadlineExceeded', message: 'old' } } };
    const out = runSync(inferenceservice, { parent: parent(previous), config });
    expect((out.status.modelStatus as any).lastFailureInfo).toBeUndefined();
    const kept = { modelStatus: { transitionStatus: 'BlockedByFailedLoad', lastFailureInfo: { reason: 'ModelLoadFailed', message: 'oom', exitCode: 137 } } };
    expect((runSync(inferenceservice, { parent: parent(kept), config }).status.modelStatus as any).lastFailureInfo).toEqual(kept.modelStatus.lastFailureInfo);
  });
});

describe('modelStatusFrom with the predictor pods (PropagateModelStatus, raw mode)', () => {
  const pod = (status: Record<string, unknown>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p1', namespace: 'ml', creationTimestamp: '2026-01-01T00:00:00Z' },
    status,
  });
  const notReady = { type: 'PredictorReady', status: 'Unknown', reason: 'ReplicaSetUpdated', message: '' } as const;
  it('a running storage initializer is Loading', () => {
    const s = modelStatusFrom({
      predictor: notReady,
      ready: false,
      pods: [pod({ initContainerStatuses: [{ name: 'storage-initializer', state: { running: {} } }] })],
    });
    expect(s).toMatchObject({ transitionStatus: 'InProgress', states: { targetModelState: 'Loading' } });
  });
  it('a kserve-container that exited with Error is FailedToLoad/ModelLoadFailed with its exit code', () => {
    const s = modelStatusFrom({
      predictor: notReady,
      ready: false,
      pods: [pod({ containerStatuses: [{ name: 'kserve-container', state: { terminated: { reason: 'Error', exitCode: 1, message: 'no model' } } }] })],
    });
    expect(s).toMatchObject({
      transitionStatus: 'BlockedByFailedLoad',
      states: { targetModelState: 'FailedToLoad' },
      lastFailureInfo: { reason: 'ModelLoadFailed', message: 'no model', exitCode: 1 },
    });
  });
  it('no pods is Pending', () => {
    expect(modelStatusFrom({ predictor: notReady, ready: false, pods: [] })).toMatchObject({
      transitionStatus: 'InProgress',
      states: { targetModelState: 'Pending' },
    });
  });
});

describe('HTTPRoutes (gateway-api variant)', () => {
  it("carry the InferenceService's labels and annotations minus the disallowed lists (httproute_reconciler.go)", () => {
    const parent: KubeObject = {
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      metadata: {
        name: 'demo',
        namespace: 'ml',
        generation: 1,
        labels: { cost: 'c1', 'networking.kserve.io/visibility': 'exposed', 'serving.kserve.io/inferenceservice': 'x' },
        annotations: { 'cert-manager.io/cluster-issuer': 'le', 'kubectl.kubernetes.io/last-applied-configuration': '{}' },
      },
      spec: { predictor: { sklearn: { storageUri: 'gs://b/m' } } },
    };
    const out = runSync(inferenceservice, { parent, config, variant: 'gateway-api' });
    const routes = out.childrenOf('HTTPRoute') as KubeObject[];
    expect(routes.length).toBeGreaterThan(0);
    for (const r of routes) {
      expect(r.metadata.labels?.cost).toBe('c1');
      expect(r.metadata.labels?.['networking.kserve.io/visibility']).toBeUndefined();
      expect(r.metadata.labels?.['serving.kserve.io/inferenceservice']).toBe('demo');
      // The webhook's deploymentMode too (inference_service_defaults.go); its modelFormat is on the disallowed list.
      expect(r.metadata.annotations).toEqual({ 'cert-manager.io/cluster-issuer': 'le', 'serving.kserve.io/deploymentMode': 'Standard' });
    }
  });
});
