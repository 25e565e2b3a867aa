import { describe, expect, it } from 'vitest';
import { shortHash, type KubeObject } from '../../hooks/kit/index.js';
import { compositeControllerFor, crdFor } from '../../hooks/engine/manifests.js';
import { LAST_APPLIED_ANNOTATION } from '../../hooks/kit/children/keep.js';
import { converge, runCustomize } from '../../hooks/testing/index.js';
import { runSyncSent as runSync } from '../support/credentials.js';
import { defaultHookConfig, type HookConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import { loadYamlFile, referenceSamples, repoRoot, sampleCredentials } from '../support/reference.js';
import { expectValid, validateAgainstCrd } from '../support/validate.js';
import path from 'node:path';
import { compositionRules } from '../support/rules.js';

const config = defaultHookConfig();
const isvc = (spec: Record<string, unknown>, meta: Record<string, unknown> = {}, name = 'demo'): KubeObject => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name, namespace: 'ml', generation: 1, ...meta },
  spec,
});
const sklearn = (extra: Record<string, unknown> = {}) => ({ predictor: { ...extra, sklearn: { storageUri: 'gs://bucket/model' } } });
const server = (d: any) => d.spec.template.spec.containers[0];

describe('InferenceService samples', () => {
  const samples = [
    ...referenceSamples().filter((s) => s.file.startsWith('kserve-') && s.object.kind === 'InferenceService'),
    ...loadYamlFile(path.join(repoRoot(), 'examples/inferenceservice.yaml')).map((object) => ({ file: 'examples/inferenceservice.yaml', object })),
  ];
  it('has the KServe samples', () => expect(samples.length).toBeGreaterThanOrEqual(5));
  describe.each(samples)('$file', ({ object }) => {
    it('validates against our CRD', () => expect(validateAgainstCrd(crdFor(inferenceservice), object)).toEqual([]));
    it.each(['default', 'gateway-api'])('renders valid children (%s variant)', (variant) => {
      // The ServiceAccounts and Secrets the samples need beside their InferenceServices.
      const related = sampleCredentials();
      const out = runSync(inferenceservice, { parent: object, config, variant, related });
      expect(out.condition('Ready')?.reason).not.toBe('InvalidSpec');
      expect(out.children.length).toBeGreaterThan(0);
      for (const child of out.children) expectValid(child);
    });
  });
});

describe('InferenceService CompositeController', () => {
  it.each([
    {
      variant: 'default',
      exposure: 'Ingress',
      declared: ['apps/v1/deployments', 'v1/services', 'autoscaling/v2/horizontalpodautoscalers', 'networking.k8s.io/v1/ingresses'],
    },
    {
      variant: 'gateway-api',
      exposure: 'HTTPRoute',
      declared: [
        'apps/v1/deployments',
        'v1/services',
        'autoscaling/v2/horizontalpodautoscalers',
        'networking.k8s.io/v1/ingresses',
        'gateway.networking.k8s.io/v1/httproutes',
      ],
    },
  ])('$variant declares every kind it emits and exposes with $exposure', ({ variant, exposure, declared }) => {
    const controller = compositeControllerFor(inferenceservice, variant, { hookBaseUrl: 'http://x' }) as any;
    expect(controller.spec.childResources.map((r: { apiVersion: string; resource: string }) => `${r.apiVersion}/${r.resource}`)).toEqual(declared);
    // Converged: the Ingress waits for the predictor and transformer to be ready (kube_ingress_reconciler.go createRawIngress).
    const out = converge(inferenceservice, { parent: isvc({ ...sklearn(), transformer: { containers: [{ image: 't:1' }] } }), config, variant }).result;
    const kinds = new Set(out.children.map((c) => c.kind));
    expect(kinds).toContain(exposure);
    expect(kinds.has(exposure === 'Ingress' ? 'HTTPRoute' : 'Ingress')).toBe(false);
    for (const c of out.children) expect(c.metadata.namespace).toBe('ml');
  });
});

describe('InferenceService spec checks', () => {
  it.each([
    { reason: 'two framework keys', spec: { predictor: { sklearn: {}, xgboost: {} } }, field: 'spec.predictor' },
    { reason: 'no model and no containers', spec: { predictor: { minReplicas: 1 } }, field: 'spec.predictor' },
    { reason: 'a container without image', spec: { predictor: { containers: [{ name: 'kserve-container' }] } }, field: 'spec.predictor.containers[0].image' },
    { reason: 'a Knative-only scale metric', spec: sklearn({ scaleMetric: 'rps' }), field: 'spec.predictor.scaleMetric' },
    { reason: 'maxReplicas below minReplicas', spec: sklearn({ minReplicas: 3, maxReplicas: 2 }), field: 'spec.predictor.maxReplicas' },
    {
      reason: 'an unsupported storage scheme',
      spec: { predictor: { sklearn: { storageUri: 'ftp://host/model' } } },
      field: 'spec.predictor.sklearn.storageUri',
    },
    {
      reason: 'an OCI ImageVolume (oci+native://)',
      spec: { predictor: { model: { modelFormat: { name: 'sklearn' }, storageUri: 'oci+native://registry/model:1' } } },
      field: 'spec.predictor.model.storageUri',
    },
    {
      reason: 'a storageUris entry of an unknown scheme',
      spec: { predictor: { model: { modelFormat: { name: 'sklearn' } }, storageUris: [{ uri: 'ftp://x/y' }] } },
      field: 'spec.predictor.storageUris[0].uri',
    },
    { reason: 'pvc:// without a claim', spec: { predictor: { sklearn: { storageUri: 'pvc:///models' } } }, field: 'spec.predictor.sklearn.storageUri' },
    { reason: 'canaryTrafficPercent above 100', spec: sklearn({ canaryTrafficPercent: 120 }), field: 'spec.predictor.canaryTrafficPercent' },
  ])('rejects $reason, naming $field, and keeps the children', ({ spec, field }) => {
    const observed = runSync(inferenceservice, { parent: isvc(sklearn()), config }).children;
    const out = runSync(inferenceservice, { parent: isvc(spec), observed, config });
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(out.condition('Ready')?.message).toContain(field);
    expect(out.children).toEqual(observed);
  });

  it('keeps fields it does not model (KServe YAML applies unchanged)', () => {
    const out = runSync(inferenceservice, {
      parent: isvc({ predictor: { logger: { mode: 'all' }, sklearn: { storageUri: 'gs://b/m', imagePullPolicy: 'Always' } } }),
      config,
    });
    expect(out.condition('Ready')?.reason).not.toBe('InvalidSpec');
    expect(server(out.child('Deployment', 'demo-predictor'))).toMatchObject({ imagePullPolicy: 'Always' });
  });
});

describe('InferenceService predictor', () => {
  it('takes runtime images from the server configuration, and runtimeVersion as their tag', () => {
    const images = { ...config.inferenceservice.images, sklearnserver: 'registry.local/sklearnserver:v1', 'storage-initializer': 'registry.local/si:v1' };
    const custom: HookConfig = { ...config, inferenceservice: { ...config.inferenceservice, images } };
    const d = runSync(inferenceservice, { parent: isvc(sklearn()), config: custom }).child('Deployment', 'demo-predictor') as any;
    expect(server(d).image).toBe('registry.local/sklearnserver:v1');
    expect(d.spec.template.spec.initContainers[0].image).toBe('registry.local/si:v1');
    const tagged = runSync(inferenceservice, {
      parent: isvc({ predictor: { sklearn: { storageUri: 'gs://b/m', runtimeVersion: 'v0.14.0' } } }),
      config: custom,
    });
    expect(server(tagged.child('Deployment', 'demo-predictor')).image).toBe('registry.local/sklearnserver:v0.14.0');
  });

  it('downloads a custom container’s STORAGE_URI and points the variable at /mnt/models', () => {
    const out = runSync(inferenceservice, {
      parent: isvc({ predictor: { containers: [{ image: 'me/server:1', env: [{ name: 'STORAGE_URI', value: 's3://b/m' }] }] } }),
      config,
    });
    const d = out.child('Deployment', 'demo-predictor') as any;
    expect(d.spec.template.spec.initContainers[0].args).toEqual(['s3://b/m', '/mnt/models']);
    // KServe adds INFERENCE_SERVICE_NAME to every predictor container (components/predictor.go@v0.20.0).
    expect(server(d).env).toEqual([
      { name: 'STORAGE_URI', value: '/mnt/models' },
      { name: 'INFERENCE_SERVICE_NAME', value: 'demo' },
    ]);
    expect(server(d).volumeMounts).toEqual([{ name: 'kserve-provision-location', mountPath: '/mnt/models', readOnly: true }]);
  });

  it('never copies a storage Secret’s values, whatever keys it holds', () => {
    const secret = (data: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds', namespace: 'ml' }, data });
    const secrets: Array<Record<string, string>> = [
      { awsAccessKeyID: 'QUtJQQ==', awsSecretAccessKey: 'c2VjcmV0' },
      { 'gcloud-application-credentials.json': 'e30=' },
      { AZURE_CLIENT_SECRET: 'eA==', AZURE_CLIENT_ID: 'eQ==' },
      { HF_TOKEN: 'aGY=' },
    ];
    for (const data of secrets) {
      const sa: KubeObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'ml' } };
      const out = runSync(inferenceservice, {
        parent: isvc(sklearn(), { annotations: { 'serving.kserve.io/storageSecretName': 'creds' } }),
        related: [sa, secret(data)],
        config,
      });
      const text = JSON.stringify(out.children);
      for (const value of Object.values(data)) expect(text).not.toContain(value);
      expect(text).toContain('"creds"');
    }
  });

  it('asks Metacontroller for the ServiceAccount (default when none is named) by name, and for the Secrets of its own namespace only with the storageSecretName annotation (credentials/rules.ts)', () => {
    const credentialRules = (rules: ReturnType<typeof runCustomize>) =>
      compositionRules(rules).filter((r) => r.resource === 'secrets' || r.resource === 'serviceaccounts');
    const account = (name: string) => ({ apiVersion: 'v1', resource: 'serviceaccounts', namespace: 'ml', names: [name] });
    const secrets = {
      apiVersion: 'v1',
      resource: 'secrets',
      namespace: 'ml',
      labelSelector: { matchExpressions: [{ key: 'owner', operator: 'NotIn', values: ['helm'] }] },
    };
    expect(credentialRules(runCustomize(inferenceservice, { parent: isvc(sklearn()), config }))).toEqual([account('default')]);
    expect(
      credentialRules(
        runCustomize(inferenceservice, {
          parent: isvc(sklearn({ serviceAccountName: 'sa' }), { annotations: { 'serving.kserve.io/storageSecretName': 's3creds' } }),
          config,
        }),
      ),
    ).toEqual([account('sa'), secrets]);
  });
});

describe('InferenceService canary', () => {
  const v1 = isvc({ predictor: { sklearn: { storageUri: 'gs://b/v1' } } });
  const v2 = isvc({ predictor: { canaryTrafficPercent: 30, sklearn: { storageUri: 'gs://b/v2' } } }, { generation: 2 });
  const asApplied = (c: KubeObject): KubeObject => ({
    ...c,
    metadata: { ...c.metadata, annotations: { ...(c.metadata.annotations ?? {}), [LAST_APPLIED_ANNOTATION]: JSON.stringify(c) } },
  });

  it('keeps the stable Deployment exactly as Metacontroller last applied it', () => {
    const stable = runSync(inferenceservice, { parent: v1, config, variant: 'gateway-api' }).children.map(asApplied);
    const out = runSync(inferenceservice, { parent: v2, observed: stable, config, variant: 'gateway-api' });
    expect(out.child('Deployment', 'demo-predictor')).toEqual(
      JSON.parse(stable.find((c) => c.kind === 'Deployment')!.metadata.annotations![LAST_APPLIED_ANNOTATION]!),
    );
    expect(server(out.child('Deployment', 'demo-predictor-canary')).args).toContain('--model_name=demo');
    expect((out.child('Deployment', 'demo-predictor-canary') as any).spec.template.spec.initContainers[0].args[0]).toBe('gs://b/v2');
  });

  it('drops the canary when the spec goes back to what the stable runs', () => {
    const stable = runSync(inferenceservice, { parent: v1, config, variant: 'gateway-api' }).children;
    const back = isvc({ predictor: { canaryTrafficPercent: 30, sklearn: { storageUri: 'gs://b/v1' } } });
    const out = runSync(inferenceservice, { parent: back, observed: stable, config, variant: 'gateway-api' });
    expect(out.child('Deployment', 'demo-predictor-canary')).toBeUndefined();
    expect(out.condition('CanaryTrafficSplit')).toBeUndefined();
  });

  // 0.1.0 hashed the canonical JSON (keys sorted) of what the predictor runs; the hash is now
  // JSON.stringify's text. A stable Deployment with the old hash must not start a canary.
  describe('after an upgrade from 0.1.0 (spec-hash of sorted keys)', () => {
    const ANNOTATION = 'modelhooks.dev/spec-hash';
    const withOldHash = (children: KubeObject[]): KubeObject[] =>
      children.map((c: any) => {
        if (c.kind !== 'Deployment') return c;
        const t = c.spec.template;
        const old = shortHash({ pod: t.spec, labels: t.metadata.labels, annotations: t.metadata.annotations ?? {}, strategy: c.spec.strategy }, 16);
        return { ...c, metadata: { ...c.metadata, annotations: { ...c.metadata.annotations, [ANNOTATION]: old } } };
      });
    const hashOf = (c: KubeObject | undefined) => c?.metadata.annotations?.[ANNOTATION];

    it('a stable Deployment running this spec starts no canary and takes the new hash (metadata only: its pod template is unchanged)', () => {
      const same = isvc({ predictor: { canaryTrafficPercent: 30, sklearn: { storageUri: 'gs://b/v1' } } });
      const fresh = runSync(inferenceservice, { parent: same, config, variant: 'gateway-api' }).children;
      const upgraded = withOldHash(fresh);
      expect(hashOf(upgraded.find((c) => c.kind === 'Deployment'))).not.toBe(hashOf(fresh.find((c) => c.kind === 'Deployment')));
      const out = runSync(inferenceservice, { parent: same, observed: upgraded, config, variant: 'gateway-api' });
      expect(out.child('Deployment', 'demo-predictor-canary')).toBeUndefined();
      expect(out.condition('CanaryTrafficSplit')).toBeUndefined();
      const d = out.child('Deployment', 'demo-predictor') as any;
      expect(hashOf(d)).toBe(hashOf(fresh.find((c) => c.kind === 'Deployment')));
      expect(d.spec.template).toEqual((fresh.find((c) => c.kind === 'Deployment') as any).spec.template);
    });

    it('a stable Deployment with the old hash of another spec still starts a canary', () => {
      const stable = withOldHash(runSync(inferenceservice, { parent: v1, config, variant: 'gateway-api' }).children).map(asApplied);
      const out = runSync(inferenceservice, { parent: v2, observed: stable, config, variant: 'gateway-api' });
      expect(out.child('Deployment', 'demo-predictor-canary')).toBeDefined();
    });
  });
});

describe('InferenceService ModelMesh', () => {
  it('changes nothing and says why', () => {
    const observed = runSync(inferenceservice, { parent: isvc(sklearn()), config }).children;
    const out = runSync(inferenceservice, { parent: isvc(sklearn(), { annotations: { 'serving.kserve.io/deploymentMode': 'ModelMesh' } }), observed, config });
    expect(out.children).toEqual(observed);
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: 'UnsupportedDeploymentMode' });
  });

  it('keeps only what can be its children: an observed object of an undeclared type or another namespace is not answered (no 500)', () => {
    const observed = runSync(inferenceservice, { parent: isvc(sklearn()), config }).children;
    const foreign = { ...observed[0]!, metadata: { ...observed[0]!.metadata, namespace: 'other-tenant' } };
    const undeclared = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'demo', namespace: observed[0]!.metadata.namespace } };
    const out = runSync(inferenceservice, {
      parent: isvc(sklearn(), { annotations: { 'serving.kserve.io/deploymentMode': 'ModelMesh' } }),
      observed: [...observed, foreign, undeclared],
      config,
    });
    expect(out.children).toEqual(observed);
    expect(JSON.stringify(out.response)).not.toContain('other-tenant');
  });
});

describe('InferenceService immutable fields', () => {
  // apps/v1 Deployment selectors are immutable (pkg/apis/apps/validation ValidateDeploymentUpdate).
  it('a predictor Deployment with another selector (an older labelling) keeps it; PredictorReady=False/ImmutableField', () => {
    const first = runSync(inferenceservice, { parent: isvc(sklearn()), config }).children;
    const older = first.map((c: any) => (c.kind === 'Deployment' ? { ...c, spec: { ...c.spec, selector: { matchLabels: { app: 'demo-predictor-v0' } } } } : c));
    const out = runSync(inferenceservice, { parent: isvc(sklearn()), observed: older, config });
    const d = out.childrenOf<any>('Deployment')[0];
    expect(d.spec.selector).toEqual({ matchLabels: { app: 'demo-predictor-v0' } });
    expect(d.spec.template.metadata.labels.app).toBe('demo-predictor-v0');
    expect(out.condition('PredictorReady')).toMatchObject({ status: 'False', reason: 'ImmutableField' });
    expect(out.condition('Ready')?.status).toBe('False');
    expect(runSync(inferenceservice, { parent: isvc(sklearn()), observed: first, config }).condition('PredictorReady')?.reason).not.toBe('ImmutableField');
  });
});

describe('InferenceService user labels', () => {
  it('a predictor label never replaces a selector label: the Deployment still selects its own pods', () => {
    const parent = isvc(sklearn({ labels: { app: 'mine', team: 'a', component: 'custom', 'serving.kserve.io/inferenceservice': 'other' } }), {
      labels: { app: 'meta', cost: 'c1', team: 'b' },
    });
    const out = runSync(inferenceservice, { parent, config });
    const deployment = out.childrenOf('Deployment')[0] as any;
    const selector = deployment.spec.selector.matchLabels;
    const podLabels = deployment.spec.template.metadata.labels;
    expect(selector.app).toBe('isvc.demo-predictor');
    for (const [k, v] of Object.entries(selector)) expect(podLabels[k]).toBe(v);
    // Labels that no selector reads are the user's to set, the component's over the InferenceService's;
    // KServe's own (component, serving.kserve.io/inferenceservice) win as in buildObjectMeta (components/predictor.go@v0.20.0).
    expect(podLabels.team).toBe('a');
    expect(podLabels.cost).toBe('c1');
    expect(podLabels.component).toBe('predictor');
    expect(podLabels['serving.kserve.io/inferenceservice']).toBe('demo');
    // The Deployment has KServe's labels and modelhooks' app.kubernetes.io ones; its pods KServe's only (a KServe Deployment is not rolled).
    expect(deployment.metadata.labels).toMatchObject(podLabels);
    expect(Object.keys(podLabels).filter((k) => k.startsWith('app.kubernetes.io/'))).toEqual([]);
    const service = out.childrenOf('Service').find((s: any) => s.metadata.name === 'demo-predictor') as any;
    for (const [k, v] of Object.entries(service.spec.selector)) expect(podLabels[k]).toBe(v);
  });
  it('a predictor label or annotation the API server would refuse (label value over 63 characters, bad key) is InvalidSpec naming it; running children are kept', () => {
    const good = runSync(inferenceservice, { parent: isvc(sklearn()), config });
    const parent = isvc(sklearn({ labels: { ok: 'fine', long: 'x'.repeat(64), 'bad key': 'v', 'example.com/tail-': 'v' } }));
    const out = runSync(inferenceservice, { parent, observed: good.children, config });
    const ready = out.condition('Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(ready?.message).toContain('spec.predictor.labels.long: not a label value');
    expect(ready?.message).toContain('spec.predictor.labels.bad key: not a label key');
    expect(ready?.message).toContain('spec.predictor.labels.example.com/tail-: not a label key');
    expect(ready?.message).not.toContain('labels.ok');
    expect(out.children.map((c) => `${c.kind}/${c.metadata.name}`).sort()).toEqual(good.children.map((c) => `${c.kind}/${c.metadata.name}`).sort());
    const annotated = runSync(inferenceservice, {
      parent: isvc(sklearn({ annotations: { 'bad key': 'any text at all', 'example.com/ok': 'x y z' } })),
      observed: good.children,
      config,
    });
    expect(annotated.condition('Ready')?.message).toMatch(/^spec.predictor.annotations.bad key: not an annotation key/);
    expect(annotated.condition('Ready')?.message).not.toContain('example.com/ok');
    // 63 characters, a prefixed key and an empty value are valid labels.
    const valid = runSync(inferenceservice, { parent: isvc(sklearn({ labels: { long: 'x'.repeat(63), 'example.com/team': 'a', empty: '' } })), config });
    expect(valid.condition('Ready')?.reason).not.toBe('InvalidSpec');
  });
});
