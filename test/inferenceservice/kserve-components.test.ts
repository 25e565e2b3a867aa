import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { runSync } from '../../hooks/testing/index.js';

/*
 * Per component, the fields KServe v0.20.0 sets that these cases exercise: storage mounts,
 * arguments, env. Each row's expected value is read off KServe's code at tag v0.20.0, cited per
 * row (paths in github.com/kserve/kserve; `controller/` is pkg/controller/v1beta1/inferenceservice/).
 */

const config = defaultHookConfig();
const isvc = (spec: Record<string, unknown>, annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'demo', namespace: 'ml', generation: 1, ...(annotations ? { annotations } : {}) },
  spec,
});
const podOf = (out: ReturnType<typeof runSync>, name: string): any => (out.child('Deployment', name) as any)?.spec.template.spec;
const container = (pod: any, name = 'kserve-container') => pod.containers.find((c: any) => c.name === name);
const volume = (pod: any, name: string) => pod.volumes.find((v: any) => v.name === name);
const mount = (pod: any, name: string, c = 'kserve-container') => container(pod, c).volumeMounts.find((m: any) => m.name === name);

interface Row {
  reason: string;
  cite: string;
  parent: KubeObject;
  deployment: string;
  got: (pod: any) => unknown;
  want: unknown;
}

const READ_WRITE = { 'storage.kserve.io/readonly': 'false' };
const pvc = { sklearn: { storageUri: 'pvc://claim/models/iris' } };
const gcs = { sklearn: { storageUri: 'gs://b/m' } };

const storageRows: Row[] = [
  {
    reason: 'pvc:// mount read-only by default',
    cite: 'webhook/admission/pod/storage_initializer_injector.go GetStorageInitializerReadOnlyFlag (default true); pkg/utils/storage.go AddModelMount',
    parent: isvc({ predictor: pvc }),
    deployment: 'demo-predictor',
    got: (p) => mount(p, 'kserve-pvc-source'),
    want: { name: 'kserve-pvc-source', mountPath: '/mnt/models', readOnly: true, subPath: 'models/iris' },
  },
  {
    reason: 'pvc:// volume carries no readOnly of its own',
    cite: 'pkg/utils/storage.go AddModelMount (PersistentVolumeClaimVolumeSource{ClaimName})',
    parent: isvc({ predictor: pvc }),
    deployment: 'demo-predictor',
    got: (p) => volume(p, 'kserve-pvc-source'),
    want: { name: 'kserve-pvc-source', persistentVolumeClaim: { claimName: 'claim' } },
  },
  {
    reason: 'readonly "false": pvc:// mount read-write',
    cite: 'storage_initializer_injector.go GetStorageInitializerReadOnlyFlag ("false" only); AddModelMount (ReadOnly false, omitted)',
    parent: isvc({ predictor: pvc }, READ_WRITE),
    deployment: 'demo-predictor',
    got: (p) => mount(p, 'kserve-pvc-source'),
    want: { name: 'kserve-pvc-source', mountPath: '/mnt/models', subPath: 'models/iris' },
  },
  {
    reason: 'readonly "False" is not "false": still read-only',
    cite: 'storage_initializer_injector.go GetStorageInitializerReadOnlyFlag (compares with "false")',
    parent: isvc({ predictor: pvc }, { 'storage.kserve.io/readonly': 'False' }),
    deployment: 'demo-predictor',
    got: (p) => mount(p, 'kserve-pvc-source').readOnly,
    want: true,
  },
  {
    reason: 'readonly "false" on the component: read-write',
    cite: "controller/components/predictor.go buildObjectMeta (component annotations over the InferenceService's); raw_kube_reconciler.go (componentMeta.Annotations)",
    parent: isvc({ predictor: { ...pvc, annotations: READ_WRITE } }),
    deployment: 'demo-predictor',
    got: (p) => mount(p, 'kserve-pvc-source').readOnly,
    want: undefined,
  },
  {
    reason: 'readonly "false": the download emptyDir is mounted read-write on the server',
    cite: 'storage_initializer_injector.go CommonStorageInitialization (single URI: storageMountParams.ReadOnly = IsReadOnly)',
    parent: isvc({ predictor: gcs }, READ_WRITE),
    deployment: 'demo-predictor',
    got: (p) => mount(p, 'kserve-provision-location'),
    want: { name: 'kserve-provision-location', mountPath: '/mnt/models' },
  },
  {
    reason: 'the storage initializer always writes',
    cite: 'pkg/utils/storage.go AddModelMount (init containers: ReadOnly = false)',
    parent: isvc({ predictor: gcs }),
    deployment: 'demo-predictor',
    got: (p) => p.initContainers[0].volumeMounts[0].readOnly,
    want: undefined,
  },
  {
    reason: 'readonly "false": storageUris pvc:// mounts read-write',
    cite: 'controller/reconcilers/raw/raw_kube_reconciler.go (IsReadOnly: GetStorageInitializerReadOnlyFlag(componentMeta.Annotations)); CommonStorageInitialization (PVC URIs)',
    parent: isvc({ predictor: { model: { modelFormat: { name: 'sklearn' } }, storageUris: [{ uri: 'pvc://claim/a', mountPath: '/mnt/a' }] } }, READ_WRITE),
    deployment: 'demo-predictor',
    got: (p) => mount(p, 'mnt-a'),
    want: { name: 'mnt-a', mountPath: '/mnt/a' },
  },
  {
    reason: 'readonly "false" reaches a transformer\'s STORAGE_URI mount too',
    cite: "storage_initializer_injector.go InjectStorageInitializer (pod.Annotations, as every component's pod has them)",
    parent: isvc({ predictor: gcs, transformer: { containers: [{ image: 'me/t:1', env: [{ name: 'STORAGE_URI', value: 'gs://b/t' }] }] } }, READ_WRITE),
    deployment: 'demo-transformer',
    got: (p) => mount(p, 'kserve-provision-location'),
    want: { name: 'kserve-provision-location', mountPath: '/mnt/models' },
  },
];

describe('storage.kserve.io/readonly and the model mounts, as KServe v0.20.0', () => {
  for (const r of storageRows) {
    it(`${r.reason} (${r.cite})`, () => {
      const out = runSync(inferenceservice, { parent: r.parent, config });
      expect(r.got(podOf(out, r.deployment))).toEqual(r.want);
    });
  }
});

const transformer = (fields: Record<string, unknown> = {}, container: Record<string, unknown> = {}) =>
  isvc({ predictor: gcs, transformer: { containers: [{ image: 'me/t:1', ...container }], ...fields } });
const explainer = (fields: Record<string, unknown> = {}, container: Record<string, unknown> = {}) =>
  isvc({ predictor: gcs, explainer: { containers: [{ image: 'me/e:1', ...container }], ...fields } });
const argsOf = (pod: any) => pod.containers[0].args;

const argRows: Row[] = [
  {
    reason: "transformer: --model_name, --predictor_host, --http_port after the user's",
    cite: 'pkg/apis/serving/v1beta1/transformer_custom.go GetContainer; controller/components/transformer.go (PredictorServiceName)',
    parent: transformer({}, { args: ['--feast'] }),
    deployment: 'demo-transformer',
    got: argsOf,
    want: ['--feast', '--model_name', 'demo', '--predictor_host', 'demo-predictor.ml', '--http_port', '8080'],
  },
  {
    reason: 'transformer: --workers from containerConcurrency',
    cite: 'transformer_custom.go GetContainer (ArgumentWorkers, extensions.ContainerConcurrency)',
    parent: transformer({ containerConcurrency: 4 }),
    deployment: 'demo-transformer',
    got: argsOf,
    want: ['--model_name', 'demo', '--predictor_host', 'demo-predictor.ml', '--http_port', '8080', '--workers', '4'],
  },
  {
    reason: "transformer: the user's --workers=2 wins",
    cite: 'transformer_custom.go GetContainer (utils.IncludesArg)',
    parent: transformer({ containerConcurrency: 4 }, { args: ['--workers=2'] }),
    deployment: 'demo-transformer',
    got: argsOf,
    want: ['--workers=2', '--model_name', 'demo', '--predictor_host', 'demo-predictor.ml', '--http_port', '8080'],
  },
  {
    reason: 'an argument that starts with a flag counts as the flag',
    cite: 'pkg/utils/collections.go IncludesArg (strings.HasPrefix)',
    parent: transformer({}, { args: ['--model_name_suffix=x'] }),
    deployment: 'demo-transformer',
    got: argsOf,
    want: ['--model_name_suffix=x', '--predictor_host', 'demo-predictor.ml', '--http_port', '8080'],
  },
  {
    reason: 'transformer: no --workers without containerConcurrency',
    cite: 'transformer_custom.go GetContainer (ContainerConcurrency != nil)',
    parent: transformer(),
    deployment: 'demo-transformer',
    got: (p) => argsOf(p).includes('--workers'),
    want: false,
  },
  {
    reason: 'transformer: its first container is kserve-container whatever the user named it',
    cite: 'transformer_custom.go Default (Containers[0].Name = InferenceServiceContainerName)',
    parent: transformer({}, { name: 'my-transformer' }),
    deployment: 'demo-transformer',
    got: (p) => p.containers[0].name,
    want: 'kserve-container',
  },
  {
    reason: 'transformer: INFERENCE_SERVICE_NAME on its first container',
    cite: 'controller/components/transformer.go (AddEnvVarToPodSpec InferenceServiceNameEnvVarKey)',
    parent: transformer(),
    deployment: 'demo-transformer',
    got: (p) => p.containers[0].env,
    want: [{ name: 'INFERENCE_SERVICE_NAME', value: 'demo' }],
  },
  {
    reason: 'transformer: TCP readiness on its first port, no liveness or startup probe',
    cite: 'controller/reconcilers/deployment/deployment_reconciler.go setDefaultPodSpec',
    parent: transformer({}, { ports: [{ containerPort: 9000 }] }),
    deployment: 'demo-transformer',
    got: (p) => [p.containers[0].readinessProbe, p.containers[0].livenessProbe, p.containers[0].startupProbe],
    want: [{ tcpSocket: { port: 9000 }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 }, undefined, undefined],
  },
  {
    reason: 'explainer: --workers from containerConcurrency',
    cite: 'pkg/apis/serving/v1beta1/explainer_custom.go GetContainer (ArgumentWorkers)',
    parent: explainer({ containerConcurrency: 2 }),
    deployment: 'demo-explainer',
    got: argsOf,
    want: ['--model_name', 'demo', '--predictor_host', 'demo-predictor.ml', '--http_port', '8080', '--workers', '2'],
  },
  {
    reason: 'explainer: its first container is kserve-container; no INFERENCE_SERVICE_NAME',
    cite: 'explainer_custom.go Default; controller/components/explainer.go (no AddEnvVarToPodSpec)',
    parent: explainer({}, { name: 'mine' }),
    deployment: 'demo-explainer',
    got: (p) => [p.containers[0].name, p.containers[0].env],
    want: ['kserve-container', undefined],
  },
  {
    reason: 'custom predictor alone: renamed kserve-container',
    cite: 'pkg/apis/serving/v1beta1/predictor_custom.go Default (len(Containers) == 1)',
    parent: isvc({ predictor: { containers: [{ name: 'server', image: 'me/p:1' }] } }),
    deployment: 'demo-predictor',
    got: (p) => p.containers[0].name,
    want: 'kserve-container',
  },
  {
    reason: 'custom predictor with two named containers: names kept, no arguments added',
    cite: 'predictor_custom.go Default (first renamed only when unnamed), GetContainer (no arguments)',
    parent: isvc({
      predictor: {
        containers: [
          { name: 'server', image: 'me/p:1', args: ['a'] },
          { name: 'proxy', image: 'me/x:1' },
        ],
      },
    }),
    deployment: 'demo-predictor',
    got: (p) => p.containers.map((c: any) => [c.name, c.args]),
    want: [
      ['server', ['a']],
      ['proxy', undefined],
    ],
  },
  {
    reason: 'imagePullPolicy IfNotPresent on a server without one, even for an image tagged latest',
    cite: 'controller/reconcilers/deployment/deployment_reconciler.go setDefaultPodSpec (PullIfNotPresent)',
    parent: isvc({ predictor: { model: { modelFormat: { name: 'vLLM' }, storageUri: 'hf://org/m' } } }),
    deployment: 'demo-predictor',
    got: (p) => [p.containers[0].image, p.containers[0].imagePullPolicy],
    want: ['vllm/vllm-openai-cpu:latest', 'IfNotPresent'],
  },
  {
    reason: "imagePullPolicy: the user's kept; a container beside the server gets IfNotPresent too",
    cite: 'deployment_reconciler.go setDefaultPodSpec (every container with ImagePullPolicy "")',
    parent: isvc({ predictor: { sklearn: { storageUri: 'gs://b/m', imagePullPolicy: 'Always' }, containers: [{ name: 'proxy', image: 'me/x:latest' }] } }),
    deployment: 'demo-predictor',
    got: (p) => p.containers.map((c: any) => c.imagePullPolicy),
    want: ['Always', 'IfNotPresent'],
  },
];

describe('arguments, names and env KServe v0.20.0 gives each component', () => {
  for (const r of argRows) {
    it(`${r.reason} (${r.cite})`, () => {
      const out = runSync(inferenceservice, { parent: r.parent, config });
      expect(r.got(podOf(out, r.deployment))).toEqual(r.want);
    });
  }
});
