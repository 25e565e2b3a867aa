import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { runCustomize } from '../../hooks/testing/index.js';
import { runSyncSent as runSync } from '../support/credentials.js';
import { compositionRules } from '../support/rules.js';
import { loadYamlFile, vendorDir } from '../support/reference.js';
import { expectValid } from '../support/validate.js';
import path from 'node:path';

/*
 * Storage credentials as KServe v0.20.0 builds them. Every expected value names the upstream
 * file it comes from (kserve/kserve at tag v0.20.0).
 */
const config = defaultHookConfig();
const NS = 'models';
const isvc = (spec: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'demo', namespace: NS, generation: 1, ...meta },
  spec,
});
const sa = (name: string, secrets: string[] = [], annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name, namespace: NS, ...(annotations ? { annotations } : {}) },
  ...(secrets.length > 0 ? { secrets: secrets.map((n) => ({ name: n })) } : {}),
});
const secret = (name: string, keys: string[], annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: NS, ...(annotations ? { annotations } : {}) },
  data: Object.fromEntries(keys.map((k) => [k, 'dmFsdWU='])),
});
const pod = (out: ReturnType<typeof runSync>, name = 'demo'): any => (out.child('Deployment', `${name}-predictor`)?.spec as any)?.template.spec;
const init = (out: ReturnType<typeof runSync>, name = 'demo'): any =>
  pod(out, name).initContainers.find((c: { name: string }) => c.name === 'storage-initializer');
const ref = (name: string, secretName: string, key: string) => ({ name, valueFrom: { secretKeyRef: { name: secretName, key } } });
const s3Model = (extra: Record<string, unknown> = {}) => ({ predictor: { ...extra, sklearn: { storageUri: 's3://bucket/model' } } });

describe('the KServe docs sample "S3 with serviceAccountName" (docs/samples/storage/s3, v0.20.0)', () => {
  const samples = loadYamlFile(path.join(vendorDir(), 'samples/kserve-storage-s3-s3_secret.yaml'));
  const [parent] = loadYamlFile(path.join(vendorDir(), 'samples/kserve-storage-s3-tensorflow_s3.yaml'));
  const inNs = (o: KubeObject): KubeObject => ({ ...o, metadata: { ...o.metadata, namespace: NS, generation: 1 } });
  const out = runSync(inferenceservice, { parent: inNs(parent as KubeObject), related: (samples as KubeObject[]).map(inNs), config });
  const env = init(out, 'mnist-s3').env;

  it.each([
    {
      field: 'AWS_ACCESS_KEY_ID',
      want: ref('AWS_ACCESS_KEY_ID', 'mysecret', 'AWS_ACCESS_KEY_ID'),
      cite: 'pkg/credentials/s3/s3_secret.go BuildSecretEnvs; config/configmap/inferenceservice.yaml s3AccessKeyIDName',
    },
    {
      field: 'AWS_SECRET_ACCESS_KEY',
      want: ref('AWS_SECRET_ACCESS_KEY', 'mysecret', 'AWS_SECRET_ACCESS_KEY'),
      cite: 'pkg/credentials/s3/s3_secret.go BuildSecretEnvs; config/configmap/inferenceservice.yaml s3SecretAccessKeyName',
    },
    {
      field: 'S3_USE_HTTPS',
      want: { name: 'S3_USE_HTTPS', value: '1' },
      cite: 'pkg/credentials/s3/utils.go getEndpointConfiguration (s3-usehttps annotation)',
    },
    { field: 'S3_ENDPOINT', want: { name: 'S3_ENDPOINT', value: 's3.amazonaws.com' }, cite: 'pkg/credentials/s3/utils.go BuildS3EnvVars' },
    {
      field: 'AWS_ENDPOINT_URL',
      want: { name: 'AWS_ENDPOINT_URL', value: 'https://s3.amazonaws.com' },
      cite: 'pkg/credentials/s3/utils.go getEndpointConfiguration',
    },
    {
      field: 'awsAnonymousCredential',
      want: { name: 'awsAnonymousCredential', value: 'false' },
      cite: 'pkg/credentials/s3/s3_secret.go AWSAnonymousCredential, InferenceServiceS3UseAnonymousCredential',
    },
    {
      field: 'AWS_DEFAULT_REGION',
      want: { name: 'AWS_DEFAULT_REGION', value: 'us-east-2' },
      cite: 'pkg/credentials/s3/s3_secret.go AWSRegion, InferenceServiceS3SecretRegionAnnotation',
    },
    { field: 'HF_HUB_ENABLE_HF_TRANSFER', want: { name: 'HF_HUB_ENABLE_HF_TRANSFER', value: '1' }, cite: 'pkg/utils/storage.go AddDefaultHuggingFaceEnvVars' },
  ])('storage-initializer env $field ($cite)', ({ want }) => {
    expect(env).toContainEqual(want);
  });

  it("keeps KServe's env order: the keys, then the settings in BuildS3EnvVars' order, then the HF defaults (utils.go, storage.go)", () => {
    expect(env.map((e: { name: string }) => e.name)).toEqual([
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'S3_USE_HTTPS',
      'S3_ENDPOINT',
      'AWS_ENDPOINT_URL',
      'awsAnonymousCredential',
      'AWS_DEFAULT_REGION',
      'HF_HUB_ENABLE_HF_TRANSFER',
      'HF_XET_HIGH_PERFORMANCE',
      'HF_XET_NUM_CONCURRENT_RANGE_GETS',
    ]);
  });

  it.each([
    {
      field: 'initContainers[0].name',
      get: (p: any) => p.initContainers[0].name,
      want: 'storage-initializer',
      cite: 'pkg/constants/constants.go StorageInitializerContainerName',
    },
    {
      field: 'initContainers[0].args',
      get: (p: any) => p.initContainers[0].args,
      want: ['s3://kfserving-examples/mnist', '/mnt/models'],
      cite: 'storage_initializer_injector.go CommonStorageInitialization; constants.DefaultModelLocalMountPath',
    },
    { field: 'serviceAccountName', get: (p: any) => p.serviceAccountName, want: 'sa', cite: 'docs/samples/storage/s3/tensorflow_s3.yaml' },
    {
      field: 'volumes[0]',
      get: (p: any) => p.volumes[0],
      want: { name: 'kserve-provision-location', emptyDir: {} },
      cite: 'constants.StorageInitializerVolumeName; pkg/utils/storage.go AddModelMount',
    },
  ])('pod $field ($cite)', ({ get, want }) => {
    expect(get(pod(out, 'mnist-s3'))).toEqual(want);
  });

  it("never carries the Secret's values, and its children are valid", () => {
    const text = JSON.stringify(out.children);
    for (const v of ['bWluaW8=', 'bWluaW8xMjM=', 'minio123']) expect(text).not.toContain(v);
    for (const c of out.children) expectValid(c);
    expect(out.condition('StorageSecretFound')).toMatchObject({ status: 'True', message: 'storage credentials from Secret mysecret' });
  });
});

describe('credential builders (pkg/credentials/*, v0.20.0)', () => {
  const run = (related: KubeObject[], spec: Record<string, unknown> = s3Model({ serviceAccountName: 'sa' }), meta: Record<string, unknown> = {}) =>
    runSync(inferenceservice, { parent: isvc(spec, meta), related, config });

  it.each([
    {
      reason: 'the legacy AZ_* keys are referenced under the AZURE_* names; AZURE_TENANT_ID always (azure/azure_secret.go BuildSecretEnvs, EmptyKeysToIgnore)',
      keys: ['AZ_CLIENT_ID', 'AZ_CLIENT_SECRET'],
      want: [ref('AZURE_TENANT_ID', 'c', 'AZURE_TENANT_ID'), ref('AZURE_CLIENT_ID', 'c', 'AZ_CLIENT_ID'), ref('AZURE_CLIENT_SECRET', 'c', 'AZ_CLIENT_SECRET')],
    },
    {
      reason: 'a storage access key alone (azure_secret.go BuildStorageAccessKeySecretEnv)',
      keys: ['AZURE_STORAGE_ACCESS_KEY'],
      want: [ref('AZURE_STORAGE_ACCESS_KEY', 'c', 'AZURE_STORAGE_ACCESS_KEY')],
    },
    { reason: 'HF_TOKEN (hf/hf_secret.go)', keys: ['HF_TOKEN'], want: [ref('HF_TOKEN', 'c', 'HF_TOKEN')] },
    {
      reason: "S3 settings kept in the Secret's data are referenced, not copied (s3/utils.go getEnvValue reads data when no annotation)",
      keys: ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'S3_ENDPOINT', 'AWS_DEFAULT_REGION'],
      want: [ref('S3_ENDPOINT', 'c', 'S3_ENDPOINT'), ref('AWS_ENDPOINT_URL', 'c', 'S3_ENDPOINT'), ref('AWS_DEFAULT_REGION', 'c', 'AWS_DEFAULT_REGION')],
    },
  ])('$reason', ({ keys, want }) => {
    const env = init(run([sa('sa', ['c']), secret('c', keys)])).env;
    const names = new Set(want.map((w) => w.name));
    expect(env.filter((e: { name: string }) => names.has(e.name))).toEqual(want);
  });

  it("an IRSA ServiceAccount gives its s3-* annotations, the Secret's override them in place (service_account_credentials.go, utils.MergeEnvs)", () => {
    const irsa = sa('sa', ['c'], {
      'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/r',
      'serving.kserve.io/s3-region': 'eu-west-1',
      'serving.kserve.io/s3-verifyssl': '0',
    });
    const env = init(run([irsa, secret('c', ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'], { 'serving.kserve.io/s3-region': 'us-east-1' })])).env;
    expect(env.slice(0, 2)).toEqual([
      { name: 'S3_VERIFY_SSL', value: '0' },
      { name: 'AWS_DEFAULT_REGION', value: 'us-east-1' },
    ]);
    const without = init(run([sa('sa', [], { 'serving.kserve.io/s3-region': 'eu-west-1' })])).env;
    expect(without.map((e: { name: string }) => e.name)).not.toContain('AWS_DEFAULT_REGION');
  });

  it("HTTPS headers: the variable is named for the storage URI's host and references `headers` (https/https_secret.go; python/storage kserve_storage.py)", () => {
    const spec = { predictor: { serviceAccountName: 'sa', sklearn: { storageUri: 'https://models.example.com/iris/model.joblib' } } };
    const env = init(run([sa('sa', ['h']), secret('h', ['https-host', 'headers'])], spec)).env;
    expect(env[0]).toEqual(ref('models.example.com-headers', 'h', 'headers'));
  });

  it("the storageSecretName annotation wins over the ServiceAccount's Secrets (CreateSecretVolumeAndEnvFromServiceAccount)", () => {
    const out = run([sa('sa', ['listed']), secret('listed', ['HF_TOKEN']), secret('annotated', ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'])], undefined, {
      annotations: { 'serving.kserve.io/storageSecretName': 'annotated' },
    });
    const names = init(out).env.map((e: { name: string }) => e.name);
    expect(names).toContain('AWS_ACCESS_KEY_ID');
    expect(names).not.toContain('HF_TOKEN');
  });

  it('the default ServiceAccount is read when none is named (CreateSecretVolumeAndEnv); its absence is not an error', () => {
    expect(init(run([sa('default', ['c']), secret('c', ['HF_TOKEN'])], s3Model())).env[0]).toEqual(ref('HF_TOKEN', 'c', 'HF_TOKEN'));
    const out = run([], s3Model());
    expect(out.condition('StorageSecretFound')).toBeUndefined();
    expect(init(out).env.map((e: { name: string }) => e.name)).toEqual([
      'HF_HUB_ENABLE_HF_TRANSFER',
      'HF_XET_HIGH_PERFORMANCE',
      'HF_XET_NUM_CONCURRENT_RANGE_GETS',
    ]);
  });

  it('a pvc:// model has no initializer, so no credentials are looked up (CommonStorageInitialization: only with an init container)', () => {
    const out = run([], { predictor: { serviceAccountName: 'gone', sklearn: { storageUri: 'pvc://claim/m' } } });
    expect(out.condition('StorageSecretFound')).toBeUndefined();
    expect(out.childrenOf('Deployment')).toHaveLength(1);
  });
});

describe("customize: the ServiceAccounts by name (which carry their Secrets' summary); the namespace's Secrets only for the storageSecretName annotation", () => {
  // Only the credential rules (the TrustyAIService rule is trustyai-logger.ts's).
  const rules = (parent: KubeObject) =>
    compositionRules(runCustomize(inferenceservice, { parent, config })).filter((r) => r.resource === 'serviceaccounts' || r.resource === 'secrets');
  const secretsRule = {
    apiVersion: 'v1',
    resource: 'secrets',
    namespace: NS,
    labelSelector: { matchExpressions: [{ key: 'owner', operator: 'NotIn', values: ['helm'] }] },
  };

  it("asks for each component's ServiceAccount by name and for no Secret: the ServiceAccount carries their summary (credentials/summary.ts)", () => {
    const spec = {
      predictor: { sklearn: { storage: { key: 'k', path: 'p', parameters: { type: 's3', bucket: 'b' } } } },
      transformer: { serviceAccountName: 't-sa', containers: [{ image: 't:1' }] },
    };
    expect(rules(isvc(spec))).toEqual([{ apiVersion: 'v1', resource: 'serviceaccounts', namespace: NS, names: ['default', 't-sa'] }]);
    expect(rules(isvc(s3Model({ serviceAccountName: 'sa' })))).toEqual([{ apiVersion: 'v1', resource: 'serviceaccounts', namespace: NS, names: ['sa'] }]);
  });

  it("with the storageSecretName annotation, the namespace's Secrets but Helm's release records (an annotation edit bumps no generation, so no by-name rule could follow it)", () => {
    expect(rules(isvc(s3Model(), { annotations: { 'serving.kserve.io/storageSecretName': 'x' } }))).toContainEqual(secretsRule);
  });

  it('asks for no Secret with the annotation where nothing is downloaded: pvc://, oci://, no storage (credentials go to the storage initializer only)', () => {
    const annotated = { annotations: { 'serving.kserve.io/storageSecretName': 'x' } };
    for (const storageUri of ['pvc://claim/m', 'oci://registry/m:1'])
      expect(rules(isvc({ predictor: { sklearn: { storageUri } } }, annotated)), storageUri).not.toContainEqual(secretsRule);
    expect(rules(isvc({ predictor: { containers: [{ image: 'x:1' }] } }, annotated))).not.toContainEqual(secretsRule);
    // A custom container's STORAGE_URI, and storageUris, are downloads.
    expect(rules(isvc({ predictor: { containers: [{ image: 'x:1', env: [{ name: 'STORAGE_URI', value: 'gs://b/m' }] }] } }, annotated))).toContainEqual(
      secretsRule,
    );
    expect(rules(isvc({ predictor: { model: { modelFormat: { name: 'sklearn' } }, storageUris: [{ uri: 'hf://o/m' }] } }, annotated))).toContainEqual(
      secretsRule,
    );
  });

  it('reads no status field: an old status.serviceAccountSecrets changes nothing', () => {
    const old = { ...isvc(s3Model({ serviceAccountName: 'sa' })), status: { serviceAccountSecrets: ['s3creds', '../other', 42] } } as KubeObject;
    expect(rules(old)).toEqual(rules(isvc(s3Model({ serviceAccountName: 'sa' }))));
    const out = runSync(inferenceservice, {
      parent: old,
      related: [sa('sa', ['s3creds']), secret('s3creds', ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'])],
      config,
    });
    expect(out.status.serviceAccountSecrets).toBeUndefined();
    expect(out.condition('StorageSecretFound')?.status).toBe('True');
  });

  it('a listed Secret that does not exist: StorageSecretNotFound, the children kept, read within seconds once created', () => {
    const first = runSync(inferenceservice, { parent: isvc(s3Model({ serviceAccountName: 'sa' })), related: [sa('sa', ['late'])], config });
    expect(first.children).toEqual([]);
    expect(first.condition('StorageSecretFound')).toMatchObject({ status: 'False', reason: 'StorageSecretNotFound' });
    expect(first.condition('StorageSecretFound')?.message).toContain('Secret late (ServiceAccount sa) was not found in models');
  });
});

describe('storage spec (components/component.go addStorageSpecAnnotations; CreateStorageSpecSecretEnvs)', () => {
  const storageConfig = (json: Record<string, string>, key = 'localMinIO'): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'storage-config', namespace: NS },
    data: { [key]: Buffer.from(JSON.stringify(json)).toString('base64') },
  });
  const run = (storage: Record<string, unknown>, related: KubeObject[]) =>
    runSync(inferenceservice, { parent: isvc({ predictor: { sklearn: { storage } } }), related, config });

  it('hdfs: the URI is <type>://<path>, STORAGE_CONFIG references the key', () => {
    const out = run({ key: 'localMinIO', path: '/models/iris' }, [storageConfig({ type: 'hdfs' })]);
    expect(init(out).args).toEqual(['hdfs://models/iris', '/mnt/models']);
    expect(init(out).env[0]).toEqual(ref('STORAGE_CONFIG', 'storage-config', 'localMinIO'));
  });

  it.each([
    {
      reason: 'a key the Secret lacks',
      storage: { key: 'other', path: 'm' },
      related: [storageConfig({ type: 's3' })],
      field: 'spec.predictor.sklearn.storage.key',
    },
    {
      reason: 'an s3 storage whose bucket is only in the Secret',
      storage: { key: 'localMinIO', path: 'm' },
      related: [storageConfig({ type: 's3', bucket: 'secret-bucket' })],
      field: 'spec.predictor.sklearn.storage.parameters.bucket',
    },
    { reason: 'no type anywhere', storage: { path: 'm' }, related: [], field: 'spec.predictor.sklearn.storage.parameters.type' },
  ])('$reason: StorageSecretFound=False names $field, nothing is created', ({ storage, related, field }) => {
    const out = run(storage, related);
    expect(out.condition('StorageSecretFound')).toMatchObject({ status: 'False', reason: 'InvalidStorageSpec' });
    expect(out.condition('StorageSecretFound')?.message).toContain(field);
    expect(out.children).toEqual([]);
    expect(JSON.stringify(out.status)).not.toContain('secret-bucket');
  });

  it('a named key without its Secret: StorageSecretNotFound naming storage-config', () => {
    const out = run({ key: 'k', path: 'm', parameters: { type: 's3', bucket: 'b' } }, []);
    expect(out.condition('StorageSecretFound')).toMatchObject({ status: 'False', reason: 'StorageSecretNotFound' });
    expect(out.condition('StorageSecretFound')?.message).toContain('Secret storage-config');
  });

  it('the same missing Secret found by the predictor and by a spec.canary[] entry built from its spec is named once', () => {
    const storage = { key: 'k', path: 'm', parameters: { type: 's3', bucket: 'b' } };
    const spec = { predictor: { sklearn: { storage } }, canary: [{ trafficPercent: 20, predictor: { name: 'v2' } }] };
    const out = runSync(inferenceservice, { parent: isvc(spec), related: [], config });
    expect(out.condition('StorageSecretFound')).toMatchObject({ status: 'False', reason: 'StorageSecretNotFound' });
    expect(out.condition('StorageSecretFound')?.message).not.toContain('(and ');
  });
});

describe('storage forms', () => {
  it("storageUris: downloads whose only common parent is / are refused, naming the field (FindCommonParentPath would mount an emptyDir at /, named '')", () => {
    const spec = {
      predictor: {
        model: { modelFormat: { name: 'sklearn' } },
        storageUris: [
          { uri: 's3://b/a', mountPath: '/a/x' },
          { uri: 'gs://b/c', mountPath: '/c' },
        ],
      },
    };
    const out = runSync(inferenceservice, { parent: isvc(spec), config });
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(out.condition('Ready')?.message).toContain('spec.predictor.storageUris');
  });

  it('oci:// under storageUris at another path: mkdir before the link, numbered names for the second model car (utils.modelcarCommand, ModelcarNames)', () => {
    const out = runSync(inferenceservice, {
      parent: isvc({
        predictor: {
          model: { modelFormat: { name: 'sklearn' } },
          storageUris: [
            { uri: 'oci://r/base:1', mountPath: '/mnt/models' },
            { uri: 'oci://r/adapter:1', mountPath: '/opt/adapters/a1' },
          ],
        },
      }),
      config,
    });
    const p = pod(out);
    expect(p.shareProcessNamespace).toBe(true);
    expect(p.containers.map((c: { name: string }) => c.name)).toEqual(['kserve-container', 'modelcar', 'modelcar-1']);
    expect(p.initContainers.map((c: { name: string }) => c.name)).toEqual(['modelcar-init', 'modelcar-init-1']);
    expect(p.containers[2].args).toEqual(['sh', '-c', 'mkdir -p /opt/adapters && ln -sf /proc/$$$$/root/models /opt/adapters/a1 && sleep infinity']);
    expect(p.containers[0].volumeMounts).toEqual([
      { name: 'kserve-provision-location', mountPath: '/mnt', readOnly: false },
      { name: 'kserve-provision-location-1', mountPath: '/opt/adapters', readOnly: false },
    ]);
    for (const c of out.children) expectValid(c);
  });

  it('the s3-cabundle-configmap annotation mounts that ConfigMap for the initializer (needCaBundleMount; constants.DefaultCaBundleVolumeMountPath)', () => {
    const out = runSync(inferenceservice, {
      parent: isvc(s3Model({ serviceAccountName: 'sa' })),
      related: [sa('sa', ['c']), secret('c', ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'], { 'serving.kserve.io/s3-cabundle-configmap': 'my-ca' })],
      config,
    });
    expect(init(out).env).toContainEqual({ name: 'CA_BUNDLE_CONFIGMAP_NAME', value: 'my-ca' });
    expect(init(out).volumeMounts).toContainEqual({ name: 'cabundle-cert', mountPath: '/etc/ssl/custom-certs', readOnly: true });
    expect(pod(out).volumes).toContainEqual({ name: 'cabundle-cert', configMap: { name: 'my-ca' } });
  });
});
