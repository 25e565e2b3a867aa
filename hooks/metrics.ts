import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What became of a hook request. `invalid_spec` is an answer (200, or 304, cached or not)
 * whose Ready reason is InvalidSpec; `ok`, `cached` and `not_modified` are the other answers.
 */
export const OUTCOMES = ['ok', 'cached', 'not_modified', 'invalid_spec', 'bad_request', 'unauthorized', 'not_found', 'too_large', 'error'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface HookMetrics {
  registry: Registry;
  requests: Counter<'composition' | 'hook' | 'outcome'>;
  duration: Histogram<'composition' | 'hook' | 'outcome'>;
  /** What the answer cache holds, against MODELHOOKS_CACHE_BYTES and MODELHOOKS_CACHE_ENTRIES. */
  cacheBytes: Gauge;
  cacheEntries: Gauge;
}

/** A private registry per app, so that tests and several apps in one process never share counters. */
export function createMetrics(): HookMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['composition', 'hook', 'outcome'] as const;
  return {
    registry,
    requests: new Counter({ name: 'modelhooks_hook_requests_total', help: 'Hook requests by composition, hook and outcome.', labelNames, registers: [registry] }),
    duration: new Histogram({
      name: 'modelhooks_hook_request_duration_seconds',
      help: 'Time to answer a hook request, from the first byte read to the last byte written.',
      labelNames,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    cacheBytes: new Gauge({ name: 'modelhooks_answer_cache_bytes', help: 'Bytes held by the answer cache.', registers: [registry] }),
    cacheEntries: new Gauge({ name: 'modelhooks_answer_cache_entries', help: 'Answers held by the answer cache.', registers: [registry] }),
  };
}

/** Records one hook request; label sets are bound once, not hashed from a fresh object per request. */
export interface BoundHookMetrics {
  record(composition: string, hook: string, outcome: Outcome, seconds: number): void;
}

interface Bound {
  inc: (value?: number) => void;
  observe: (value: number) => void;
}

/**
 * The request counter and duration histogram bound per (composition, hook, outcome): the
 * labels objects are built once per set (on first use, so no series appears before it has
 * a sample), never per request.
 */
export function bindHookMetrics(metrics: HookMetrics): BoundHookMetrics {
  const byComposition = new Map<string, Map<string, Map<Outcome, Bound>>>();
  return {
    record(composition, hook, outcome, seconds) {
      let byHook = byComposition.get(composition);
      if (!byHook) byComposition.set(composition, (byHook = new Map()));
      let byOutcome = byHook.get(hook);
      if (!byOutcome) byHook.set(hook, (byOutcome = new Map()));
      let bound = byOutcome.get(outcome);
      if (!bound) {
        bound = { inc: metrics.requests.labels(composition, hook, outcome).inc, observe: metrics.duration.labels(composition, hook, outcome).observe };
        byOutcome.set(outcome, bound);
      }
      bound.inc();
      bound.observe(seconds);
    },
  };
}
