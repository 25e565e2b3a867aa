/**
 * Metacontroller's loop without a cluster: sync, apply the answer (its children become the
 * observed ones, its status the parent's), sync again, until nothing changes.
 *
 *   const { result, rounds } = converge(echo, { parent });
 *   expect(result.condition('Ready')?.status).toBe('True');
 */
import type { AnyComposition } from '../kit/composition.js';
import { canonicalJson } from '../kit/children/hash.js';
import type { KubeObject } from '../kit/types.js';
import { runSync, type RunOptions, type SyncResult } from './run.js';
import { ready } from './ready.js';

export interface ConvergeOptions<Config> extends RunOptions<Config> {
  /**
   * How an applied child looks when observed next round: `'ready'` (the default) as its
   * controller reports it once ready (see `ready`), `'applied'` exactly as desired (no
   * status: nothing ever becomes ready), or a function of your own.
   */
  observe?: 'ready' | 'applied' | ((child: KubeObject) => KubeObject);
  /** Syncs before giving up; default 10. */
  maxRounds?: number;
}

export interface Converged {
  /** The last answer, equal to the one before it. */
  result: SyncResult;
  /** Sync calls made, the last (unchanged) one included: at least 2. */
  rounds: number;
}

export function converge<Config>(composition: AnyComposition<Config>, options: ConvergeOptions<Config>): Converged {
  const { observe = 'ready', maxRounds = 10, ...run } = options;
  const asObserved =
    observe === 'ready' ? (c: KubeObject) => ready(c, run.now ? { now: run.now } : {}) : observe === 'applied' ? (c: KubeObject) => c : observe;
  const parent = run.parent as KubeObject;
  let result = runSync(composition, run);
  for (let round = 2; round <= maxRounds; round++) {
    // Metacontroller stores the status with observedGeneration, and creates or updates the children.
    const status = parent.metadata?.generation === undefined ? result.status : { ...result.status, observedGeneration: parent.metadata.generation };
    const next = runSync(composition, { ...run, parent: { ...parent, status }, observed: result.children.map(asObserved) });
    const changes = differences(answerOf(result), answerOf(next));
    result = next;
    if (changes.length === 0) return { result, rounds: round };
    if (round === maxRounds) {
      throw new Error(
        `${composition.name} did not converge in ${maxRounds} syncs; the last two answers differ at:\n  ${changes.slice(0, 20).join('\n  ')}${changes.length > 20 ? `\n  … and ${changes.length - 20} more` : ''}`,
      );
    }
  }
  throw new Error(`converge: maxRounds must be at least 2, got ${maxRounds}`);
}

const answerOf = (r: SyncResult) => ({ status: r.status, children: r.children });

/** Paths where two JSON values differ, each with the old and the new value. */
export function differences(before: unknown, after: unknown, path = ''): string[] {
  if (canonicalJson(before) === canonicalJson(after)) return [];
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
  if (isObj(before) && isObj(after) && Array.isArray(before) === Array.isArray(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) => differences(before[k], after[k], Array.isArray(before) ? `${path}[${k}]` : path ? `${path}.${k}` : k));
  }
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v).slice(0, 120));
  return [`${path || '(root)'}: ${show(before)} → ${show(after)}`];
}
