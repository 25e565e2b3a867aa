/**
 * Storage credentials under hostile `related` maps: the parent's own ServiceAccounts and
 * Secrets with random keys and values (data and stringData, storage-config JSON among them, and
 * kubectl's last-applied-configuration annotation holding them), Secrets of the namespace nobody
 * lists (customize asks for all but Helm's release records: credentials/rules.ts),
 * plus same-named ServiceAccounts and Secrets of other namespaces, objects without a
 * namespace keyed into another, and keys that lie about the namespace.
 *
 * Every Secret value (and every string of another namespace's objects) contains MARK, which
 * nothing else generated contains: no answer of customize or sync may contain MARK, raw or
 * base64-decoded, and every rule and child stays in the parent's namespace.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { KubeObject, RelatedRule } from '../../hooks/kit/index.js';
import { CLUSTER_SCOPED_RESOURCES } from '../../hooks/kit/related.js';
import { parseHookRequest } from '../../hooks/engine/request.js';
import { runHook } from '../../hooks/engine/protocol.js';
import { syncRequest, TEST_NOW } from '../../hooks/testing/index.js';
import { dnsWithoutMark, MARK, put } from './hostile.arb.js';

const config = defaultHookConfig();
const ctx = { now: TEST_NOW, config };
const dns = dnsWithoutMark;

/** Keys KServe's builders look for, and others. */
const KEYS = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'awsAccessKeyID',
  'awsSecretAccessKey',
  'S3_ENDPOINT',
  'S3_USE_HTTPS',
  'AWS_DEFAULT_REGION',
  'S3_VERIFY_SSL',
  'awsAnonymousCredential',
  'AWS_CA_BUNDLE',
  'AWS_CA_BUNDLE_CONFIGMAP',
  'gcloud-application-credentials.json',
  'AZ_CLIENT_ID',
  'AZURE_CLIENT_ID',
  'AZURE_CLIENT_SECRET',
  'AZURE_STORAGE_ACCESS_KEY',
  'AZURE_ACCESS_TOKEN',
  'https-host',
  'headers',
  'HF_TOKEN',
  'default',
  'default_s3',
  'localMinIO',
  'other-key',
];
const secretValue = fc.string({ minLength: 0, maxLength: 12 }).map((s) => `${MARK}${s}`);
const storageJson = fc
  .record(
    { type: fc.constantFrom('s3', 'hdfs', 'webhdfs', `${MARK}t`), bucket: secretValue, endpoint_url: secretValue, cabundle_configmap: secretValue },
    { requiredKeys: ['bucket'] },
  )
  .map((j) => JSON.stringify(j));
const contents = fc.dictionary(fc.constantFrom(...KEYS), fc.oneof(secretValue, storageJson), { maxKeys: 6 });

const ANNOTATIONS = ['s3-endpoint', 's3-usehttps', 's3-region', 's3-verifyssl', 's3-useanoncredential', 's3-cabundle', 's3-cabundle-configmap'];
const annotations = fc.dictionary(
  fc.constantFrom(...ANNOTATIONS).map((a) => `serving.kserve.io/${a}`),
  fc.constantFrom('0', '1', 'minio:9000', 'https://s3.example.com', 'us-east-1', ''),
  { maxKeys: 3 },
);

const storage = fc.oneof(
  fc
    .constantFrom('s3://b/m', 'gs://b/m', 'https://models.example.com/m.bin', 'hf://org/model', 'oci://r/m:1', 'pvc://c/m', 'webhdfs://h/m')
    .map((storageUri) => ({ sklearn: { storageUri } })),
  fc
    .record(
      {
        key: fc.option(fc.constantFrom('localMinIO', 'default', 'missing'), { nil: undefined }),
        path: fc.constant('m'),
        parameters: fc.option(fc.record({ type: fc.constantFrom('s3', 'hdfs'), bucket: fc.constant('b') }, { requiredKeys: [] }), { nil: undefined }),
      },
      { requiredKeys: ['path'] },
    )
    .map((s) => ({ sklearn: { storage: s } })),
  fc.constant({
    model: { modelFormat: { name: 'sklearn' } },
    storageUris: [
      { uri: 's3://b/base', mountPath: '/mnt/models/base' },
      { uri: 'oci://r/a:1', mountPath: '/opt/a/x' },
      { uri: 'pvc://c/x', mountPath: '/mnt/pvc' },
    ],
  }),
);

const scenario = fc.record({
  name: dns,
  ns: dns,
  sa: fc.option(dns, { nil: undefined }),
  storage,
  annotated: fc.option(dns, { nil: undefined }),
  ownSecrets: fc.array(fc.record({ name: fc.oneof(dns, fc.constant('storage-config')), data: contents, stringData: contents, annotations }), { maxLength: 4 }),
  annotateOwn: fc.boolean(),
  listed: fc.array(dns, { maxLength: 4 }),
  ownServiceAccount: fc.boolean(),
  remembered: fc.array(fc.oneof(dns, fc.constant('UPPER'), fc.constant('../escape')), { maxLength: 3 }),
  others: fc.uniqueArray(fc.integer({ min: 0, max: 99 }), { minLength: 1, maxLength: 2 }).map((ns) => ns.map((n) => `${MARK}-tenant-${n}`)),
  lyingKeys: fc.boolean(),
  noNamespace: fc.boolean(),
});

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('inferenceservice: storage credentials under hostile related maps', () => {
  it("no answer holds a Secret value (raw or decoded) or another namespace's object, and everything stays in the namespace", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const accountName = s.sa ?? 'default';
        // Mostly the Secrets that exist: the ServiceAccount lists them, the annotation may name one.
        const annotated = s.annotateOwn && s.ownSecrets[0] ? s.ownSecrets[0].name : s.annotated;
        const listed = [...s.ownSecrets.map((o) => o.name), ...s.listed];
        const parent: KubeObject = {
          apiVersion: 'serving.kserve.io/v1beta1',
          kind: 'InferenceService',
          metadata: {
            name: s.name,
            namespace: s.ns,
            generation: 1,
            uid: 'uid-parent',
            ...(annotated ? { annotations: { 'serving.kserve.io/storageSecretName': annotated } } : {}),
          },
          spec: { predictor: { ...(s.sa ? { serviceAccountName: s.sa } : {}), ...s.storage } },
          status: { serviceAccountSecrets: s.remembered },
        };

        const customize = runHook(inferenceservice, 'customize', parseHookRequest(syncRequest(inferenceservice, { parent })), ctx);
        const rules = customize.relatedResources as RelatedRule[];
        // Namespaced rules name the parent's namespace; the cluster-scoped ones (the parent's
        // Namespace, ClusterServingRuntimes) none; KServe's inferenceservice-config is asked for
        // by name in kserve (kserve-config.ts), the one documented exception.
        for (const rule of rules) {
          if (rule.resource === 'configmaps' && rule.namespace === 'kserve' && rule.names?.join() === 'inferenceservice-config') continue;
          if (CLUSTER_SCOPED_RESOURCES.has(rule.resource)) expect(rule.namespace, rule.resource).toBeUndefined();
          else expect(rule.namespace, rule.resource).toBe(s.ns);
        }
        expect(JSON.stringify(customize).includes(MARK)).toBe(false);

        const body = syncRequest(inferenceservice, { parent });
        const related = body.related as Record<string, Record<string, unknown>>;
        const own: KubeObject[] = s.ownSecrets.map((o) => ({
          apiVersion: 'v1',
          kind: 'Secret',
          // kubectl apply keeps the whole Secret, values included, in this annotation.
          metadata: {
            name: o.name,
            namespace: s.ns,
            annotations: { ...o.annotations, 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ data: o.data }) },
          },
          data: Object.fromEntries(Object.entries(o.data).map(([k, v]) => [k, b64(v)])),
          stringData: o.stringData,
        }));
        if (s.ownServiceAccount)
          own.push({
            apiVersion: 'v1',
            kind: 'ServiceAccount',
            metadata: { name: accountName, namespace: s.ns },
            secrets: listed.map((n) => ({ name: n })),
          } as KubeObject);
        for (const o of own) put(related, o, `${s.ns}/${o.metadata.name}`);
        // Customize asks for every Secret of the namespace: some nobody lists, one of Helm's release records.
        const unlisted: KubeObject[] = [
          {
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: 'unlisted', namespace: s.ns, annotations: { 'serving.kserve.io/s3-endpoint': `${MARK}.example.com` } },
            data: { AWS_SECRET_ACCESS_KEY: b64(`${MARK}u`), HF_TOKEN: b64(`${MARK}u`) },
          },
          {
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: 'sh.helm.release.v1.x.v1', namespace: s.ns, labels: { owner: 'helm' } },
            type: 'helm.sh/release.v1',
            data: { release: b64(`${MARK}release`) },
          } as KubeObject,
        ];
        for (const o of unlisted) if (!listed.includes(o.metadata.name) && annotated !== o.metadata.name) put(related, o, `${s.ns}/${o.metadata.name}`);

        // Intruders: same-named objects of other namespaces, ServiceAccounts listing their own Secrets.
        const names = [accountName, ...listed, ...(annotated ? [annotated] : []), 'storage-config'];
        for (const other of s.others) {
          for (const n of names) {
            const intruderSecret: KubeObject = {
              apiVersion: 'v1',
              kind: 'Secret',
              metadata: { name: n, namespace: other, annotations: { 'serving.kserve.io/s3-endpoint': `${MARK}.example.com` } },
              data: { AWS_SECRET_ACCESS_KEY: b64(`${MARK}s`), HF_TOKEN: b64(`${MARK}h`), 'https-host': b64(`${MARK}host`) },
            };
            const intruderAccount = {
              apiVersion: 'v1',
              kind: 'ServiceAccount',
              metadata: { name: n, namespace: other },
              secrets: [{ name: `${MARK}-theirs` }],
            } as KubeObject;
            for (const o of [intruderSecret, intruderAccount]) {
              put(related, o, `${other}/${n}`);
              if (s.noNamespace) put(related, { ...o, metadata: { ...o.metadata, namespace: undefined } } as KubeObject, `${other}/${n}`);
              if (s.lyingKeys) put(related, { ...o, metadata: { ...o.metadata, name: `${n}x` } }, `${s.ns}/${n}x`);
            }
          }
        }

        const answer = runHook(inferenceservice, 'sync', parseHookRequest(JSON.parse(JSON.stringify(body))), ctx);
        const text = JSON.stringify(answer);
        expect(
          text.includes(MARK),
          `the answer carries a Secret value or an intruder's string: ${text.slice(text.indexOf(MARK) - 200, text.indexOf(MARK) + 50)}`,
        ).toBe(false);
        for (const o of own) {
          for (const v of [...Object.values((o.data ?? {}) as Record<string, string>), ...Object.values((o.stringData ?? {}) as Record<string, string>)]) {
            expect(text.includes(v)).toBe(false);
            expect(text.includes(Buffer.from(v, 'base64').toString())).toBe(false);
          }
        }
        for (const child of answer.children as KubeObject[]) expect(child.metadata.namespace).toBe(s.ns);
      }),
      { numRuns: 300 },
    );
  });
});
