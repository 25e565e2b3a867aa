import { describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../hooks/kit/index.js';
import { runSync } from '../../hooks/testing/index.js';
import { defaultHookConfig, type HookConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import { credentialsSent } from '../support/credentials.js';

/**
 * The InferenceService remembers, per parsed spec, the runtime it resolves, the problems
 * `validate` finds and its settled plan: the pods, hosts, credentials and the children while
 * no canary runs (kit memoOnSpec; plan.ts settledPlan). Whatever else those read must be in the memo's key. So
 * for each such input, a sync after syncs of the same spec with other inputs must answer as a
 * first computation does: the same sync in a fresh copy of the modules, where nothing is
 * remembered yet.
 */
async function firstComputation(c: Case): Promise<Record<string, unknown>> {
  vi.resetModules();
  const fresh = {
    inferenceservice: (await import('../../hooks/inferenceservice/index.js')).inferenceservice,
    runSync: (await import('../../hooks/testing/index.js')).runSync,
  };
  expect(fresh.inferenceservice).not.toBe(inferenceservice);
  return sync(c, fresh);
}

const runtime = (kind: 'ServingRuntime' | 'ClusterServingRuntime', namespace: string | undefined, flag: string): KubeObject => ({
  apiVersion: 'serving.kserve.io/v1alpha1',
  kind,
  metadata: { name: 'templated', ...(namespace ? { namespace } : {}), creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: {
    supportedModelFormats: [{ name: 'sklearn', autoSelect: true, priority: 9 }],
    protocolVersions: ['v1'],
    containers: [
      {
        name: 'kserve-container',
        image: 'example.com/runtime:1',
        args: ['--name={{.Name}}', '--ns={{.Namespace}}', '--team={{.Labels.team}}', '--note={{.Annotations.note}}', flag],
      },
    ],
  },
});

/** The runtime every case uses unless it says otherwise: its args template the parent's name, namespace, a label and an annotation. */
const templated = (namespace: string) => [runtime('ServingRuntime', namespace, '--flag=namespaced')];

const spec = { predictor: { sklearn: { storageUri: 'gs://bucket/model', securityContext: { allowPrivilegeEscalation: true } } } };
const b64 = (text: string) => Buffer.from(text).toString('base64');
/** The namespace's `default` ServiceAccount, listing these Secrets (KServe reads credentials from them). */
const serviceAccount = (namespace: string, secrets: string[]): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace }, secrets: secrets.map((name) => ({ name })) }) as KubeObject;
const secret = (namespace: string, name: string, data: Record<string, string>, annotations?: Record<string, string>): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace, ...(annotations ? { annotations } : {}) }, type: 'Opaque', data }) as KubeObject;
const s3Keys = { AWS_ACCESS_KEY_ID: b64('id'), AWS_SECRET_ACCESS_KEY: b64('key') };
/** A storage spec: the type is read from the storage-config Secret's JSON (credentials/storage-spec.ts). */
const storageSpec = { predictor: { model: { modelFormat: { name: 'sklearn' }, storage: { key: 'store', path: 'models/iris', parameters: { bucket: 'b' } } } } };
const storageConfig = (type: string) => (ns: string) => [...templated(ns), secret(ns, 'storage-config', { store: b64(JSON.stringify({ type })) })];
const trustyai = (namespace: string): KubeObject =>
  ({ apiVersion: 'trustyai.opendatahub.io/v1', kind: 'TrustyAIService', metadata: { name: 'trustyai-service', namespace }, spec: {} }) as KubeObject;
const canarySpec = { predictor: { ...spec.predictor, canaryTrafficPercent: 20 } };
/** A stable predictor Deployment that runs another spec (its hash differs): a canary starts. */
const stablePredictor = (namespace: string): KubeObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'demo-predictor', namespace, annotations: { 'modelhooks.dev/spec-hash': 'another' } },
    spec: {
      selector: { matchLabels: { app: 'isvc.demo-predictor' } },
      template: { metadata: { labels: { app: 'isvc.demo-predictor' } }, spec: { containers: [{ name: 'kserve-container', image: 'example.com/old:1' }] } },
    },
  }) as KubeObject;
const otherDomain = (): HookConfig => {
  const c = baseline();
  return { ...c, inferenceservice: { ...c.inferenceservice, ingress: { ...c.inferenceservice.ingress, domain: 'models.example.org' } } };
};

interface Case {
  what: string;
  spec?: Record<string, unknown>;
  observed?: (namespace: string) => KubeObject[];
  variant?: string;
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  related?: (namespace: string) => KubeObject[];
  config?: HookConfig;
}
// Baseline, so that the spec's allowPrivilegeEscalation is allowed but for the one case at restricted.
const baseline = (): HookConfig => {
  const c = defaultHookConfig();
  return { ...c, inferenceservice: { ...c.inferenceservice, podSecurity: 'baseline' } };
};
const restricted = (): HookConfig => {
  const c = baseline();
  return { ...c, inferenceservice: { ...c.inferenceservice, podSecurity: 'restricted' } };
};
const otherImage = (): HookConfig => {
  const c = baseline();
  return { ...c, inferenceservice: { ...c.inferenceservice, images: { ...c.inferenceservice.images, sklearnserver: 'example.com/sklearn:other' } } };
};
const cases: Case[] = [
  { what: 'the base' },
  { what: 'the name', name: 'other' },
  // A ClusterServingRuntime, as in the case after next: only the namespace tells them apart.
  { what: 'the namespace', namespace: 'ml2', related: () => [runtime('ClusterServingRuntime', undefined, '--flag=cluster')] },
  { what: 'a label', labels: { team: 'b' } },
  { what: 'an annotation', annotations: { note: 'y' } },
  { what: "the namespace's ServingRuntime, changed", related: (ns) => [runtime('ServingRuntime', ns, '--flag=changed')] },
  { what: 'a ClusterServingRuntime', related: () => [runtime('ClusterServingRuntime', undefined, '--flag=cluster')] },
  { what: 'the built-in runtimes', related: () => [] },
  { what: "the built-in runtimes' images", related: () => [], config: otherImage() },
  { what: 'the pod security level', config: restricted() },
  // Reaches the pods, so pod security refuses it at baseline too (pod-security.ts inheritedAnnotationProblems).
  { what: 'an annotation pod security forbids', annotations: { note: 'x', 'container.apparmor.security.beta.kubernetes.io/kserve-container': 'unconfined' } },
  // What only the settled plan reads.
  {
    what: "the ServiceAccount's Secret, with GCS credentials",
    related: (ns) => [...templated(ns), serviceAccount(ns, ['creds']), secret(ns, 'creds', { 'gcloud-application-credentials.json': b64('{}') })],
  },
  { what: "the ServiceAccount's Secret, with S3 keys", related: (ns) => [...templated(ns), serviceAccount(ns, ['creds']), secret(ns, 'creds', s3Keys)] },
  {
    what: "the ServiceAccount's Secret, with S3 keys and an endpoint annotation",
    related: (ns) => [
      ...templated(ns),
      serviceAccount(ns, ['creds']),
      secret(ns, 'creds', s3Keys, { 'serving.kserve.io/s3-endpoint': 'minio.example.com:9000' }),
    ],
  },
  { what: "the ServiceAccount's Secret, missing", related: (ns) => [...templated(ns), serviceAccount(ns, ['creds'])] },
  // Only a value inside the Secret differs: the key holds its SHA-256, never the value.
  { what: 'a storage-config Secret of type s3', spec: storageSpec, related: storageConfig('s3') },
  { what: 'a storage-config Secret of type hdfs', spec: storageSpec, related: storageConfig('hdfs') },
  { what: "the namespace's TrustyAIService", related: (ns) => [...templated(ns), trustyai(ns)] },
  { what: 'HTTPRoutes declared (the gateway-api variant)', variant: 'gateway-api' },
  { what: 'the ingress domain', config: otherDomain() },
  // The canary decision reads the observed stable Deployment on every sync; its children are built anew.
  { what: 'a canary, on HTTPRoutes', spec: canarySpec, variant: 'gateway-api', observed: (ns) => [stablePredictor(ns)] },
  { what: 'canaryTrafficPercent on an Ingress (rolled out in place)', spec: canarySpec, observed: (ns) => [stablePredictor(ns)] },
];

type Modules = { inferenceservice: typeof inferenceservice; runSync: typeof runSync };
function sync(c: Case, m: Modules = { inferenceservice, runSync }): Record<string, unknown> {
  const namespace = c.namespace ?? 'ml';
  const parent: KubeObject = {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: c.name ?? 'demo', namespace, generation: 1, labels: c.labels ?? { team: 'a' }, annotations: c.annotations ?? { note: 'x' } },
    spec: c.spec ?? spec,
  };
  // The Ingress exists already, so it is in every answer (it waits for nothing then: exposure.ts ingressWaitsFor).
  const ingress: KubeObject = { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: parent.metadata.name, namespace } };
  const observed = [...(c.observed?.(namespace) ?? []), ingress];
  return m.runSync(m.inferenceservice, {
    parent,
    observed,
    // As Metacontroller sends them: the ServiceAccounts with their Secrets' summary (support/credentials.ts).
    related: credentialsSent(parent, (c.related ?? templated)(namespace)),
    config: c.config ?? baseline(),
    ...(c.variant ? { variant: c.variant } : {}),
  }).response;
}

describe('InferenceService memos: every input they read is in their key', () => {
  it('the cases answer differently from each other (else the test proves nothing)', async () => {
    const answers = new Set<string>();
    for (const c of cases) answers.add(JSON.stringify(await firstComputation(c)));
    expect(answers.size).toBe(cases.length);
  });

  it.each(cases)('$what: after the other cases, the same answer as a first computation', async (c) => {
    for (const other of cases) sync(other);
    expect(sync(c)).toEqual(await firstComputation(c));
  });
});
