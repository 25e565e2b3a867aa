import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { fromRoot, readObjects } from '../e2e/support/files.js';
import type { KubeObject } from '../e2e/support/kube.js';
import { hookServer, kube, printLogsOnFailure } from './support/context.js';
import { recordChanges } from './support/recorder.js';
import { childUids, conditionOf, getOrNone, readyWithin, within } from './support/wait.js';

/*
 * The hook server restarted while Metacontroller is busy: every parent has just been edited
 * when the server goes down (SIGTERM), one more edit lands during the outage, and the server
 * comes back 10 s later. No child may be deleted or recreated (a failed call must leave
 * children alone), and no sync may be lost: every edit converges after the restart.
 */
const PARENTS = 20;
const READY_MS = 180_000;
const OUTAGE_MS = 10_000;
const CONVERGE_MS = 60_000;
const NS = 'live-restart';
const API = 'serving.kserve.io/v1beta1';

const isvc = (i: number): KubeObject => {
  const obj = readObjects(fromRoot('examples/inferenceservice.yaml'))[0] as KubeObject;
  return { ...obj, metadata: { name: `sklearn-${String(i).padStart(2, '0')}`, namespace: NS } };
};
const merge = 'application/merge-patch+json';
const maxReplicas = (name: string, n: number) =>
  kube().call('PATCH', `/apis/${API}/namespaces/${NS}/inferenceservices/${name}`, { spec: { predictor: { maxReplicas: n } } }, merge);

printLogsOnFailure(30);

describe('the hook server restarted while Metacontroller is busy', () => {
  const k = kube();
  afterAll(() => hookServer('start').catch(() => undefined));

  it(`${PARENTS} parents: no child deleted or recreated, no sync lost`, async () => {
    await k.ensureNamespace(NS);
    const parents = Array.from({ length: PARENTS }, (_, i) => isvc(i));
    const applied = Date.now();
    for (const p of parents) await k.apply(p);
    const ready = await Promise.all(parents.map((p) => readyWithin(k, p, READY_MS, applied)));
    console.log(`${PARENTS} InferenceServices Ready in ${(Math.max(...ready.map((r) => r.ms)) / 1000).toFixed(1)}s`);
    const uids = Object.fromEntries(
      await Promise.all(ready.map(async (r) => [r.value.metadata.name, await childUids(k, NS, r.value.metadata.uid ?? '')] as const)),
    );

    const recorder = recordChanges(k, NS);
    await recorder.synced;
    await Promise.all(parents.map((p) => maxReplicas(p.metadata.name, 4)));
    await hookServer('stop');
    const down = Date.now();
    await maxReplicas(parents[0]?.metadata.name ?? '', 6);
    await sleep(OUTAGE_MS);
    await hookServer('start');
    const restarted = Date.now();
    console.log(`hook server down ${((restarted - down) / 1000).toFixed(1)}s`);

    const want = (i: number) => (i === 0 ? 6 : 4);
    const { ms } = await within(
      `every parent converged after the restart`,
      CONVERGE_MS,
      async () => {
        const pending: string[] = [];
        for (const [i, p] of parents.entries()) {
          const obj = await getOrNone(k, API, 'InferenceService', p.metadata.name, NS);
          const hpa = await getOrNone(k, 'autoscaling/v2', 'HorizontalPodAutoscaler', `${p.metadata.name}-predictor`, NS);
          const seen = (obj?.status as { observedGeneration?: number } | undefined)?.observedGeneration;
          const max = (hpa?.spec as { maxReplicas?: number } | undefined)?.maxReplicas;
          if (seen !== obj?.metadata.generation || max !== want(i) || conditionOf(obj, 'Ready')?.status !== 'True') {
            pending.push(
              `${p.metadata.name}: observedGeneration ${seen}/${obj?.metadata.generation}, HPA max ${max}/${want(i)}, Ready ${conditionOf(obj, 'Ready')?.status}`,
            );
          }
        }
        return pending.length === 0 ? true : { pending: pending.slice(0, 5).join('; ') + (pending.length > 5 ? `; +${pending.length - 5}` : '') };
      },
      restarted,
    );
    console.log(`every edit converged ${(ms / 1000).toFixed(1)}s after the restart`);
    recorder.stop();

    const lost = recorder.changes.filter((c) => c.type !== 'MODIFIED' && c.kind !== 'InferenceService');
    expect(lost.map((c) => `${c.type} ${c.kind}/${c.name}`)).toEqual([]);
    for (const r of ready) expect(await childUids(k, NS, r.value.metadata.uid ?? '')).toEqual(uids[r.value.metadata.name]);
  });
});
