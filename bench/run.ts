/**
 * `npm run bench`: the hook server against the floor of any Node HTTP server, on the same
 * realistic TrustyAIService sync request (bench/request.ts), over loopback.
 *
 *   floor           bare node:http: read the body, JSON.parse, JSON.stringify it back
 *   ours, distinct  the express app, every request different (the answer cache misses)
 *   ours, cached    the express app, the same request over and over (a resync: cache hits)
 *
 * Each server runs in a child process; this process is the load generator: N concurrent
 * keep-alive connections, each sending its next request as soon as the previous answer
 * arrives, for a fixed time after a warm-up. About 25 s in all with the defaults.
 *
 *   npm run bench -- [--duration 5] [--warmup 1] [--concurrency 16]
 */
import { type ChildProcess, fork } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { requestBodies } from './request.js';
import type { ServerKind, ToParent } from './server.js';

const { values: opts } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '16' },
  },
});
const DURATION_S = bounded(opts.duration, 'duration', 0.5, 30);
const WARMUP_S = bounded(opts.warmup, 'warmup', 0, 10);
const CONCURRENCY = Math.round(bounded(opts.concurrency, 'concurrency', 1, 256));
const REQUEST_TIMEOUT_MS = 10_000;
const MAX_SAMPLES = 1 << 21;
const HOOK_PATH = '/hooks/trustyai/sync';

function bounded(text: string, name: string, min: number, max: number): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} must be a number from ${min} to ${max}, got ${text}`);
  return n;
}

interface Target {
  kind: ServerKind;
  child: ChildProcess;
  port: number;
}

interface Result {
  requests: number;
  errors: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  serverCpuUsPerRequest: number;
  clientCpuUsPerRequest: number;
}

const children: ChildProcess[] = [];
process.on('exit', () => children.forEach((c) => c.kill()));

function start(kind: ServerKind): Promise<Target> {
  const child = fork(path.join(path.dirname(fileURLToPath(import.meta.url)), 'server.ts'), [kind], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${kind} server did not start within 20 s`)), 20_000);
    child.once('exit', (code) => reject(new Error(`${kind} server exited (${code}) before listening`)));
    child.once('message', (m: ToParent) => {
      clearTimeout(timer);
      if ('port' in m) resolve({ kind, child, port: m.port });
      else reject(new Error(`${kind} server: unexpected first message`));
    });
  });
}

function serverCpu(target: Target): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (m: ToParent) => {
      if (!('cpu' in m)) return;
      target.child.off('message', onMessage);
      resolve(m.cpu.user + m.cpu.system);
    };
    target.child.on('message', onMessage);
    target.child.send('cpu');
  });
}

function post(agent: http.Agent, port: number, body: Buffer, keepBody = false): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, host: '127.0.0.1', port, method: 'POST', path: HOOK_PATH, headers: { 'content-type': 'application/json', 'content-length': body.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => keepBody && chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: keepBody ? Buffer.concat(chunks).toString('utf8') : '' }));
        res.on('error', reject);
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

let sequence = 1;

/** Warm-up, then counts the answers that arrive within the measured window. */
async function load(target: Target, bodyFor: (i: number) => Buffer): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const latencies = new Float64Array(MAX_SAMPLES);
  let samples = 0;
  let requests = 0;
  let errors = 0;
  const t0 = performance.now();
  const measureFrom = t0 + WARMUP_S * 1000;
  const measureTo = measureFrom + DURATION_S * 1000;
  let cpuBefore = 0;
  let clientBefore = process.cpuUsage();
  const cpuAtStart = new Promise<void>((resolve) =>
    setTimeout(() => {
      clientBefore = process.cpuUsage();
      void serverCpu(target).then((c) => ((cpuBefore = c), resolve()));
    }, WARMUP_S * 1000),
  );

  const worker = async () => {
    while (performance.now() < measureTo) {
      const body = bodyFor(sequence++);
      const sent = performance.now();
      let ok = false;
      try {
        ok = (await post(agent, target.port, body)).status === 200;
      } catch {
        ok = false;
      }
      const done = performance.now();
      if (sent < measureFrom || done >= measureTo) continue;
      if (!ok) errors++;
      requests++;
      if (samples < MAX_SAMPLES) latencies[samples++] = done - sent;
    }
  };
  await Promise.all([...Array.from({ length: CONCURRENCY }, worker), cpuAtStart]);
  const client = process.cpuUsage(clientBefore);
  const cpuAfter = await serverCpu(target);
  agent.destroy();

  const sorted = latencies.subarray(0, samples).sort();
  const at = (q: number) => (samples === 0 ? NaN : (sorted[Math.min(samples - 1, Math.floor(q * samples))] as number));
  return {
    requests,
    errors,
    rps: requests / DURATION_S,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    serverCpuUsPerRequest: requests === 0 ? NaN : (cpuAfter - cpuBefore) / requests,
    clientCpuUsPerRequest: requests === 0 ? NaN : (client.user + client.system) / requests,
  };
}

/** One request each, before anything is timed: both answer 200, ours with the four children. */
async function check(floor: Target, ours: Target, body: Buffer): Promise<{ floorAnswer: number; oursAnswer: number }> {
  const agent = new http.Agent({ keepAlive: false });
  const [f, o] = [await post(agent, floor.port, body, true), await post(agent, ours.port, body, true)];
  if (f.status !== 200 || JSON.parse(f.body) === null) throw new Error(`floor answered ${f.status}`);
  if (o.status !== 200) throw new Error(`ours answered ${o.status}: ${o.body.slice(0, 500)}`);
  const answer = JSON.parse(o.body) as { children?: { kind: string }[] };
  const kinds = (answer.children ?? []).map((c) => c.kind).sort().join(',');
  if (kinds !== 'ConfigMap,Deployment,PersistentVolumeClaim,Service') throw new Error(`ours answered unexpected children: ${kinds}`);
  return { floorAnswer: Buffer.byteLength(f.body), oursAnswer: Buffer.byteLength(o.body) };
}

const fmt = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

async function main(): Promise<void> {
  const bodies = requestBodies();
  const cores = os.availableParallelism();
  const loadBefore = os.loadavg()[0] as number;
  // The servers and this generator need a core each; other work on the machine skews the figures.
  if (loadBefore > cores - 1) process.stderr.write(`warning: load average ${loadBefore.toFixed(1)} on ${cores} cores: the machine is busy, expect noisy figures\n`);
  const [floor, ours] = await Promise.all([start('floor'), start('ours')]);
  const sizes = await check(floor, ours, bodies.identical);

  const scenarios: [string, string, Target, (i: number) => Buffer][] = [
    ['floor', 'bare node:http (floor)', floor, bodies.distinct],
    ['oursDistinct', 'ours, distinct requests', ours, bodies.distinct],
    ['oursCached', 'ours, identical (cached)', ours, () => bodies.identical],
  ];
  process.stdout.write(
    `trustyai sync: ${(bodies.bytes / 1024).toFixed(1)} KiB request (answers: ours ${(sizes.oursAnswer / 1024).toFixed(1)} KiB, floor echoes ${(sizes.floorAnswer / 1024).toFixed(1)} KiB), ` +
      `${CONCURRENCY} concurrent keep-alive connections, ${DURATION_S} s after ${WARMUP_S} s warm-up, loopback\n\n`,
  );
  const results: Record<string, Result> = {};
  for (const [key, label, target, bodyFor] of scenarios) {
    process.stderr.write(`  ${label} …\n`);
    results[key] = await load(target, bodyFor);
  }

  const floorRps = (results.floor as Result).rps;
  const ratios = { oursDistinct: (results.oursDistinct as Result).rps / floorRps, oursCached: (results.oursCached as Result).rps / floorRps };
  const rows = [['scenario', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'client CPU µs/req', '× floor', 'errors']];
  for (const [key, label] of scenarios) {
    const r = results[key] as Result;
    rows.push([label, fmt(r.rps, 0), fmt(r.p50Ms, 2), fmt(r.p99Ms, 2), fmt(r.serverCpuUsPerRequest, 0), fmt(r.clientCpuUsPerRequest, 0), fmt(r.rps / floorRps, 2), String(r.errors)]);
  }
  const widths = (rows[0] as string[]).map((_, i) => Math.max(...rows.map((r) => (r[i] as string).length)));
  for (const row of rows) process.stdout.write(`${row.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ')}\n`);
  process.stdout.write(
    `\ngoal (DESIGN.md): distinct ≥ 0.80× floor: ${ratios.oursDistinct >= 0.8 ? 'met' : 'NOT met'}; cached > floor: ${ratios.oursCached > 1 ? 'met' : 'NOT met'}\n`,
  );
  const round = (r: Result) => ({ ...r, rps: Math.round(r.rps), p50Ms: +r.p50Ms.toFixed(3), p99Ms: +r.p99Ms.toFixed(3), serverCpuUsPerRequest: Math.round(r.serverCpuUsPerRequest), clientCpuUsPerRequest: Math.round(r.clientCpuUsPerRequest) });
  process.stdout.write(
    `${JSON.stringify({
      bench: 'trustyai-sync',
      requestBytes: bodies.bytes,
      answerBytes: { ours: sizes.oursAnswer, floor: sizes.floorAnswer },
      concurrency: CONCURRENCY,
      durationS: DURATION_S,
      warmupS: WARMUP_S,
      node: process.version,
      cores,
      loadAverage1m: { before: +loadBefore.toFixed(2), after: +(os.loadavg()[0] as number).toFixed(2) },
      results: Object.fromEntries(Object.entries(results).map(([k, r]) => [k, round(r)])),
      ratios: { oursDistinct: +ratios.oursDistinct.toFixed(3), oursCached: +ratios.oursCached.toFixed(3) },
    })}\n`,
  );
  if (Object.values(results).some((r) => r.errors > 0)) process.exitCode = 1;
}

main().then(
  () => process.exit(),
  (err: unknown) => {
    process.stderr.write(`bench: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(2);
  },
);
