/**
 * `npm run bench`: our hook server against the floor of any Node HTTP server (bare node:http
 * that reads the body, JSON.parses it and writes a fixed answer of the same size), on realistic
 * sync requests of every composition (bench/requests/), over loopback, on three paths:
 *
 *   distinct     every request different (another parent generation): the answer cache misses
 *   identical    the same bytes again (a resync with nothing changed): the answer cache hits
 *   304          the same bytes with If-None-Match of the answer's ETag: 304, no body
 *
 * Each server runs in a child process; this process is the load generator. The robust figure
 * is the server's CPU per request (process.cpuUsage() inside the child ÷ requests it served);
 * ratios are floor ÷ ours of it. Each case's paths are measured `--rounds` times, interleaved, and
 * the median round of each is reported (report.ts medianRound). See bench/args.ts (`--help`).
 */
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBenchArgs, type BenchOptions, USAGE } from './args.js';
import { requestBodies, type RequestBodies } from './bodies.js';
import { transpileServer } from './compile.js';
import { cores, cpuModel, load1m, revision } from './env.js';
import { hookProfile } from './hook-profile.js';
import { measuredServerEnv } from './malloc-env.js';
import { measure, pin, post, ServerChild, type Shot, soak } from './load.js';
import { shippedNodeFlags } from './node-flags.js';
import { type BenchCase, scaled, selectCases } from './requests/index.js';
import {
  type CaseResult,
  formatReport,
  type Measurement,
  medianRound,
  PATH_LABELS,
  PATHS,
  type PathName,
  type Report,
  reportJson,
  type ScaleResult,
  table,
} from './report.js';

/** Requests per case and path sent before the first measurement (see bench()). */
const WARMUP_REQUESTS = 300;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = (line: string) => process.stderr.write(`${line}\n`);

interface Prepared {
  bodies: RequestBodies;
  etag: string;
  answerBytes: number;
  floorPath: string;
}

/** One request of each kind before anything is timed: ours answers 200 with children and an ETag, then 304. */
async function prepare(ours: ServerChild, c: BenchCase): Promise<Prepared & { answer: string }> {
  const bodies = requestBodies(c);
  const agent = new http.Agent({ keepAlive: false });
  const first = await post(agent, ours.port, { path: bodies.path, body: bodies.identical, expect: 200 }, true);
  if (first.status !== 200) throw new Error(`${c.name}: ours answered ${first.status}: ${first.body.slice(0, 500)}`);
  const answer = JSON.parse(first.body) as { children?: unknown[]; status?: { conditions?: { type: string; status: string; reason: string }[] } };
  if (!answer.children?.length) throw new Error(`${c.name}: ours answered no children`);
  const readyCondition = answer.status?.conditions?.find((x) => x.type === 'Ready');
  if (readyCondition?.status !== 'True')
    throw new Error(`${c.name}: the request is not a steady state (Ready ${readyCondition?.status}: ${readyCondition?.reason})`);
  const etag = first.headers.etag;
  if (!etag) throw new Error(`${c.name}: ours answered without an ETag`);
  const again = await post(agent, ours.port, { path: bodies.path, body: bodies.identical, headers: { 'if-none-match': etag }, expect: 304 });
  if (again.status !== 304) throw new Error(`${c.name}: If-None-Match answered ${again.status}, not 304`);
  const distinct = await post(agent, ours.port, { path: bodies.path, body: bodies.distinct(1), expect: 200 }, true);
  if (distinct.status !== 200 || distinct.headers.etag === etag) throw new Error(`${c.name}: a distinct request did not change the answer`);
  return { bodies, etag, answer: first.body, answerBytes: Buffer.byteLength(first.body), floorPath: `/floor/${c.name}` };
}

function shots(p: Prepared): Record<PathName, (i: number) => Shot> {
  const { bodies } = p;
  return {
    floor: (i) => ({ path: p.floorPath, body: bodies.distinct(i), expect: 200 }),
    distinct: (i) => ({ path: bodies.path, body: bodies.distinct(i), expect: 200 }),
    identical: () => ({ path: bodies.path, body: bodies.identical, expect: 200 }),
    notModified: () => ({ path: bodies.path, body: bodies.identical, headers: { 'if-none-match': p.etag }, expect: 304 }),
  };
}

async function bench(o: BenchOptions): Promise<Report> {
  const loadBefore = load1m();
  const n = cores();
  if (loadBefore > n - 1) log(`warning: load average ${loadBefore} on ${n} cores: the machine is busy; CPU µs/request is the figure to trust`);
  const pinned = o.pin && n >= 2;
  if (o.pin && !pinned) log('--pin: one core only, not pinning');
  const serverCore = n - 1;
  if (pinned) pin(process.pid, 0);

  log('building the requests from the compositions …');
  const cases = selectCases(o.only);
  log('transpiling the server for plain node …');
  const script = transpileServer(ROOT, path.join(o.outDir, 'js'));
  // Our server runs with the Deployment's node flags (its heap sizes), the floor with node's defaults.
  const nodeFlags = o.nodeFlags ?? shippedNodeFlags(ROOT);
  log(`our server's node flags: ${nodeFlags.join(' ') || '(none)'}`);
  // Both with the same allocator setting (bench/malloc-env.ts): neither falls by chance into glibc's costly mode.
  const env = measuredServerEnv(process.env);
  log(`both servers' allocator: MALLOC_TRIM_THRESHOLD_=${env.MALLOC_TRIM_THRESHOLD_ ?? '(glibc default)'}`);
  const [floor, ours] = await Promise.all([
    ServerChild.start(script, 'floor', { ...(pinned ? { core: serverCore } : {}), env }),
    ServerChild.start(script, 'ours', {
      ...(pinned ? { core: serverCore } : {}),
      env,
      execArgv: [...nodeFlags, ...(o.profile ? ['--enable-source-maps'] : [])],
    }),
  ]);
  const load = { concurrency: o.concurrency, warmupS: o.warmupS, durationS: o.durationS, minRequests: o.quick ? 30 : 200 };

  const prepared = new Map<string, Prepared>();
  for (const c of cases) {
    const p = await prepare(ours, c);
    await floor.setAnswers({ [p.floorPath]: p.answer });
    prepared.set(c.name, p);
  }
  // Every path of every case once through both servers before anything is measured, so the
  // first case measured does not pay alone for the JIT compiling the shared code (the cached
  // and 304 paths are the same code for every composition).
  const warmups = o.quick ? 20 : WARMUP_REQUESTS;
  log(`warming both servers up: ${warmups} requests per case and path …`);
  for (const c of cases) {
    const next = shots(prepared.get(c.name) as Prepared);
    for (const way of PATHS) await soak(way === 'floor' ? floor : ours, next[way], warmups, o.concurrency);
  }

  const profiles: Report['profiles'] = [];
  if (o.profile) mkdirSync(o.outDir, { recursive: true });
  const results: CaseResult[] = [];
  for (const c of cases) {
    const p = prepared.get(c.name) as Prepared;
    const next = shots(p);
    // Round by round, every path in turn (not each path N times in a row): a busy spell on the
    // machine then falls on the floor and ours alike, and the median round leaves it out.
    const rounds = Object.fromEntries(PATHS.map((way) => [way, [] as Measurement[]])) as Record<PathName, Measurement[]>;
    for (let round = 1; round <= o.rounds; round++) {
      for (const way of PATHS) {
        log(`  ${c.name}: ${PATH_LABELS[way]}${o.rounds > 1 ? `, round ${round}/${o.rounds}` : ''} …`);
        // The first round only: the profiler's own cost would otherwise be in every round's figure.
        const profiled = o.profile && way !== 'floor' && round === 1;
        if (profiled) await ours.startProfile();
        rounds[way].push(await measure(way === 'floor' ? floor : ours, next[way], load));
        if (profiled) profiles.push(await ours.stopProfile(path.resolve(o.outDir, `server-${c.name.replace('/', '-')}-${way}.cpuprofile`), ROOT));
      }
    }
    const paths = Object.fromEntries(PATHS.map((way) => [way, medianRound(rounds[way])])) as Record<PathName, Measurement>;
    results.push({ name: c.name, requestBytes: p.bodies.bytes, answerBytes: p.answerBytes, children: c.children, paths });
  }

  const scale: ScaleResult[] = [];
  if (o.scale) {
    const firsts = cases.filter((c, i) => cases.findIndex((x) => x.composition === c.composition) === i);
    for (const c of firsts) {
      const big = scaled(c, o.scaleFactor);
      const p = await prepare(ours, big);
      log(`  ${big.name}: distinct, and ${c.name} again …`);
      const base = prepared.get(c.name) as Prepared;
      const baseM = await measure(ours, shots(base).distinct, load);
      const bigM = await measure(ours, shots(p).distinct, load);
      scale.push({
        name: c.name,
        factor: o.scaleFactor,
        base: { requestBytes: base.bodies.bytes, cpuUsPerRequest: baseM.serverCpuUsPerRequest },
        scaled: { requestBytes: p.bodies.bytes, cpuUsPerRequest: bigM.serverCpuUsPerRequest },
      });
    }
  }

  let soakResult: Report['soak'];
  if (o.soak) {
    log(`  soak: ${o.soakRequests} mixed requests over ${cases.length} cases, on a fresh server …`);
    // A server of its own: what it holds after the soak, not what the earlier scenarios
    // (the --scale ones send 10× requests) left in its heap.
    const soaked = await ServerChild.start(script, 'ours', { ...(pinned ? { core: serverCore } : {}), execArgv: nodeFlags });
    const all: Record<PathName, (i: number) => Shot>[] = [];
    for (const c of cases) all.push(shots({ ...(await prepare(soaked, c)), floorPath: '' }));
    const mixed = ['distinct', 'identical', 'notModified'] as const;
    const shot = (i: number) => (all[i % all.length] as Record<PathName, (i: number) => Shot>)[mixed[Math.floor(i / all.length) % 3] as PathName](i);
    const mb = (bytes: number) => Number((bytes / 2 ** 20).toFixed(1));
    let errors = 0;
    const rssSeriesMb: number[] = [];
    let stats = await soaked.stats();
    // In tenths, so the report shows whether RSS stays flat once the answer cache is full.
    for (let tenth = 0, done = 0; tenth < 10; tenth++) {
      const count = Math.round((o.soakRequests * (tenth + 1)) / 10) - done;
      const offset = done;
      errors += await soak(soaked, (i) => shot(offset + i), count, o.concurrency);
      done += count;
      stats = await soaked.stats();
      rssSeriesMb.push(mb(stats.rss));
    }
    soakResult = {
      requests: o.soakRequests,
      errors,
      rssMb: mb(stats.rss),
      heapUsedMb: mb(stats.heapUsed),
      heapTotalMb: mb(stats.heapTotal),
      externalMb: mb(stats.external),
      rssSeriesMb,
    };
    await soaked.stop();
  }

  await Promise.all([floor.stop(), ours.stop()]);

  return {
    meta: {
      revision: revision(),
      node: process.version,
      cpu: cpuModel(),
      cores: n,
      loadAverage: { before: loadBefore, after: load1m() },
      pinned,
      nodeFlags,
      mallocTrimThreshold: env.MALLOC_TRIM_THRESHOLD_,
      concurrency: o.concurrency,
      durationS: o.durationS,
      warmupS: o.warmupS,
      quick: o.quick,
      rounds: o.rounds,
    },
    cases: results,
    scale,
    ...(soakResult ? { soak: soakResult } : {}),
    profiles,
  };
}

async function main(): Promise<void> {
  const o = parseBenchArgs(process.argv.slice(2));
  if (o === 'help') return void process.stdout.write(`${USAGE}\n`);
  if (o.hookProfile !== undefined) {
    const c = selectCases([o.hookProfile])[0] as BenchCase;
    log(`profiling ${c.name} in-process: ${o.iterations} syncs …`);
    const r = await hookProfile(c, o.iterations, o.outDir);
    if (o.json)
      return void process.stdout.write(
        `${JSON.stringify({ revision: revision(), node: process.version, cpu: cpuModel(), loadAverage: load1m(), ...r }, null, 2)}\n`,
      );
    process.stdout.write(
      `${c.name}: ${r.iterations} × (JSON.parse, parse request, sync, JSON.stringify) in-process, ${r.cpuUsPerSync.toFixed(0)} µs CPU each (revision ${revision()}, node ${process.version}, load ${load1m()})\n` +
        `profile: ${r.file}\n${table([['function', 'self ms', 'self %', 'location'], ...r.top.map((t) => [t.functionName, t.selfMs.toFixed(1), t.selfPercent.toFixed(1), t.location])])}\n`,
    );
    return;
  }
  const report = await bench(o);
  process.stdout.write(o.json ? reportJson(report) : formatReport(report));
  const errors = report.cases.flatMap((c) => PATHS.map((p) => c.paths[p].errors)).reduce((a, b) => a + b, 0) + (report.soak?.errors ?? 0);
  if (errors > 0) {
    log(`bench: ${errors} requests failed`);
    process.exitCode = 1;
  }
}

main().then(
  () => process.exit(),
  (err: unknown) => {
    process.stderr.write(`bench: ${(err as Error).message}\n`);
    process.exit(2);
  },
);
