import { mkdirSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { live } from './context.js';

/**
 * Files run two at a time in one cluster, each in its own namespaces. A few things are not
 * namespaced: KServe's inferenceservice-config changes every InferenceService's status, which the
 * steady-state watch would count as writes. Such a file and steady state run their critical part
 * under this lock: a directory in the cluster's directory, made atomically (mkdir fails when it
 * exists), shared by every worker process of the run.
 */
export async function exclusive<T>(name: string, fn: () => Promise<T>, waitMs = 600_000): Promise<T> {
  const lock = path.join(live().dir, `lock-${name}`);
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (Date.now() > deadline) throw new Error(`exclusive(${name}): still held after ${waitMs / 1000}s (${lock})`);
      await sleep(500);
    }
  }
  try {
    return await fn();
  } finally {
    rmdirSync(lock);
  }
}
