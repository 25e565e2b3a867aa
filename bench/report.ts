/**
 * The benchmark's figures, ratios against the floor, targets (PASS/MISS, never a failure)
 * and their rendering as text tables or JSON. Pure: tested in test/bench/.
 */

/** The floor (bare node:http), then our server on the three paths a sync request takes. */
export const PATHS = ['floor', 'distinct', 'identical', 'notModified'] as const;
export type PathName = (typeof PATHS)[number];

export const PATH_LABELS: Record<PathName, string> = {
  floor: 'floor (node:http, JSON.parse)',
  distinct: 'ours, distinct (cache miss)',
  identical: 'ours, identical (cache hit)',
  notModified: 'ours, If-None-Match (304)',
};

export interface Measurement {
  /** Answers that arrived in the measured window (client side). */
  requests: number;
  errors: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Server process CPU (user + system, from inside the child) ÷ requests it served. */
  serverCpuUsPerRequest: number;
  /** This process's CPU ÷ requests: what the load generator costs. */
  clientCpuUsPerRequest: number;
  /** The server's RSS after the scenario. */
  rssMb: number;
  /**
   * Every round's server CPU per request, in round order (`--rounds`; this measurement is the
   * median round, see medianRound), so the spread shows. Optional: a bare measure() has none,
   * and readers of reports written before rounds keep working.
   */
  cpuUsPerRequestRounds?: number[];
}

export interface CaseResult {
  name: string;
  requestBytes: number;
  answerBytes: number;
  children: number;
  paths: Record<PathName, Measurement>;
}

export interface ScaleResult {
  name: string;
  factor: number;
  base: { requestBytes: number; cpuUsPerRequest: number };
  scaled: { requestBytes: number; cpuUsPerRequest: number };
}

export interface SoakResult {
  requests: number;
  errors: number;
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  /** RSS after each tenth of the requests: flat once the answer cache is full. */
  rssSeriesMb: number[];
}

export interface ProfileResult {
  file: string;
  top: { functionName: string; location: string; selfMs: number; selfPercent: number }[];
}

export interface Report {
  meta: {
    revision: string;
    node: string;
    cpu: string;
    cores: number;
    loadAverage: { before: number; after: number };
    pinned: boolean;
    /** The node flags our server ran with (the Deployment's NODE_OPTIONS and `node` command line). */
    nodeFlags?: string[];
    /** Both servers' MALLOC_TRIM_THRESHOLD_ (bench/malloc-env.ts); undefined: glibc's default or GLIBC_TUNABLES. */
    mallocTrimThreshold?: string | undefined;
    concurrency: number;
    durationS: number;
    warmupS: number;
    quick: boolean;
    /** Each case's four paths were measured this many times, interleaved; the median round is reported. */
    rounds: number;
  };
  cases: CaseResult[];
  scale: ScaleResult[];
  soak?: SoakResult;
  profiles: ProfileResult[];
}

/**
 * The round to report for one path: the one with the median server CPU per request (the lower
 * median for an even count), carrying every round's figure in `cpuUsPerRequestRounds`.
 *
 * Why: on a small shared machine one measurement swings ±30% from run to run (the floor alone
 * measured 313–583 µs/request in consecutive runs), and floor and ours measured once each, one
 * after the other, put that swing straight into the ratio. Rounds interleave the paths so a busy
 * spell hits all of them; the median ignores the odd round a neighbour disturbed. A whole round
 * (not a median of each figure) keeps req/s, latencies and CPU of one and the same window; the
 * lower median for an even count keeps it a real round. A round without a figure (NaN: nothing
 * served) sorts last. Its `errors` are those of every round, so a failure in another round
 * still fails the run.
 */
export function medianRound(rounds: readonly Measurement[]): Measurement {
  if (rounds.length === 0) throw new Error('medianRound: no rounds');
  const cpu = (x: Measurement) => (Number.isNaN(x.serverCpuUsPerRequest) ? Infinity : x.serverCpuUsPerRequest);
  const sorted = [...rounds].sort((a, b) => cpu(a) - cpu(b) || 0);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] as Measurement;
  return {
    ...median,
    errors: rounds.reduce((sum, x) => sum + x.errors, 0),
    cpuUsPerRequestRounds: rounds.map((x) => x.serverCpuUsPerRequest),
  };
}

/** floor ÷ ours, server CPU per request: how many times cheaper (or dearer, < 1) than the floor. */
export function ratios(c: CaseResult): Record<Exclude<PathName, 'floor'>, number> {
  const floor = c.paths.floor.serverCpuUsPerRequest;
  const r = (p: PathName) => floor / c.paths[p].serverCpuUsPerRequest;
  return { distinct: r('distinct'), identical: r('identical'), notModified: r('notModified') };
}

export const TARGETS = {
  distinct: 0.5,
  identical: 2,
  notModified: 2.5,
  p99Ms: 10,
  rssMb: 120,
  scaleCostFactor: 10,
} as const;

export interface TargetCheck {
  target: string;
  measured: string;
  pass: boolean;
  /** Why the figure does not measure exactly what the target says. */
  note?: string;
}

const fmt = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const ok = (n: number, pass: (n: number) => boolean) => Number.isFinite(n) && pass(n);

export function targetChecks(report: Report): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const c of report.cases) {
    const r = ratios(c);
    checks.push({
      target: `${c.name}: distinct ≥ ${TARGETS.distinct}× floor`,
      measured: `${fmt(r.distinct, 2)}×`,
      pass: ok(r.distinct, (n) => n >= TARGETS.distinct),
    });
    checks.push({
      target: `${c.name}: identical ≥ ${TARGETS.identical}× floor`,
      measured: `${fmt(r.identical, 2)}×`,
      pass: ok(r.identical, (n) => n >= TARGETS.identical),
    });
    checks.push({
      target: `${c.name}: 304 ≥ ${TARGETS.notModified}× floor`,
      measured: `${fmt(r.notModified, 2)}×`,
      pass: ok(r.notModified, (n) => n >= TARGETS.notModified),
    });
    const p99 = c.paths.distinct.p99Ms;
    const caveats = [report.meta.pinned ? '' : 'not pinned (--pin)', report.meta.concurrency === 16 ? '' : `${report.meta.concurrency} connections`].filter(
      Boolean,
    );
    checks.push({
      target: `${c.name}: distinct p99 ≤ ${TARGETS.p99Ms} ms`,
      measured: `${fmt(p99, 2)} ms`,
      pass: ok(p99, (n) => n <= TARGETS.p99Ms),
      ...(caveats.length ? { note: caveats.join(', ') } : {}),
    });
  }
  for (const s of report.scale) {
    const cost = s.scaled.cpuUsPerRequest / s.base.cpuUsPerRequest;
    checks.push({ target: `${s.name}: ${s.factor}× children costs ≤ ${s.factor}× CPU`, measured: `${fmt(cost, 2)}×`, pass: ok(cost, (n) => n <= s.factor) });
  }
  if (report.soak) {
    checks.push({
      target: `RSS ≤ ${TARGETS.rssMb} MB after ${report.soak.requests} mixed requests`,
      measured: `${fmt(report.soak.rssMb, 1)} MB`,
      pass: ok(report.soak.rssMb, (n) => n <= TARGETS.rssMb),
      ...(report.soak.requests < 100_000 ? { note: 'fewer than 100,000 requests' } : {}),
    });
    const growth = soakGrowthMb(report.soak);
    checks.push({ target: 'RSS flat over the second half of the soak (≤ 5 MB growth)', measured: `${fmt(growth, 1)} MB`, pass: ok(growth, (n) => n <= 5) });
  }
  return checks;
}

/** Columns padded to their widest cell; the first left-aligned, the others right-aligned. */
export function table(rows: string[][]): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((row) =>
      row
        .map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The lowest and highest CPU µs/req over a measurement's rounds ("-" without rounds). */
function roundsRange(x: Measurement): string {
  const all = (x.cpuUsPerRequestRounds ?? []).filter(Number.isFinite);
  return all.length ? `${fmt(Math.min(...all), 0)}–${fmt(Math.max(...all), 0)}` : '-';
}

export function formatReport(report: Report): string {
  const m = report.meta;
  const out: string[] = [
    `modelhooks bench — revision ${m.revision}, node ${m.node}, ${m.cpu} × ${m.cores}, load average ${m.loadAverage.before} → ${m.loadAverage.after}`,
    `${m.concurrency} keep-alive connections, ${m.durationS} s after ${m.warmupS} s warm-up per scenario, loopback${m.pinned ? ', server pinned to one core' : ''}${m.quick ? ' (--quick: rough figures)' : ''}`,
    m.rounds > 1
      ? `${m.rounds} rounds interleaved (floor, distinct, identical, 304, then again), median round per path reported; min–max: its CPU µs/req over the rounds.`
      : '1 round: each path measured once (--rounds N for the median of N interleaved rounds).',
    'CPU µs/req is the server process CPU (inside the child) ÷ requests it served: the robust figure on a busy machine.',
  ];
  const spread = m.rounds > 1;
  for (const c of report.cases) {
    const r = ratios(c);
    const rows = [['path', 'CPU µs/req', ...(spread ? ['min–max'] : []), '× floor', 'req/s', 'p50 ms', 'p99 ms', 'RSS MB', 'client µs/req', 'errors']];
    for (const p of PATHS) {
      const x = c.paths[p];
      rows.push([
        PATH_LABELS[p],
        fmt(x.serverCpuUsPerRequest, 0),
        ...(spread ? [roundsRange(x)] : []),
        p === 'floor' ? '1.00' : fmt(r[p], 2),
        fmt(x.rps, 0),
        fmt(x.p50Ms, 2),
        fmt(x.p99Ms, 2),
        fmt(x.rssMb, 0),
        fmt(x.clientCpuUsPerRequest, 0),
        String(x.errors),
      ]);
    }
    out.push(
      '',
      `${c.name}: ${(c.requestBytes / 1024).toFixed(1)} KiB request, ${c.children} observed children, ${(c.answerBytes / 1024).toFixed(1)} KiB answer`,
      table(rows),
    );
  }
  if (report.scale.length) {
    const rows = [['case', 'request KiB', 'CPU µs/req', `×N request KiB`, '×N CPU µs/req', 'cost ×']];
    for (const s of report.scale)
      rows.push([
        `${s.name} (N=${s.factor})`,
        fmt(s.base.requestBytes / 1024, 1),
        fmt(s.base.cpuUsPerRequest, 0),
        fmt(s.scaled.requestBytes / 1024, 1),
        fmt(s.scaled.cpuUsPerRequest, 0),
        fmt(s.scaled.cpuUsPerRequest / s.base.cpuUsPerRequest, 2),
      ]);
    out.push('', 'scale (distinct requests):', table(rows));
  }
  if (report.soak)
    out.push(
      '',
      `soak: ${report.soak.requests} mixed requests (${report.soak.errors} errors), then RSS ${fmt(report.soak.rssMb, 1)} MB, heap used ${fmt(report.soak.heapUsedMb, 1)} of ${fmt(report.soak.heapTotalMb, 1)} MB, external ${fmt(report.soak.externalMb, 1)} MB; RSS by tenths ${report.soak.rssSeriesMb.map((n) => fmt(n, 0)).join(' ')}`,
    );
  for (const p of report.profiles) {
    const rows = [['self ms', 'self %', 'function', 'location'], ...p.top.map((t) => [fmt(t.selfMs, 1), fmt(t.selfPercent, 1), t.functionName, t.location])];
    out.push('', `profile ${p.file}: top self time`, table(rows.map(([a, b, c, d]) => [c as string, a as string, b as string, d as string])));
  }
  const checks = targetChecks(report);
  if (checks.length) {
    out.push('', 'targets (issue 15; reported, never a failure):');
    out.push(table(checks.map((c) => [c.target, c.measured, c.pass ? 'PASS' : 'MISS', c.note ? `(${c.note})` : ''])));
  }
  return `${out.join('\n')}\n`;
}

const round = (n: number, digits: number) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);

/** The report as JSON: figures rounded, ratios and target checks included. */
export function reportJson(report: Report): string {
  const measurement = (x: Measurement) => ({
    requests: x.requests,
    errors: x.errors,
    rps: round(x.rps, 0),
    p50Ms: round(x.p50Ms, 3),
    p99Ms: round(x.p99Ms, 3),
    serverCpuUsPerRequest: round(x.serverCpuUsPerRequest, 1),
    clientCpuUsPerRequest: round(x.clientCpuUsPerRequest, 1),
    rssMb: round(x.rssMb, 1),
    ...(x.cpuUsPerRequestRounds ? { cpuUsPerRequestRounds: x.cpuUsPerRequestRounds.map((v) => round(v, 1)) } : {}),
  });
  return `${JSON.stringify(
    {
      meta: report.meta,
      cases: report.cases.map((c) => ({
        ...c,
        paths: Object.fromEntries(PATHS.map((p) => [p, measurement(c.paths[p])])),
        ratios: Object.fromEntries(Object.entries(ratios(c)).map(([k, v]) => [k, round(v, 3)])),
      })),
      scale: report.scale,
      ...(report.soak ? { soak: report.soak } : {}),
      profiles: report.profiles,
      targets: targetChecks(report),
    },
    null,
    2,
  )}\n`;
}

/** RSS growth over the second half of a soak: the highest of its tenths from the fifth on, less the fifth. */
export function soakGrowthMb(soak: SoakResult): number {
  const half = soak.rssSeriesMb.slice(Math.floor(soak.rssSeriesMb.length / 2) - 1);
  return half.length < 2 ? NaN : Math.max(...half) - (half[0] as number);
}
