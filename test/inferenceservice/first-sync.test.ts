import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { KubeObject, RelatedRule } from '../../hooks/kit/index.js';
import { runCustomize, runSync, syncRequest } from '../../hooks/testing/index.js';
import { selectRelated, wakes } from '../support/metacontroller-select.js';
import { decorate } from '../support/credentials.js';

/*
 * First syncs are complete: KServe's documented ServiceAccount setups (kserve/kserve v0.20.0
 * docs/samples/storage/s3 — a Secret with AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY and the
 * serving.kserve.io/s3-endpoint annotation, a ServiceAccount listing it, an InferenceService
 * naming the ServiceAccount; and a Hugging Face token, GCS and Azure credentials the same way,
 * pkg/credentials/{hf,gcs,azure}) get their Deployment with credentials on the sync Metacontroller runs when the
 * last object is applied, whichever the order. Metacontroller is played as v4.17.2 plays it
 * (customize/manager.go): customize is asked once per parent generation and its answer kept
 * (newResponseCache, 20 minutes), the related objects are what the cached rules select
 * (GetRelatedObjects), and a related object's change re-syncs the parent only when a cached
 * rule matches it (findRelatedParents / matchesRelatedRule): test/support/metacontroller-select.ts.
 */
const config = defaultHookConfig();
const NS = 'models';
const b64 = (s: string) => Buffer.from(s).toString('base64');

const s3Secret: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 's3creds', namespace: NS, annotations: { 'serving.kserve.io/s3-endpoint': 's3.amazonaws.com', 'serving.kserve.io/s3-usehttps': '1' } },
  type: 'Opaque',
  data: { AWS_ACCESS_KEY_ID: b64('AKIDEXAMPLE'), AWS_SECRET_ACCESS_KEY: b64('s3-secret-value') },
} as KubeObject;
const hfSecret: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'hf-secret', namespace: NS },
  type: 'Opaque',
  data: { HF_TOKEN: b64('hf_token_value') },
} as KubeObject;
const gcsSecret: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'gcs-creds', namespace: NS },
  type: 'Opaque',
  data: { 'gcloud-application-credentials.json': b64('{}') },
} as KubeObject;
const azureSecret: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'azure-creds', namespace: NS },
  type: 'Opaque',
  data: { AZURE_CLIENT_ID: b64('c'), AZURE_CLIENT_SECRET: b64('s'), AZURE_TENANT_ID: b64('t') },
} as KubeObject;
const account = (secret: string): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa', namespace: NS }, secrets: [{ name: secret }] }) as KubeObject;
const isvc = (storageUri: string, format: string): KubeObject =>
  ({
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: 'demo', namespace: NS, uid: 'u-demo', generation: 1 },
    spec: { predictor: { serviceAccountName: 'sa', model: { modelFormat: { name: format }, storageUri } } },
  }) as KubeObject;

/** Every order of three objects. */
const orders = <T>(xs: T[]): T[][] =>
  xs.length <= 1 ? [xs] : xs.flatMap((x, i) => orders([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]));

/**
 * The user applies `objects` one by one into a namespace that already holds `background`;
 * Metacontroller syncs the parent when it is created and whenever an object its cached rules
 * match is created. The answer of the last sync, and whether the last object caused one.
 */
function apply(objects: KubeObject[], background: KubeObject[] = []) {
  const cluster = [...background];
  let rules: RelatedRule[] | undefined;
  let parent: KubeObject | undefined;
  let last: ReturnType<typeof runSync> | undefined;
  let lastWoke = false;
  for (const obj of objects) {
    cluster.push(obj);
    if (obj.kind === 'InferenceService') {
      parent = obj;
      rules = runCustomize(inferenceservice, { parent, config });
    }
    lastWoke = parent !== undefined && (obj === parent || wakes(rules ?? [], obj));
    if (lastWoke && parent) last = runSync(inferenceservice, { parent, related: selectRelated(rules ?? [], cluster), config });
    // The credentials DecoratorController: its write of a ServiceAccount's summary is one more event.
    if (obj.kind === 'Secret' || obj.kind === 'ServiceAccount') {
      for (const sa of decorate(cluster, NS)) {
        const woke = parent !== undefined && wakes(rules ?? [], sa);
        lastWoke ||= woke;
        if (woke && parent) last = runSync(inferenceservice, { parent, related: selectRelated(rules ?? [], cluster), config });
      }
    }
  }
  return { last, lastWoke, rules: rules ?? [], cluster };
}

const initEnv = (out: ReturnType<typeof runSync> | undefined) => {
  const spec = out?.child('Deployment', 'demo-predictor')?.spec as
    | { template: { spec: { initContainers?: Array<{ name: string; env?: Array<{ name: string; valueFrom?: unknown }> }> } } }
    | undefined;
  return spec?.template.spec.initContainers?.find((c) => c.name === 'storage-initializer')?.env ?? [];
};

describe("first syncs are complete: KServe's ServiceAccount setups in every order", () => {
  const setups = [
    {
      name: 'S3 (docs/samples/storage/s3)',
      objects: [s3Secret, account('s3creds'), isvc('s3://bucket/model', 'sklearn')],
      want: ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'],
      secret: 's3creds',
    },
    { name: 'Hugging Face token', objects: [hfSecret, account('hf-secret'), isvc('hf://org/model', 'huggingface')], want: ['HF_TOKEN'], secret: 'hf-secret' },
    // pkg/credentials/azure/azure_secret.go AzureEnvKeys: each key by reference.
    {
      name: 'Azure',
      objects: [azureSecret, account('azure-creds'), isvc('https://acct.blob.core.windows.net/c/m', 'sklearn')],
      want: ['AZURE_CLIENT_ID', 'AZURE_CLIENT_SECRET', 'AZURE_TENANT_ID'],
      secret: 'azure-creds',
    },
  ];
  for (const setup of setups) {
    for (const order of orders(setup.objects)) {
      it(`${setup.name}: ${order.map((o) => o.kind).join(' → ')}`, () => {
        const { last, lastWoke } = apply(order);
        // The last object applied wakes the parent, and that sync builds the Deployment with credentials.
        expect(lastWoke).toBe(true);
        const env = initEnv(last);
        for (const name of setup.want) expect(env.find((e) => e.name === name)?.valueFrom, name).toEqual({ secretKeyRef: { name: setup.secret, key: name } });
        expect(last?.condition('StorageSecretFound')).toMatchObject({ status: 'True' });
      });
    }
  }

  // pkg/credentials/gcs/gcs_secret.go: the Secret as the user-gcp-sa volume, GOOGLE_APPLICATION_CREDENTIALS names its file.
  for (const order of orders([gcsSecret, account('gcs-creds'), isvc('gs://bucket/model', 'sklearn')])) {
    it(`GCS: ${order.map((o) => o.kind).join(' → ')}`, () => {
      const { last, lastWoke } = apply(order);
      expect(lastWoke).toBe(true);
      expect(initEnv(last).find((e) => e.name === 'GOOGLE_APPLICATION_CREDENTIALS')).toEqual({
        name: 'GOOGLE_APPLICATION_CREDENTIALS',
        value: '/var/secrets/gcloud-application-credentials.json',
      });
      const volumes =
        (last?.child('Deployment', 'demo-predictor')?.spec as { template: { spec: { volumes?: Array<{ name: string; secret?: { secretName: string } }> } } })
          .template.spec.volumes ?? [];
      expect(volumes.find((v) => v.name === 'user-gcp-sa')?.secret?.secretName).toBe('gcs-creds');
    });
  }

  it('a Secret the ServiceAccount lists, created a minute after the InferenceService, wakes it and is used', () => {
    const { last, lastWoke } = apply([account('s3creds'), isvc('s3://bucket/model', 'sklearn'), s3Secret]);
    expect(lastWoke).toBe(true);
    expect(initEnv(last).map((e) => e.name)).toContain('AWS_SECRET_ACCESS_KEY');
  });

  it('a Secret changed later (its keys) wakes the parent through the summary; an unrelated Secret or a data-only edit wakes nothing', () => {
    const { rules, cluster } = apply([s3Secret, account('s3creds'), isvc('s3://bucket/model', 'sklearn')]);
    // The InferenceService asks for no Secret: only its ServiceAccount, by name.
    expect(rules.some((r) => r.resource === 'secrets')).toBe(false);
    const after = (change: KubeObject) => {
      const next = [...cluster.filter((o) => !(o.kind === change.kind && o.metadata.name === change.metadata.name)), change];
      return decorate(next, NS);
    };
    const rotated = after({ ...s3Secret, data: { HF_TOKEN: b64('x') } } as KubeObject);
    expect(rotated.map((o) => o.metadata.name)).toEqual(['sa']);
    expect(rotated.some((o) => wakes(rules, o))).toBe(true);
    // A new value under the same keys, another Secret, or one of Helm's release records: no summary changes, nothing is written.
    expect(after({ ...s3Secret, data: { ...(s3Secret.data as Record<string, string>), AWS_SECRET_ACCESS_KEY: b64('rotated') } } as KubeObject)).toEqual([]);
    expect(after({ ...s3Secret, metadata: { name: 'unrelated', namespace: NS } } as KubeObject)).toEqual([]);
    expect(after({ ...s3Secret, metadata: { name: 'sh.helm.release.v1.a.v1', namespace: NS, labels: { owner: 'helm' } } } as KubeObject)).toEqual([]);
    // Another ServiceAccount wakes nothing.
    expect(wakes(rules, { ...account('x'), metadata: { name: 'other', namespace: NS } } as KubeObject)).toBe(false);
  });
});

/*
 * A namespace with 200 Helm release records of 500 KB (labels owner=helm, name, status,
 * version; type helm.sh/release.v1, as Helm v3 writes them: pkg/storage/driver/secrets.go) and
 * 500 other Secrets of 1 KB, each with the metadata an API server gives (uid, resourceVersion,
 * creationTimestamp, one managedFields entry).
 */
function crowdedNamespace(): KubeObject[] {
  const release = 'H'.repeat(500 * 1024); // one string shared by every release record
  const meta = (name: string, i: number) => ({
    name,
    namespace: NS,
    uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    resourceVersion: String(100000 + i),
    creationTimestamp: '2026-01-01T00:00:00Z',
    managedFields: [
      {
        manager: 'kubectl-client-side-apply',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-01-01T00:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:value': {} }, 'f:type': {} },
      },
    ],
  });
  const helm = Array.from({ length: 200 }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      ...meta(`sh.helm.release.v1.app-${i % 20}.v${i}`, i),
      labels: { name: `app-${i % 20}`, owner: 'helm', status: 'superseded', version: String(i) },
    },
    type: 'helm.sh/release.v1',
    data: { release },
  }));
  const others = Array.from({ length: 500 }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: meta(`app-secret-${i}`, 1000 + i),
    type: 'Opaque',
    data: { value: b64('v'.repeat(768)) }, // 1,024 characters of base64
  }));
  return [...helm, ...others] as KubeObject[];
}

describe('request size in a crowded namespace (what Metacontroller sends for these rules)', () => {
  it("no Secret is sent, Helm release or other: the request does not grow with the namespace's Secrets", () => {
    const sizeWith = (background: KubeObject[]) => {
      const { rules, cluster } = apply([s3Secret, account('s3creds'), isvc('s3://bucket/model', 'sklearn')], background);
      const related = selectRelated(rules, cluster);
      expect(related.filter((o) => o.kind === 'Secret')).toEqual([]);
      const parent = cluster.find((o) => o.kind === 'InferenceService') as KubeObject;
      return Buffer.byteLength(JSON.stringify(syncRequest(inferenceservice, { parent, related })));
    };
    const crowded = sizeWith(crowdedNamespace());
    const empty = sizeWith([]);
    // The figures docs/inferenceservice.md states (credentials).
    console.info(`crowded namespace: sync request ${crowded} bytes, ${empty} in an empty namespace`);
    expect(crowded).toBe(empty);
    expect(crowded).toBeLessThan(10_000);
  });
});
