import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { runSync } from '../../hooks/testing.js';

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
  { reason: 'pvc:// mount read-only by default', cite: 'webhook/admission/pod/storage_initializer_injector.go GetStorageInitializerReadOnlyFlag (default true); pkg/utils/storage.go AddModelMount', parent: isvc({ predictor: pvc }), deployment: 'demo-predictor', got: (p) => mount(p, 'kserve-pvc-source'), want: { name: 'kserve-pvc-source', mountPath: '/mnt/models', readOnly: true, subPath: 'models/iris' } },
  { reason: 'pvc:// volume carries no readOnly of its own', cite: 'pkg/utils/storage.go AddModelMount (PersistentVolumeClaimVolumeSource{ClaimName})', parent: isvc({ predictor: pvc }), deployment: 'demo-predictor', got: (p) => volume(p, 'kserve-pvc-source'), want: { name: 'kserve-pvc-source', persistentVolumeClaim: { claimName: 'claim' } } },
  { reason: 'readonly "false": pvc:// mount read-write', cite: 'storage_initializer_injector.go GetStorageInitializerReadOnlyFlag ("false" only); AddModelMount (ReadOnly false, omitted)', parent: isvc({ predictor: pvc }, READ_WRITE), deployment: 'demo-predictor', got: (p) => mount(p, 'kserve-pvc-source'), want: { name: 'kserve-pvc-source', mountPath: '/mnt/models', subPath: 'models/iris' } },
  { reason: 'readonly "False" is not "false": still read-only', cite: 'storage_initializer_injector.go GetStorageInitializerReadOnlyFlag (compares with "false")', parent: isvc({ predictor: pvc }, { 'storage.kserve.io/readonly': 'False' }), deployment: 'demo-predictor', got: (p) => mount(p, 'kserve-pvc-source').readOnly, want: true },
  { reason: 'readonly "false" on the component: read-write', cite: 'controller/components/predictor.go buildObjectMeta (component annotations over the InferenceService\'s); raw_kube_reconciler.go (componentMeta.Annotations)', parent: isvc({ predictor: { ...pvc, annotations: READ_WRITE } }), deployment: 'demo-predictor', got: (p) => mount(p, 'kserve-pvc-source').readOnly, want: undefined },
  { reason: 'readonly "false": the download emptyDir is mounted read-write on the server', cite: 'storage_initializer_injector.go CommonStorageInitialization (single URI: storageMountParams.ReadOnly = IsReadOnly)', parent: isvc({ predictor: gcs }, READ_WRITE), deployment: 'demo-predictor', got: (p) => mount(p, 'kserve-provision-location'), want: { name: 'kserve-provision-location', mountPath: '/mnt/models' } },
  { reason: 'the storage initializer always writes', cite: 'pkg/utils/storage.go AddModelMount (init containers: ReadOnly = false)', parent: isvc({ predictor: gcs }), deployment: 'demo-predictor', got: (p) => p.initContainers[0].volumeMounts[0].readOnly, want: undefined },
  { reason: 'readonly "false": storageUris pvc:// mounts read-write', cite: 'controller/reconcilers/raw/raw_kube_reconciler.go (IsReadOnly: GetStorageInitializerReadOnlyFlag(componentMeta.Annotations)); CommonStorageInitialization (PVC URIs)', parent: isvc({ predictor: { model: { modelFormat: { name: 'sklearn' } }, storageUris: [{ uri: 'pvc://claim/a', mountPath: '/mnt/a' }] } }, READ_WRITE), deployment: 'demo-predictor', got: (p) => mount(p, 'mnt-a'), want: { name: 'mnt-a', mountPath: '/mnt/a' } },
  { reason: 'readonly "false" reaches a transformer\'s STORAGE_URI mount too', cite: 'storage_initializer_injector.go InjectStorageInitializer (pod.Annotations, as every component\'s pod has them)', parent: isvc({ predictor: gcs, transformer: { containers: [{ image: 'me/t:1', env: [{ name: 'STORAGE_URI', value: 'gs://b/t' }] }] } }, READ_WRITE), deployment: 'demo-transformer', got: (p) => mount(p, 'kserve-provision-location'), want: { name: 'kserve-provision-location', mountPath: '/mnt/models' } },
];

describe('storage.kserve.io/readonly and the model mounts, as KServe v0.20.0', () => {
  for (const r of storageRows) {
    it(`${r.reason} (${r.cite})`, () => {
      const out = runSync(inferenceservice, { parent: r.parent, config });
      expect(r.got(podOf(out, r.deployment))).toEqual(r.want);
    });
  }
});
