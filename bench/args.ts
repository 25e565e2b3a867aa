/** `npm run bench` options: parsed and checked here, without side effects (tested). */
import { parseArgs } from 'node:util';

export interface BenchOptions {
  quick: boolean;
  json: boolean;
  /** Write a CPU profile of our server child and print its top self-time functions. */
  profile: boolean;
  /** Pin the server child to one core and this process to another (taskset). */
  pin: boolean;
  /** 100,000 mixed requests, then the server's RSS. */
  soak: boolean;
  soakRequests: number;
  /** Also run each composition's first case with `scaleFactor`× the observed children. */
  scale: boolean;
  scaleFactor: number;
  /** In-process hook-only profile of this composition's first case (no HTTP), or undefined. */
  hookProfile: string | undefined;
  iterations: number;
  /**
   * Each case's four paths (floor, distinct, identical, 304) are measured this many times,
   * interleaved, and the median round of each is reported (report.ts medianRound): one
   * measurement swings ±30% between runs on a small shared machine.
   */
  rounds: number;
  /** Compositions (or `composition/case` names) to run; empty: all. */
  only: string[];
  durationS: number;
  warmupS: number;
  concurrency: number;
  /** Where .cpuprofile files go. */
  outDir: string;
  /** Node flags for our server instead of the Deployment's NODE_OPTIONS (bench/node-flags.ts). */
  nodeFlags: string[] | undefined;
}

export const USAGE = `usage: npm run bench -- [options]
  --quick             a short run of every case (CI: proves the harness works, figures are rough)
  --json              print the results as one JSON document instead of tables
  --only LIST         compositions or cases to run, comma-separated (e.g. inferenceservice,trustyai/openshift)
  --duration S        measured seconds per scenario (default 3; quick 0.3)
  --warmup S          warm-up seconds per scenario (default 1; quick 0.1)
  --concurrency N     keep-alive connections (default 16)
  --rounds N          measure each case's four paths N times interleaved, report the median round
                      (1-15; default 3, quick 1): a single measurement swings ±30% on a shared machine
  --pin               pin the server to one core and the load generator to another (taskset)
  --scale [--scale-factor N]  also each composition's first case with N× the observed children (default 10)
  --soak [--soak-requests N]  N mixed requests over every case (default 100000), then the server's RSS
  --profile           CPU profile of our server (node --cpu-prof) and its top self-time functions
  --hook-profile NAME profile NAME's first case in-process, hook only (no HTTP) [--iterations N]
  --out DIR           where .cpuprofile files go (default .cache/bench)
  --node-flags=TEXT   our server's node flags (default: the flags deploy/base/deployment.yaml gives node)
  --help`;

function number(text: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} must be a number from ${min} to ${max}, got "${text}"`);
  return n;
}

/** Parses argv (without node and the script); throws with a message naming the bad option. */
export function parseBenchArgs(argv: string[]): BenchOptions | 'help' {
  const { values: v } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      quick: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      pin: { type: 'boolean', default: false },
      soak: { type: 'boolean', default: false },
      'soak-requests': { type: 'string' },
      scale: { type: 'boolean', default: false },
      'scale-factor': { type: 'string' },
      'hook-profile': { type: 'string' },
      iterations: { type: 'string' },
      rounds: { type: 'string' },
      only: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      concurrency: { type: 'string' },
      out: { type: 'string' },
      'node-flags': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (v.help) return 'help';
  const quick = v.quick;
  return {
    quick,
    json: v.json,
    profile: v.profile,
    pin: v.pin,
    soak: v.soak,
    soakRequests: Math.round(number(v['soak-requests'], 'soak-requests', 1, 10_000_000, 100_000)),
    scale: v.scale,
    scaleFactor: Math.round(number(v['scale-factor'], 'scale-factor', 2, 100, 10)),
    hookProfile: v['hook-profile'],
    iterations: Math.round(number(v.iterations, 'iterations', 1, 10_000_000, quick ? 200 : 3000)),
    rounds: Math.round(number(v.rounds, 'rounds', 1, 15, quick ? 1 : 3)),
    only: (v.only ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    durationS: number(v.duration, 'duration', 0.1, 120, quick ? 0.3 : 3),
    warmupS: number(v.warmup, 'warmup', 0, 30, quick ? 0.1 : 1),
    concurrency: Math.round(number(v.concurrency, 'concurrency', 1, 256, 16)),
    outDir: v.out ?? '.cache/bench',
    nodeFlags: v['node-flags'] === undefined ? undefined : v['node-flags'].split(/\s+/).filter((f) => f !== ''),
  };
}
