import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { registerBuildInfo } from './build-info.js';

/**
 * What became of a hook request. Answers: `ok` (computed, 200), `cached` (from the answer
 * cache, 200), `not_modified` (from the answer cache, 304), `computed_not_modified` (not in
 * the cache — evicted, or another replica's — computed, then 304), and `invalid_spec` (an
 * answer, any of those, whose Ready reason is InvalidSpec). So the share of answers the cache
 * served is (cached + not_modified) / all answers, and the share Metacontroller already held
 * is (not_modified + computed_not_modified) / all answers. `overloaded`: a 503 with Retry-After
 * (the bytes in flight or the namespace's queue were full: server/admission.ts), `error`: any other 5xx.
 */
export const OUTCOMES = [
  'ok',
  'cached',
  'not_modified',
  'computed_not_modified',
  'invalid_spec',
  'bad_request',
  'unauthorized',
  'not_found',
  'too_large',
  'overloaded',
  'error',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface HookMetrics {
  registry: Registry;
  /** Synced from the per-request series when scraped (its `collect`). */
  requests: Counter<'composition' | 'hook' | 'outcome'>;
  duration: DurationHistogram;
  /** What the answer cache holds, against MODELHOOKS_CACHE_BYTES and MODELHOOKS_CACHE_ENTRIES. */
  cacheBytes: Gauge;
  cacheEntries: Gauge;
  /** Requests refused for their size (413), by the namespace their first bytes name (tooLargeLabel). */
  tooLarge: Counter<'namespace'>;
  /** The namespace labels tooLarge has, at most TOO_LARGE_NAMESPACES. */
  tooLargeNamespaces: Set<string>;
  /** The label sets seen so far and their counts, sums and buckets: what a request writes. */
  series: HookSeries[];
}

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
type Labels = { composition: string; hook: string; outcome: Outcome };

/** One (composition, hook, outcome): plain numbers a request adds to, read when /metrics is scraped. */
export class HookSeries {
  count = 0;
  /** How much of `count` the prom-client counter has been given. */
  reported = 0;
  sum = 0;
  /** Observations per bucket (not cumulative); one beyond the last bound counts only in `count`. */
  readonly buckets = new Float64Array(BUCKETS.length);
  constructor(readonly labels: Labels) {}

  observe(seconds: number): void {
    this.count++;
    this.sum += seconds;
    for (let i = 0; i < BUCKETS.length; i++) {
      if (seconds <= (BUCKETS[i] as number)) {
        (this.buckets[i] as number)++;
        return;
      }
    }
  }
}

/**
 * modelhooks_hook_request_duration_seconds, written as prom-client writes a histogram (the
 * same lines, labels and order), from the series: a request observes into plain numbers
 * instead of hashing its label object in prom-client's observe.
 */
export class DurationHistogram {
  readonly name = 'modelhooks_hook_request_duration_seconds';
  readonly help = 'Time to answer a hook request, from the first byte read to the last byte written.';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  constructor(private readonly series: HookSeries[]) {}

  /** The values as prom-client's Histogram hands them to the registry's text format. */
  getForPromString() {
    const values: { labels: Record<string, string | number>; sharedLabels: Labels | Record<string, never>; value: number; metricName: string }[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.series) {
      let acc = 0;
      BUCKETS.forEach((le, i) => {
        acc += s.buckets[i] as number;
        values.push({ labels: { le }, sharedLabels: s.labels, value: acc, metricName: bucket });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: bucket });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The same with the labels merged, as prom-client's get() (JSON). */
  get() {
    const data = this.getForPromString();
    return { ...data, values: data.values.map(({ labels, sharedLabels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } })) };
  }

  reset(): void {}
}

/** A private registry per app, so that tests and several apps in one process never share counters. */
export function createMetrics(): HookMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerBuildInfo(registry);
  const series: HookSeries[] = [];
  const duration = new DurationHistogram(series);
  registry.registerMetric(duration as never);
  return {
    registry,
    requests: new Counter({
      name: 'modelhooks_hook_requests_total',
      help: 'Hook requests by composition, hook and outcome.',
      labelNames: ['composition', 'hook', 'outcome'] as const,
      registers: [registry],
      collect() {
        for (const s of series) {
          if (s.count === s.reported) continue;
          this.inc(s.labels, s.count - s.reported);
          s.reported = s.count;
        }
      },
    }),
    duration,
    cacheBytes: new Gauge({ name: 'modelhooks_answer_cache_bytes', help: 'Bytes held by the answer cache.', registers: [registry] }),
    cacheEntries: new Gauge({ name: 'modelhooks_answer_cache_entries', help: 'Answers held by the answer cache.', registers: [registry] }),
    tooLarge: new Counter({
      name: 'modelhooks_too_large_requests_total',
      help: `Hook requests refused for their size (413, MODELHOOKS_BODY_LIMIT), by the parent's namespace as the body's first bytes name it (unknown when they do not, other beyond ${TOO_LARGE_NAMESPACES} namespaces).`,
      labelNames: ['namespace'] as const,
      registers: [registry],
    }),
    tooLargeNamespaces: new Set(),
    series,
  };
}

/**
 * The namespaces modelhooks_too_large_requests_total names: the first ones refused, up to this
 * many (a label value per namespace, as a body names it: with the token, anyone may name any).
 */
export const TOO_LARGE_NAMESPACES = 64;

/** The label of a refused body's namespace: itself while fewer than TOO_LARGE_NAMESPACES are labelled, `other` beyond, `unknown` when not named. */
export function tooLargeLabel(seen: Set<string>, namespace: string | undefined): string {
  if (namespace === undefined) return 'unknown';
  if (seen.has(namespace)) return namespace;
  if (seen.size >= TOO_LARGE_NAMESPACES) return 'other';
  seen.add(namespace);
  return namespace;
}

/** Records one hook request into its series; a label set is looked up, never built or hashed, per request. */
export interface BoundHookMetrics {
  record(composition: string, hook: string, outcome: Outcome, seconds: number): void;
  /** Counts a request refused for its size under its parent's namespace (undefined: not named). */
  tooLarge(namespace: string | undefined): void;
}

/**
 * The series per (composition, hook, outcome), made on first use (so no series appears
 * before it has a sample), shared by every binding of the same metrics.
 */
export function bindHookMetrics(metrics: HookMetrics): BoundHookMetrics {
  const byComposition = new Map<string, Map<string, Map<Outcome, HookSeries>>>();
  for (const s of metrics.series) seriesIn(byComposition, s.labels.composition, s.labels.hook).set(s.labels.outcome, s);
  return {
    record(composition, hook, outcome, seconds) {
      const byOutcome = seriesIn(byComposition, composition, hook);
      let series = byOutcome.get(outcome);
      if (series === undefined) {
        // Another binding of the same metrics may have made it since.
        series = metrics.series.find((s) => s.labels.composition === composition && s.labels.hook === hook && s.labels.outcome === outcome);
        if (series === undefined) metrics.series.push((series = new HookSeries({ composition, hook, outcome })));
        byOutcome.set(outcome, series);
      }
      series.observe(seconds);
    },
    tooLarge(namespace) {
      metrics.tooLarge.inc({ namespace: tooLargeLabel(metrics.tooLargeNamespaces, namespace) });
    },
  };
}

function seriesIn(byComposition: Map<string, Map<string, Map<Outcome, HookSeries>>>, composition: string, hook: string): Map<Outcome, HookSeries> {
  let byHook = byComposition.get(composition);
  if (byHook === undefined) byComposition.set(composition, (byHook = new Map()));
  let byOutcome = byHook.get(hook);
  if (byOutcome === undefined) byHook.set(hook, (byOutcome = new Map()));
  return byOutcome;
}
