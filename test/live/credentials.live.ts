import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { fromRoot, readObjects } from '../e2e/support/files.js';
import type { KubeObject } from '../e2e/support/kube.js';
import { kube, live, printLogsOnFailure } from './support/context.js';
import { getOrNone, within } from './support/wait.js';

/*
 * KServe's documented credential setups through the real Metacontroller: a Secret, a
 * ServiceAccount listing it and an InferenceService naming the ServiceAccount. The objects are
 * the golden cases' (KServe v0.20.0 docs samples, see each case.yaml), and the storage
 * initializer's env the Deployment must carry is the golden expected.yaml's (derived there from
 * KServe's pkg/credentials). Bound: 15 s after the last object the user applies, in every order
 * (issue 23: customize's answer is cached per generation, so a first sync that did not ask for
 * the Secret never sees it).
 */
const BOUND_MS = 15_000;
/** Between two applies: long enough that Metacontroller syncs the parent in between. */
const GAP_MS = 2_000;
const LATE_SECRET_MS = 60_000;

interface Setup {
  name: string;
  fixture: string;
}
const SETUPS: Setup[] = [
  { name: 's3', fixture: 'test/fixtures/inferenceservice/docs-s3-service-account' },
  { name: 'hf', fixture: 'test/fixtures/inferenceservice/hf-token-service-account' },
];

type Piece = 'Secret' | 'ServiceAccount' | 'InferenceService';
const PERMUTATIONS: Piece[][] = [
  ['Secret', 'ServiceAccount', 'InferenceService'],
  ['Secret', 'InferenceService', 'ServiceAccount'],
  ['ServiceAccount', 'Secret', 'InferenceService'],
  ['ServiceAccount', 'InferenceService', 'Secret'],
  ['InferenceService', 'Secret', 'ServiceAccount'],
  ['InferenceService', 'ServiceAccount', 'Secret'],
];

interface Env {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
type PodSpec = { initContainers?: Array<{ name: string; env?: Env[] }> };

/** The setup's objects moved to `namespace`, and the storage initializer's env the golden case expects. */
function load(setup: Setup, namespace: string) {
  const move = (o: KubeObject): KubeObject => {
    const { generation: _g, ...metadata } = o.metadata as KubeObject['metadata'] & { generation?: number };
    return { ...o, metadata: { ...metadata, namespace } };
  };
  const related = readObjects(fromRoot(setup.fixture, 'related.yaml')).map(move);
  const pieces: Record<Piece, KubeObject> = {
    Secret: related.find((o) => o.kind === 'Secret') as KubeObject,
    ServiceAccount: related.find((o) => o.kind === 'ServiceAccount') as KubeObject,
    InferenceService: move(readObjects(fromRoot(setup.fixture, 'parent.yaml'))[0] as KubeObject),
  };
  const expectedDeployment = readObjects(fromRoot(setup.fixture, 'expected.yaml')).find((o) => o.kind === 'Deployment') as KubeObject;
  const credentialEnv = storageEnv(expectedDeployment).filter((e) => e.valueFrom?.secretKeyRef);
  if (credentialEnv.length === 0) throw new Error(`${setup.fixture}: the golden Deployment has no credential env`);
  return { pieces, credentialEnv };
}

function storageEnv(deployment: KubeObject | undefined): Env[] {
  const pod = (deployment?.spec as { template?: { spec?: PodSpec } } | undefined)?.template?.spec;
  return pod?.initContainers?.find((c) => c.name === 'storage-initializer')?.env ?? [];
}

/** The predictor Deployment once its storage initializer carries every credential variable. */
async function credentialsWithin(namespace: string, isvc: string, want: Env[], since: number) {
  const k = kube();
  return within(
    `Deployment ${namespace}/${isvc}-predictor with the credentials`,
    BOUND_MS,
    async () => {
      const d = await getOrNone(k, 'apps/v1', 'Deployment', `${isvc}-predictor`, namespace);
      if (!d) {
        const parent = await getOrNone(k, 'serving.kserve.io/v1beta1', 'InferenceService', isvc, namespace);
        return { pending: `no Deployment; InferenceService status ${JSON.stringify(parent?.status ?? {})}` };
      }
      const env = storageEnv(d);
      const missing = want.filter((w) => !env.some((e) => JSON.stringify(e) === JSON.stringify(w)));
      return missing.length === 0 ? d : { pending: `Deployment without ${missing.map((m) => m.name).join(', ')}` };
    },
    since,
  );
}

printLogsOnFailure(20);

describe.each(SETUPS)('$name ServiceAccount credentials on the first sync', (setup) => {
  const k = kube();

  it.concurrent.each(PERMUTATIONS.map((p) => [p.join(' → '), p] as const))(
    'applied %s: the Deployment has them ≤ 15 s after the last',
    async (_label, order) => {
      const ns = `live-cred-${setup.name}-${order.map((p) => p[0]?.toLowerCase()).join('')}`;
      await k.ensureNamespace(ns);
      const { pieces, credentialEnv } = load(setup, ns);
      let last = 0;
      for (const [i, piece] of order.entries()) {
        if (i > 0) await sleep(GAP_MS);
        last = Date.now();
        await k.apply(pieces[piece]);
      }
      const { ms } = await credentialsWithin(ns, pieces.InferenceService.metadata.name, credentialEnv, last);
      console.log(`${setup.name} ${order.join(' → ')}: credentials ${(ms / 1000).toFixed(1)}s after the last apply`);
    },
  );

  it.concurrent('a Secret created 1 minute after the InferenceService is used ≤ 15 s after its creation', async () => {
    const ns = `live-cred-${setup.name}-late`;
    await k.ensureNamespace(ns);
    const { pieces, credentialEnv } = load(setup, ns);
    await k.apply(pieces.ServiceAccount);
    await k.apply(pieces.InferenceService);
    await sleep(LATE_SECRET_MS);
    const created = Date.now();
    await k.apply(pieces.Secret);
    const { ms } = await credentialsWithin(ns, pieces.InferenceService.metadata.name, credentialEnv, created);
    console.log(`${setup.name} late Secret: used ${(ms / 1000).toFixed(1)}s after its creation`);
    expect(ms).toBeLessThanOrEqual(BOUND_MS);
  });
});

/** The hook server's sync requests for one parent so far (its debug log: one line per request, globalSetup sets the level). */
function syncsOf(namespace: string, name: string): number {
  const text = readFileSync(path.join(live().dir, 'hooks.log'), 'utf8');
  const parent = `"parent":"${namespace}/${name}"`;
  return text.split('\n').filter((l) => l.includes('"composition":"inferenceservice"') && l.includes('"hook":"sync"') && l.includes(parent)).length;
}

/** The largest sync request of a parent the hook server received (its debug line's `bytes`). */
function largestSyncOf(namespace: string, name: string): number {
  const text = readFileSync(path.join(live().dir, 'hooks.log'), 'utf8');
  const parent = `"parent":"${namespace}/${name}"`;
  const lines = text.split('\n').filter((l) => l.includes('"composition":"inferenceservice"') && l.includes('"hook":"sync"') && l.includes(parent));
  return Math.max(0, ...lines.map((l) => Number((JSON.parse(l) as { bytes?: number }).bytes ?? 0)));
}

/** The S3 endpoint the Deployment's storage initializer gets, and from which Secret its keys come. */
async function s3Of(namespace: string, isvc: string) {
  const d = await getOrNone(kube(), 'apps/v1', 'Deployment', `${isvc}-predictor`, namespace);
  const env = storageEnv(d);
  return {
    endpoint: env.find((e) => e.name === 'S3_ENDPOINT')?.value,
    keysFrom: env.find((e) => e.name === 'AWS_SECRET_ACCESS_KEY')?.valueFrom?.secretKeyRef?.name,
  };
}

const CROWD = 200;
const QUIET_MS = 15_000;

/*
 * Issue 32 item 7: the InferenceService asks for its ServiceAccount by name, which the
 * DecoratorController modelhooks-inferenceservice-credentials keeps a summary of its Secrets on
 * (credentials/summary.ts), and for no Secret. In a namespace of 200 other Secrets: editing one
 * of them syncs no InferenceService (the summary is unchanged, so nothing is written); a
 * rotation — a Secret's annotation, or the ServiceAccount listing another Secret — reaches the
 * Deployment within 15 s.
 */
describe('Secrets cost what they are worth: the credentials summary on the ServiceAccount', () => {
  const k = kube();

  it(`beside ${CROWD} Secrets: no sync request carries them, an unrelated Secret's edit syncs no InferenceService, a rotation reaches the Deployment ≤ 15 s`, async () => {
    const ns = 'live-cred-summary';
    await k.ensureNamespace(ns);
    const { pieces, credentialEnv } = load(SETUPS[0] as Setup, ns);
    const isvc = pieces.InferenceService.metadata.name;
    for (let i = 0; i < CROWD; i += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, CROWD - i) }, (_, j) =>
          k.apply({
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: `unrelated-${i + j}`, namespace: ns },
            stringData: { blob: 'x'.repeat(1024) },
          } as KubeObject),
        ),
      );
    }
    for (const piece of ['Secret', 'ServiceAccount', 'InferenceService'] as Piece[]) await k.apply(pieces[piece]);
    const last = Date.now();
    const first = await credentialsWithin(ns, isvc, credentialEnv, last);
    console.log(`summary: first sync with credentials ${(first.ms / 1000).toFixed(1)}s after the last apply`);
    expect(first.ms).toBeLessThanOrEqual(BOUND_MS);

    // Settled: no sync of this parent for 20 s, longer than kube-controller-manager's HPA cycle
    // (15 s), whose first status writes of the new HPA sync the parent as a child's change. On a
    // loaded machine a late event of the convergence (a pod's or HPA's) can still land in the
    // window: up to three windows, each after its own quiet, with other Secrets edited each time.
    // Before the summary every Secret edit synced every InferenceService of the namespace, so
    // every window had one at least; one window without a sync shows the edit causes none.
    const windows: number[] = [];
    for (let attempt = 0; attempt < 3 && !windows.includes(0); attempt++) {
      await within(`${ns}/${isvc} quiet`, 180_000, async () => {
        const before = syncsOf(ns, isvc);
        await sleep(20_000);
        return syncsOf(ns, isvc) === before ? true : { pending: 'still syncing' };
      });
      const before = syncsOf(ns, isvc);
      await k.call(
        'PATCH',
        `/api/v1/namespaces/${ns}/secrets/unrelated-${7 + 2 * attempt}`,
        { stringData: { blob: `edited-${attempt}` } },
        'application/merge-patch+json',
      );
      await k.call(
        'PATCH',
        `/api/v1/namespaces/${ns}/secrets/unrelated-${8 + 2 * attempt}`,
        { metadata: { annotations: { note: `edited-${attempt}` } } },
        'application/merge-patch+json',
      );
      await sleep(QUIET_MS);
      windows.push(syncsOf(ns, isvc) - before);
    }
    console.log(`summary: InferenceService syncs in each ${QUIET_MS / 1000}s window after two unrelated Secret edits beside ${CROWD}: ${windows.join(', ')}`);
    expect(Math.min(...windows)).toBe(0);

    // Its sync requests do not carry the namespace's Secrets: each is smaller than their data alone
    // (200 × 1 KiB, more in base64), where every request carried all of them before the summary.
    const largest = largestSyncOf(ns, isvc);
    console.log(`summary: the largest sync request of ${ns}/${isvc} beside ${CROWD} Secrets of 1 KiB: ${largest} bytes`);
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThan(CROWD * 1024);

    // Rotation 1: the Secret's endpoint annotation (KServe copies it into S3_ENDPOINT).
    const rotateAt = Date.now();
    await k.call(
      'PATCH',
      `/api/v1/namespaces/${ns}/secrets/mysecret`,
      { metadata: { annotations: { 'serving.kserve.io/s3-endpoint': 'minio.rotated.example:9000' } } },
      'application/merge-patch+json',
    );
    const rotated = await within(
      `${ns}/${isvc} with the rotated endpoint`,
      BOUND_MS,
      async () => {
        const s = await s3Of(ns, isvc);
        return s.endpoint === 'minio.rotated.example:9000' ? s : { pending: `S3_ENDPOINT ${s.endpoint}` };
      },
      rotateAt,
    );
    console.log(`summary: an annotation rotation reached the Deployment ${(rotated.ms / 1000).toFixed(1)}s after the edit`);

    // Rotation 2: the ServiceAccount lists another Secret (its `secrets` list: no generation, so the decorator's namespace-wide rule sees it).
    const second = { ...pieces.Secret, metadata: { ...pieces.Secret.metadata, name: 'mysecret-2' } } as KubeObject;
    await k.apply(second);
    const listAt = Date.now();
    await k.apply({ ...pieces.ServiceAccount, secrets: [{ name: 'mysecret-2' }] } as KubeObject);
    const relisted = await within(
      `${ns}/${isvc} with the keys of mysecret-2`,
      BOUND_MS,
      async () => {
        const s = await s3Of(ns, isvc);
        return s.keysFrom === 'mysecret-2' ? s : { pending: `AWS_SECRET_ACCESS_KEY from ${s.keysFrom}` };
      },
      listAt,
    );
    console.log(`summary: a ServiceAccount listing another Secret reached the Deployment ${(relisted.ms / 1000).toFixed(1)}s after the edit`);

    // The summary on the ServiceAccount holds no Secret value.
    const sa = (await k.get('v1', 'ServiceAccount', 'sa', ns)) as { metadata: { annotations?: Record<string, string> } };
    const summary = sa.metadata.annotations?.['modelhooks.dev/credentials'] ?? '';
    expect(JSON.parse(summary).listed).toEqual(['mysecret-2']);
    for (const v of Object.values((pieces.Secret as unknown as { data: Record<string, string> }).data)) {
      expect(summary).not.toContain(v);
      expect(summary).not.toContain(Buffer.from(v, 'base64').toString());
    }
  });
});
