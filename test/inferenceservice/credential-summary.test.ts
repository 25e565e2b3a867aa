import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { render } from '../../hooks/cli/render.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import { credentialsDecorator } from '../../hooks/inferenceservice/storage/credentials/rules.js';
import { SUMMARY_ANNOTATION, summarize, summaryOn, summaryPending } from '../../hooks/inferenceservice/storage/credentials/summary.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { ObjectIndex } from '../../hooks/kit/observed.js';
import { computeAnswer } from '../../hooks/engine/compute.js';
import { wireMap } from '../../hooks/engine/run.js';
import { decoratorControllerFor } from '../../hooks/engine/manifests.js';
import { parseNamespaceSelector } from '../../hooks/engine/namespace-selector.js';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { runSyncSent } from '../support/credentials.js';
import { runSync } from '../../hooks/testing/index.js';

/*
 * The credentials summary the DecoratorController modelhooks-inferenceservice-credentials keeps
 * on each ServiceAccount (credentials/summary.ts): what KServe v0.20.0 reads of the Secrets
 * (pkg/credentials/service_account_credentials.go mountSecretCredential: key names;
 * pkg/credentials/s3/utils.go BuildS3EnvVars: the serving.kserve.io/s3-* annotations;
 * CreateStorageSpecSecretEnvs: a storage-config JSON's `type`), never a value.
 */
const NS = 'models';
const b64 = (s: string) => Buffer.from(s).toString('base64');
/** Values no summary may hold, raw or base64. */
const VALUES = [
  'AKIDEXAMPLE',
  'wJalrXUtnFEMI-SECRET',
  'hf_tokenvalue',
  '{"private_key":"PK-VALUE"}',
  'azure-client-secret',
  'Bearer HEADER-VALUE',
  'bucket-in-json',
];
const secret = (name: string, data: Record<string, string>, annotations?: Record<string, string>): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: NS, ...(annotations ? { annotations } : {}) },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  }) as KubeObject;
const account = (secrets: string[], annotations?: Record<string, string>): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'sa', namespace: NS, ...(annotations ? { annotations } : {}) },
    secrets: secrets.map((name) => ({ name })),
  }) as KubeObject;

const s3 = secret(
  's3',
  { AWS_ACCESS_KEY_ID: VALUES[0] as string, AWS_SECRET_ACCESS_KEY: VALUES[1] as string, S3_USE_HTTPS: '0' },
  {
    'serving.kserve.io/s3-endpoint': 'minio.example:9000',
    'serving.kserve.io/s3-region': 'eu-west-1',
    'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ data: { AWS_SECRET_ACCESS_KEY: VALUES[1] } }),
  },
);
const gcs = secret('gcs', { 'gcloud-application-credentials.json': VALUES[3] as string });
const azure = secret('azure', { AZURE_CLIENT_ID: 'c', AZURE_CLIENT_SECRET: VALUES[4] as string, AZURE_TENANT_ID: 't' });
const https = secret('https', { 'https-host': 'models.example', headers: VALUES[5] as string });
const hf = secret('hf', { HF_TOKEN: VALUES[2] as string });
const storageConfig = secret('storage-config', {
  localMinIO: JSON.stringify({ type: 's3', access_key_id: VALUES[0], bucket: VALUES[6] }),
  hdfs: JSON.stringify({ type: 'hdfs' }),
  odd: JSON.stringify({ type: 'ftp' }),
  broken: 'not json',
});
const all = [s3, gcs, azure, https, hf, storageConfig, secret('unlisted', { token: VALUES[2] as string })];

describe('the summary of a ServiceAccount (credentials/summary.ts)', () => {
  const sa = account(['s3', 'gcs', 'azure', 'https', 'hf', 'missing']);
  const summary = summarize(sa, new ObjectIndex(all, NS));

  it('names each Secret the ServiceAccount lists, and storage-config, with its key names; a listed Secret not found is left out', () => {
    expect(summary?.listed).toEqual(['s3', 'gcs', 'azure', 'https', 'hf', 'missing']);
    expect(Object.keys(summary?.secrets ?? {})).toEqual(['azure', 'gcs', 'hf', 'https', 's3', 'storage-config']);
    // mountSecretCredential decides by key names: S3 (s3/s3_secret.go), GCS (gcs/gcs_secret.go), Azure (azure/azure_secret.go), HTTPS (https/https_secret.go), HF (hf/hf_secret.go).
    expect(summary?.secrets.s3?.keys).toEqual(['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'S3_USE_HTTPS']);
    expect(summary?.secrets.gcs?.keys).toEqual(['gcloud-application-credentials.json']);
    expect(summary?.secrets.azure?.keys).toEqual(['AZURE_CLIENT_ID', 'AZURE_CLIENT_SECRET', 'AZURE_TENANT_ID']);
    expect(summary?.secrets.https?.keys).toEqual(['headers', 'https-host']);
    expect(summary?.secrets.hf?.keys).toEqual(['HF_TOKEN']);
    expect(summary?.secrets.unlisted).toBeUndefined();
  });

  it("keeps an S3 Secret's serving.kserve.io/ annotations (pkg/credentials/s3/utils.go BuildS3EnvVars) and no other: last-applied-configuration holds values", () => {
    expect(summary?.secrets.s3?.annotations).toEqual({ 'serving.kserve.io/s3-endpoint': 'minio.example:9000', 'serving.kserve.io/s3-region': 'eu-west-1' });
  });

  it("keeps of storage-config only each key's type KServe supports, or that it is not JSON (CreateStorageSpecSecretEnvs, SupportedStorageSpecTypes)", () => {
    expect(summary?.secrets['storage-config']).toEqual({
      keys: ['broken', 'hdfs', 'localMinIO', 'odd'],
      types: { broken: 'invalid', hdfs: 'hdfs', localMinIO: 's3' },
    });
  });

  it('holds no Secret value, raw or base64, and reads back as written', () => {
    const text = JSON.stringify(summary);
    for (const v of VALUES) {
      expect(text).not.toContain(v);
      expect(text).not.toContain(b64(v));
    }
    const { annotations } = credentialsDecorator.sync(sa, new ObjectIndex(all, NS));
    const written = annotations[SUMMARY_ANNOTATION] as string;
    for (const v of VALUES) expect(written).not.toContain(v);
    expect(summaryOn({ ...sa, metadata: { ...sa.metadata, annotations: { [SUMMARY_ANNOTATION]: written } } })).toEqual(summary);
  });

  it('is the same text whatever the values and unrelated Secrets: an unchanged summary is no write (decorator/controller.go updateStringMap)', () => {
    const rotatedValues = all.map((s) => ({ ...s, data: Object.fromEntries(Object.keys(s.data as object).map((k) => [k, b64('rotated')])) }) as KubeObject);
    const a = credentialsDecorator.sync(sa, new ObjectIndex(all, NS)).annotations[SUMMARY_ANNOTATION];
    const b = credentialsDecorator.sync(sa, new ObjectIndex([...rotatedValues, secret('another', { x: 'y' })], NS)).annotations[SUMMARY_ANNOTATION];
    // storage-config's types are read from its values: the rotated ones are not JSON.
    const withoutTypes = (t: unknown) =>
      JSON.stringify({ ...JSON.parse(t as string), secrets: { ...JSON.parse(t as string).secrets, 'storage-config': undefined } });
    expect(withoutTypes(b)).toBe(withoutTypes(a));
    expect(credentialsDecorator.sync(sa, new ObjectIndex([...all, secret('another', { x: 'y' })], NS)).annotations[SUMMARY_ANNOTATION]).toBe(a);
  });

  it('is removed (null) where there is nothing to say: no Secret listed, no storage-config', () => {
    expect(credentialsDecorator.sync(account([]), new ObjectIndex([hf], NS)).annotations).toEqual({ [SUMMARY_ANNOTATION]: null });
  });

  it('is pending while the ServiceAccount lists Secrets it was not written for (no summary, another list)', () => {
    const written = (listed: string[]) => ({ [SUMMARY_ANNOTATION]: JSON.stringify({ listed, secrets: {} }) });
    expect(summaryPending(account(['s3']))).toBe(true);
    expect(summaryPending(account(['s3'], written(['hf'])))).toBe(true);
    expect(summaryPending(account(['s3'], written(['s3'])))).toBe(false);
    expect(summaryPending(account([]))).toBe(false);
    // A malformed annotation reads as none.
    expect(summaryPending(account(['s3'], { [SUMMARY_ANNOTATION]: '{"listed":[1]}' }))).toBe(true);
  });
});

describe('the InferenceService reads the summary, never a Secret (credentials/secrets-read.ts)', () => {
  const config = defaultHookConfig();
  const isvc = (storageUri: string, format = 'sklearn'): KubeObject =>
    ({
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      metadata: { name: 'demo', namespace: NS, generation: 1 },
      spec: { predictor: { serviceAccountName: 'sa', model: { modelFormat: { name: format }, storageUri } } },
    }) as KubeObject;
  const initEnv = (out: ReturnType<typeof runSyncSent>) =>
    ((out.child('Deployment', 'demo-predictor')?.spec as any)?.template.spec.initContainers ?? []).find(
      (c: { name: string }) => c.name === 'storage-initializer',
    )?.env ?? [];

  it('builds the S3 env from the summary alone: keys by reference, the annotations copied (s3/s3_secret.go BuildSecretEnvs)', () => {
    const out = runSyncSent(inferenceservice, { parent: isvc('s3://b/m'), related: [account(['s3']), s3], config });
    const env = initEnv(out);
    expect(env).toContainEqual({ name: 'AWS_SECRET_ACCESS_KEY', valueFrom: { secretKeyRef: { name: 's3', key: 'AWS_SECRET_ACCESS_KEY' } } });
    expect(env).toContainEqual({ name: 'S3_ENDPOINT', value: 'minio.example:9000' });
    expect(env).toContainEqual({ name: 'AWS_DEFAULT_REGION', value: 'eu-west-1' });
    expect(out.condition('StorageSecretFound')?.status).toBe('True');
  });

  it('a ServiceAccount whose summary is not written yet for its Secrets: nothing is created, the status says why', () => {
    // Written for ['s3'], the ServiceAccount now lists hf too (as Metacontroller sends it before the decorator's write).
    const summary = { listed: ['s3'], secrets: { s3: { keys: ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] } } };
    const stale = account(['s3', 'hf'], { [SUMMARY_ANNOTATION]: JSON.stringify(summary) });
    const out = runSync(inferenceservice, { parent: isvc('s3://b/m'), config, related: [stale] });
    expect(out.children).toEqual([]);
    expect(out.condition('StorageSecretFound')).toMatchObject({ status: 'False', reason: 'StorageSecretNotFound' });
    expect(out.condition('StorageSecretFound')?.message).toContain('not summarized yet');
    // Once written for the list, the same sync serves the model.
    const current = account(['s3'], { [SUMMARY_ANNOTATION]: JSON.stringify(summary) });
    expect(runSync(inferenceservice, { parent: isvc('s3://b/m'), config, related: [current] }).children.length).toBeGreaterThan(0);
  });
});

describe('the DecoratorController over the wire (engine/decorator.ts)', () => {
  const ctx = { now: '2026-01-01T00:00:00Z' };
  const body = (o: Record<string, unknown>) => Buffer.from(JSON.stringify(o));
  const sa = account(['s3']);

  it("customize asks for the Namespace and the non-Helm Secrets of the ServiceAccount's namespace", () => {
    const out = computeAnswer(inferenceservice, 'decorator-customize', body({ controller: {}, parent: sa }), ctx);
    expect(out.kind).toBe('answer');
    expect(JSON.parse((out as { text: string }).text)).toEqual({
      relatedResources: [
        { apiVersion: 'v1', resource: 'namespaces', names: [NS] },
        { apiVersion: 'v1', resource: 'secrets', namespace: NS, labelSelector: { matchExpressions: [{ key: 'owner', operator: 'NotIn', values: ['helm'] }] } },
      ],
    });
  });

  it('sync answers the annotation and no attachment; a Secret of another namespace is not read', () => {
    const elsewhere = { ...hf, metadata: { ...hf.metadata, name: 's3', namespace: 'other' } } as KubeObject;
    const out = computeAnswer(
      inferenceservice,
      'decorator-sync',
      body({ controller: {}, object: sa, attachments: {}, related: wireMap([s3], NS, 'v2'), finalizing: false }),
      ctx,
    );
    const answer = JSON.parse((out as { text: string }).text);
    expect(answer.attachments).toEqual([]);
    expect(JSON.parse(answer.annotations[SUMMARY_ANNOTATION]).secrets.s3.keys).toEqual(['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'S3_USE_HTTPS']);
    const foreign = { 'Secret.v1': { 'other/s3': elsewhere } };
    const out2 = computeAnswer(
      inferenceservice,
      'decorator-sync',
      body({ controller: {}, object: sa, attachments: {}, related: foreign, finalizing: false }),
      ctx,
    );
    expect(JSON.parse(JSON.parse((out2 as { text: string }).text).annotations[SUMMARY_ANNOTATION]).secrets).toEqual({});
  });

  it('in a namespace the server does not serve (MODELHOOKS_NAMESPACE_SELECTOR), removes the annotation instead', () => {
    const selector = parseNamespaceSelector('modelhooks=on');
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, labels: {} } } as KubeObject;
    const out = computeAnswer(
      inferenceservice,
      'decorator-sync',
      body({ controller: {}, object: sa, attachments: {}, related: wireMap([s3, ns], NS, 'v2'), finalizing: false }),
      { ...ctx, namespaceSelector: selector },
    );
    expect(JSON.parse((out as { text: string }).text).annotations).toEqual({ [SUMMARY_ANNOTATION]: null });
  });

  it('refuses an object of another kind, without a namespace, or a composition without a decorator (400)', () => {
    expect(computeAnswer(inferenceservice, 'decorator-sync', body({ object: { ...s3 } }), ctx)).toMatchObject({ kind: 'refused' });
    expect(computeAnswer(inferenceservice, 'decorator-sync', body({ object: { ...sa, metadata: { name: 'sa' } } }), ctx)).toMatchObject({ kind: 'refused' });
    const other = { ...inferenceservice, name: 'x', decorator: undefined };
    expect(computeAnswer(other, 'decorator-sync', body({ object: sa }), ctx)).toMatchObject({ kind: 'refused' });
  });

  it('is declared as Metacontroller reads it: ServiceAccounts, no selector, v2 hooks', () => {
    const dc = decoratorControllerFor(inferenceservice, { hookBaseUrl: 'http://h' }) as { metadata: { name: string }; spec: Record<string, any> };
    expect(dc.metadata.name).toBe('modelhooks-inferenceservice-credentials');
    expect(dc.spec.resources).toEqual([{ apiVersion: 'v1', resource: 'serviceaccounts' }]);
    expect(dc.spec.hooks.sync.webhook.url).toBe('http://h/hooks/inferenceservice/decorator-sync');
    expect(dc.spec.hooks.customize.webhook.url).toBe('http://h/hooks/inferenceservice/decorator-customize');
  });
});

describe('modelhooks render and plan answer as the cluster will, the decorator installed (engine/decorator.ts decorated)', () => {
  it("render: the docs' S3 ServiceAccount and Secret as files give the Deployment its credentials", () => {
    const dir = path.join(import.meta.dirname, '../fixtures/inferenceservice/docs-s3-service-account');
    const source = (f: string) => ({ name: f, text: readFileSync(path.join(dir, f), 'utf8') });
    const out = render(
      [inferenceservice],
      { inferenceservice: defaultHookConfig().inferenceservice },
      {
        parent: source('parent.yaml'),
        observed: [],
        related: [source('related.yaml')],
        now: '2026-01-01T00:00:00Z',
        childrenOnly: true,
      },
    );
    expect(out).toContain('secretKeyRef');
    expect(out).toContain('name: mysecret');
    expect(out).not.toContain('not summarized yet');
  });
});
