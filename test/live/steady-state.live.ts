import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { exclusive } from './support/exclusive.js';
import { fromRoot, objectsIn } from '../e2e/support/files.js';
import type { KubeObject } from '../e2e/support/kube.js';
import { kube, live, printLogsOnFailure } from './support/context.js';
import { recordChanges } from './support/recorder.js';
import { readyWithin, within } from './support/wait.js';

/*
 * A quiet steady state (issue 23, item 5): once every example has converged, nothing the hooks
 * answer may cause a write. A watch on the children kinds and the parents of the namespace
 * (what Metacontroller's informers see) runs for WATCH_MS with nothing changing; every new
 * resourceVersion is reported with the fields it changed and who wrote it (managedFields).
 * None may appear: not a child update or a parent status by Metacontroller, nor a write by
 * another controller that our children would provoke (a status that never settles).
 */
const READY_MS = 120_000 + 1_000 * Number(process.env.LIVE_STEADY_PARENTS ?? 10);
/** After Ready: the last rollouts finish (ReplicaSets, Pods, status) before the quiet window. */
const SETTLE_MS = 15_000;
const WATCH_MS = Number(process.env.LIVE_STEADY_SECONDS ?? 60) * 1000;
const NS = 'live-steady';
/** InferenceServices beside the examples (their Ingresses are related objects of each other). */
const EXTRA = Number(process.env.LIVE_STEADY_PARENTS ?? 10);
const PARENT_KINDS = new Set(['InferenceService', 'TrustyAIService', 'Tfserv', 'MLModel']);

printLogsOnFailure(60);

describe('steady state', () => {
  const k = kube();

  it(`every example converged: no write caused by our answers for ${WATCH_MS / 1000}s`, async () => {
    await k.ensureNamespace(NS);
    const examples = objectsIn(fromRoot('examples')).map(({ obj }) => ({ ...obj, metadata: { ...obj.metadata, namespace: NS } }) as KubeObject);
    const isvc = examples.find((o) => o.kind === 'InferenceService') as KubeObject;
    const extra = Array.from({ length: EXTRA }, (_, i) => ({ ...isvc, metadata: { name: `steady-${i}`, namespace: NS } }));
    const objects = [...examples, ...extra];
    for (const o of objects.filter((x) => !PARENT_KINDS.has(x.kind))) await k.apply(o);
    const applied = Date.now();
    for (const o of objects.filter((x) => PARENT_KINDS.has(x.kind))) await k.apply(o);
    for (const o of objects.filter((x) => PARENT_KINDS.has(x.kind))) await readyWithin(k, o, READY_MS, applied);
    // Nothing cluster-wide (kserve-config.live.ts's ConfigMap) may change while the watch counts writes.
    await exclusive('cluster-wide', async () => {
      await sleep(SETTLE_MS);

      const recorder = recordChanges(k, NS);
      await recorder.synced;
      const before = await hookRequests();
      await sleep(WATCH_MS);
      const after = await hookRequests();
      // The watch has teeth: a user's label on the InferenceService is seen at once.
      const quiet = recorder.changes.length;
      await k.call(
        'PATCH',
        `/apis/serving.kserve.io/v1beta1/namespaces/${NS}/inferenceservices/${isvc.metadata.name}`,
        { metadata: { labels: { touched: 'yes' } } },
        'application/merge-patch+json',
      );
      await within('the watch sees a label added', 5_000, async () => (recorder.changes.length > quiet ? true : { pending: 'no event' }));
      recorder.stop();
      const inWindow = recorder.changes.slice(0, quiet);
      const calls = Object.entries(after)
        .map(([key, n]) => [key, n - (before[key] ?? 0)] as const)
        .filter(([, n]) => n > 0);
      console.log(
        `hook requests during the ${WATCH_MS / 1000}s window, every namespace (other files run beside this one; ${objects.filter((o) => PARENT_KINDS.has(o.kind)).length} parents here): ${calls.map(([key, n]) => `${key} ${n}`).join(', ') || 'none'}`,
      );

      const lines = inWindow.map((c) => `${c.type} ${c.kind}/${c.name} rv ${c.resourceVersion} by ${c.writers.join(',') || '?'}: ${c.changed.join(', ')}`);
      console.log(`steady state, ${WATCH_MS / 1000}s: ${inWindow.length} events\n${lines.join('\n')}`);
      expect(lines).toEqual([]);
    });
  });
});

/** The hook server's request counters (modelhooks_hook_requests_total) by label set. */
async function hookRequests(): Promise<Record<string, number>> {
  const text = await (await fetch(`${live().hookUrl}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^modelhooks_hook_requests_total(\{[^}]*\}) (\d+)/.exec(line);
    if (m?.[1] && m[2]) out[m[1]] = Number(m[2]);
  }
  return out;
}
