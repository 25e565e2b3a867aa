import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { fromRoot, objectsIn } from '../e2e/support/files.js';
import type { KubeObject } from '../e2e/support/kube.js';
import { kube, printLogsOnFailure } from './support/context.js';
import { recordChanges, type Change } from './support/recorder.js';
import { readyWithin } from './support/wait.js';

/*
 * A quiet steady state (issue 23, item 5): once every example has converged, nothing the hooks
 * answer may cause a write. A watch on the children kinds and the parents of the namespace
 * (what Metacontroller's informers see) runs for WATCH_MS with nothing changing; every new
 * resourceVersion is reported with the fields it changed and who wrote it (managedFields).
 * Writes by the cluster's own controllers on their own fields (kube-controller-manager on a
 * Deployment's status, say) are not caused by our answers and are listed, not counted; any
 * write by Metacontroller (a child update or a parent status) is.
 */
const READY_MS = 120_000;
/** After Ready: the last rollouts finish (ReplicaSets, Pods, status) before the quiet window. */
const SETTLE_MS = 15_000;
const WATCH_MS = Number(process.env.LIVE_STEADY_SECONDS ?? 60) * 1000;
const NS = 'live-steady';
const PARENT_KINDS = new Set(['InferenceService', 'TrustyAIService', 'Tfserv', 'MLModel']);

const ours = (c: Change) => c.writers.some((w) => w.startsWith('metacontroller')) || (c.type !== 'MODIFIED' && c.kind !== 'Pod');

printLogsOnFailure(60);

describe('steady state', () => {
  const k = kube();

  it(`every example converged: no write caused by our answers for ${WATCH_MS / 1000}s`, async () => {
    await k.ensureNamespace(NS);
    const objects = objectsIn(fromRoot('examples')).map(({ obj }) => ({ ...obj, metadata: { ...obj.metadata, namespace: NS } }) as KubeObject);
    for (const o of objects.filter((x) => !PARENT_KINDS.has(x.kind))) await k.apply(o);
    const applied = Date.now();
    for (const o of objects.filter((x) => PARENT_KINDS.has(x.kind))) await k.apply(o);
    for (const o of objects.filter((x) => PARENT_KINDS.has(x.kind))) await readyWithin(k, o, READY_MS, applied);
    await sleep(SETTLE_MS);

    const recorder = recordChanges(k, NS);
    await recorder.synced;
    await sleep(WATCH_MS);
    recorder.stop();

    const lines = recorder.changes.map((c) => `${c.type} ${c.kind}/${c.name} rv ${c.resourceVersion} by ${c.writers.join(',') || '?'}: ${c.changed.join(', ')}`);
    console.log(`steady state, ${WATCH_MS / 1000}s: ${recorder.changes.length} events\n${lines.join('\n')}`);
    expect(recorder.changes.filter(ours).map((c) => `${c.type} ${c.kind}/${c.name} by ${c.writers.join(',')}: ${c.changed.join(', ')}`)).toEqual([]);
  });
});
