import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { isLabelValue } from '../../hooks/kit/children/labels.js';
import { runCustomize, runSync } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';
import { compositionRules } from '../support/rules.js';

const config = defaultHookConfig();
/** The hooks configured with ModelMesh's controller in `team`. */
const mmConfig = { ...config, trustyai: { ...config.trustyai, modelMeshNamespace: 'team' } };
const parent = (name: string, spec: Record<string, unknown>, apiVersion = 'trustyai.opendatahub.io/v1') => ({
  apiVersion,
  kind: 'TrustyAIService',
  metadata: { name, namespace: 'team', generation: 1 },
  spec,
});
const pvcSpec = { storage: { format: 'PVC' }, metrics: { schedule: '5s' } };
const dbSpec = { storage: { format: 'DATABASE', databaseConfigurations: 'creds' }, metrics: { schedule: '5s' } };

describe('customize', () => {
  it('asks for model-serving-config and the TrustyAIServices of its own namespace only; the Secret only in DATABASE mode', () => {
    const pvc = compositionRules(runCustomize(trustyai, { parent: parent('a', pvcSpec), config }));
    expect(pvc).toEqual([
      { apiVersion: 'v1', resource: 'configmaps', namespace: 'team', names: ['model-serving-config'] },
      { apiVersion: 'trustyai.opendatahub.io/v1', resource: 'trustyaiservices', namespace: 'team' },
      { apiVersion: 'serving.kserve.io/v1beta1', resource: 'inferenceservices', namespace: 'team' },
      // Cluster-scoped, no tenant data: whether the claim may grow depends on its class.
      { apiVersion: 'storage.k8s.io/v1', resource: 'storageclasses' },
      // The kit's child-name check of the kube-rbac-proxy ConfigMap (another owner's keeps it out).
      { apiVersion: 'v1', resource: 'configmaps', namespace: 'team', names: ['a-kube-rbac-proxy-config'] },
    ]);
    const db = runCustomize(trustyai, { parent: parent('a', dbSpec), config });
    // The credentials, and `<n>-db-ca` whose presence turns on database TLS.
    expect(db).toContainEqual({ apiVersion: 'v1', resource: 'secrets', namespace: 'team', names: ['creds', 'a-db-ca'] });
    expect(db.map((r) => r.resource)).not.toContain('storageclasses');
    for (const rule of [...pvc, ...db].filter((r) => r.resource !== 'storageclasses' && r.resource !== 'namespaces'))
      expect(rule.namespace, rule.resource).toBe('team');
  });
});

describe('invalid specs keep everything and name the field', () => {
  const observed = runSync(trustyai, { parent: parent('a', pvcSpec), config }).children;
  const cases = [
    {
      reason: 'a storage format the CRD would reject, sent directly',
      spec: { storage: { format: 'S3' }, metrics: { schedule: '5s' } },
      field: 'spec.storage.format',
    },
    {
      reason: 'DATABASE without the Secret name',
      spec: { storage: { format: 'DATABASE' }, metrics: { schedule: '5s' } },
      field: 'spec.storage.databaseConfigurations',
    },
    { reason: 'no metrics schedule in either spelling', spec: { storage: { format: 'PVC' } }, field: 'spec.metrics.schedule' },
    {
      reason: 'a schedule that is not a duration',
      spec: { storage: { format: 'PVC' }, trustyaiMetrics: { schedule: 'soon' } },
      field: 'spec.trustyaiMetrics.schedule',
    },
    { reason: 'negative replicas', spec: { ...pvcSpec, replicas: -1 }, field: 'spec.replicas' },
  ];
  for (const c of cases) {
    it(c.reason, () => {
      const out = runSync(trustyai, { parent: parent('a', c.spec), observed, config });
      expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
      expect(out.condition('Ready')?.message).toContain(c.field);
      expect(out.status.phase).toBe('Not Ready');
      expect(out.children).toEqual(observed);
    });
  }
});

describe('storage', () => {
  it('keeps an existing PVC when the service switches to DATABASE, so no data is deleted', () => {
    const before = runSync(trustyai, { parent: parent('a', pvcSpec), config });
    const pvc = before.child('PersistentVolumeClaim', 'a-pvc') as KubeObject;
    const after = runSync(trustyai, { parent: parent('a', dbSpec), observed: before.children, config });
    expect(after.child('PersistentVolumeClaim', 'a-pvc')).toEqual(pvc);
    expect(JSON.stringify(after.child('Deployment', 'a'))).not.toContain('a-pvc');
  });

  it('sets a pod fsGroup for the PVC on plain Kubernetes, not on OpenShift where the SCC assigns it', () => {
    const fsGroup = (variant: string) =>
      (runSync(trustyai, { parent: parent('a', pvcSpec), config, variant }).child('Deployment', 'a')?.spec as any).template.spec.securityContext.fsGroup;
    expect(fsGroup('default')).toBe(1001);
    expect(fsGroup('openshift')).toBeUndefined();
  });
});

describe('DATABASE credentials', () => {
  const secret = (keys: string[]) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'creds', namespace: 'team' },
    data: Object.fromEntries(keys.map((k) => [k, 'eA=='])),
  });
  const all = ['databaseKind', 'databaseUsername', 'databasePassword', 'databaseService', 'databasePort', 'databaseName', 'databaseGeneration'];
  it('a Secret with every key is found', () => {
    const out = runSync(trustyai, { parent: parent('a', dbSpec), config, related: [secret(all)] as KubeObject[] });
    expect(out.condition('StorageReady')).toMatchObject({ status: 'True', reason: 'DBCredentialsFound' });
  });
  it('a Secret that lacks a key the pods reference says which, instead of pods failing later', () => {
    const out = runSync(trustyai, { parent: parent('a', dbSpec), config, related: [secret(all.slice(0, 5))] as KubeObject[] });
    expect(out.condition('StorageReady')).toMatchObject({
      status: 'False',
      reason: 'DBCredentialsIncomplete',
      message: 'Secret creds lacks the keys databaseName, databaseGeneration',
    });
    expect(out.child('Deployment', 'a')).toBeDefined();
  });
  it('never copies a Secret value into a child', () => {
    const out = runSync(trustyai, {
      parent: parent('a', dbSpec),
      config,
      related: [{ ...secret(all), data: Object.fromEntries(all.map((k) => [k, 'VALUE-' + k])) }] as KubeObject[],
    });
    expect(JSON.stringify(out.children)).not.toContain('VALUE-');
  });
});

describe('API versions', () => {
  it('v1alpha1 and v1 give the same children', () => {
    const v1 = runSync(trustyai, { parent: parent('a', pvcSpec), config });
    const alpha = runSync(trustyai, { parent: parent('a', pvcSpec, 'trustyai.opendatahub.io/v1alpha1'), config });
    expect(alpha.children).toEqual(v1.children);
  });
  it('metrics and trustyaiMetrics are the same setting', () => {
    const a = runSync(trustyai, { parent: parent('a', { storage: { format: 'PVC' }, metrics: { schedule: '9s', batchSize: 7 } }), config });
    const b = runSync(trustyai, { parent: parent('a', { storage: { format: 'PVC' }, trustyaiMetrics: { schedule: '9s', batchSize: 7 } }), config });
    expect(b.children).toEqual(a.children);
  });
});

describe('two TrustyAIServices in one namespace', () => {
  it('both end up in the payload processor list, written by the ConfigMap’s owner', () => {
    const a = parent('a', pvcSpec);
    const b = parent('b', pvcSpec);
    // a created model-serving-config first (it owns it); it now sees b in the namespace.
    const first = runSync(trustyai, { parent: a, config: mmConfig, related: [a, b] as KubeObject[] });
    const cm = first.child('ConfigMap', 'model-serving-config') as KubeObject & { data: Record<string, string> };
    expect(cm.data['config.yaml']).toBe(
      'payloadProcessors:\n  - http://a.team.svc.cluster.local/consumer/kserve/v2\n  - http://b.team.svc.cluster.local/consumer/kserve/v2\n',
    );
    // b sees a's ConfigMap as a related object, owned by a: it must not emit it, and is ready.
    const owned = {
      ...cm,
      metadata: {
        ...cm.metadata,
        ownerReferences: [{ apiVersion: 'trustyai.opendatahub.io/v1', kind: 'TrustyAIService', name: 'a', uid: 'ua', controller: true }],
      },
    };
    const second = runSync(trustyai, { parent: b, config: mmConfig, related: [owned, a, b] as KubeObject[] });
    expect(second.child('ConfigMap', 'model-serving-config')).toBeUndefined();
    expect(second.condition('ModelMeshReady')).toMatchObject({ status: 'True', reason: 'PayloadProcessorConfigured' });
  });
});

describe('long names', () => {
  it('the app and instance labels of two long names are valid and differ (hashed, not cut)', () => {
    const long = 'a'.repeat(70);
    const labelsOf = (name: string) =>
      (runSync(trustyai, { parent: parent(name, pvcSpec), config }).childrenOf('Deployment')[0]?.metadata.labels ?? {}) as Record<string, string>;
    const [x, y] = [labelsOf(`${long}x`), labelsOf(`${long}y`)];
    for (const labels of [x, y]) for (const v of Object.values(labels)) expect(isLabelValue(v), v).toBe(true);
    expect(x.app).not.toBe(y.app);
    expect(x['app.kubernetes.io/instance']).not.toBe(y['app.kubernetes.io/instance']);
  });
});
