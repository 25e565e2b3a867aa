/**
 * A worker thread of the server's compute pool (server/admission.ts ComputePool): it runs
 * computeAnswer for the built-in compositions, with the server's hook configuration and memo
 * budget given at its start, and answers each task with what it computed (a hook's error as
 * its message and stack: an Error does not cross threads whole).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { builtinCompositions } from '../compositions.js';
import { setMemoBytes } from '../kit/memo-budget.js';
import type { CompositionConfigs } from '../kit/config.js';
import { computeAnswer } from './compute.js';
import type { NamespaceSelector } from './namespace-selector.js';
import type { HookName } from './request.js';

export interface ComputeTask {
  id: number;
  composition: string;
  hook: HookName;
  raw: Uint8Array;
  now: string;
  namespace: string | undefined;
}

const data = workerData as { hooks: CompositionConfigs; namespaceSelector: NamespaceSelector; memoBytes: number };
setMemoBytes(data.memoBytes);
const byName = new Map(builtinCompositions.map((c) => [c.name, c]));

parentPort?.on('message', (task: ComputeTask) => {
  const composition = byName.get(task.composition);
  const raw = Buffer.from(task.raw.buffer, task.raw.byteOffset, task.raw.byteLength);
  const computed =
    composition === undefined
      ? { kind: 'error' as const, error: new Error(`no built-in composition ${task.composition}`), parent: '' }
      : computeAnswer(composition, task.hook, raw, { now: task.now, config: data.hooks, namespaceSelector: data.namespaceSelector }, task.namespace);
  if (computed.kind === 'error') {
    const err = computed.error as Error;
    parentPort?.postMessage({ id: task.id, computed: { ...computed, error: { message: String(err?.message ?? err), stack: err?.stack } } });
  } else parentPort?.postMessage({ id: task.id, computed });
});
