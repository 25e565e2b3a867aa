/** `npm run bench:compare`: its options, and the medians and ratios it reports (pure: tested in test/bench/). */
import { parseArgs } from 'node:util';
import { table } from './report.js';

export type ComparedPath = 'identical' | 'notModified';

export interface CompareOptions {
  /** The other checkout (its bench/server.ts and hooks/ are transpiled and served). */
  against: string;
  only: string[];
  rounds: number;
  durationS: number;
  warmupS: number;
  /** Keep-alive connections, shared between the two servers. */
  concurrency: number;
  outDir: string;
  json: boolean;
}

export interface CompareResult {
  name: string;
  /** Server CPU µs per request of each round, this checkout's and the other's, measured at the same time. */
  rounds: Record<ComparedPath, { this: number[]; that: number[] }>;
}

export const COMPARE_USAGE = `usage: npm run bench:compare -- --against DIR [options]
  --against DIR   another checkout of modelhooks (git worktree add DIR <commit>; node_modules linked)
  --only LIST     compositions or cases (default mlmodel/serving,tfserv/three-models,trustyai/database,inferenceservice/hf-llm)
  --rounds N      rounds, both servers measured at once in each (1-31; default 9)
  --duration S    measured seconds per round and path (default 1.5)
  --warmup S      warm-up seconds before each measurement (default 0.5)
  --concurrency N keep-alive connections, half to each server (default 16)
  --out DIR       where the transpiled servers go (default .cache/bench-compare)
  --json          the rounds as JSON
  --help`;

const DEFAULT_ONLY = ['mlmodel/serving', 'tfserv/three-models', 'trustyai/database', 'inferenceservice/hf-llm'];

function number(text: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} must be a number from ${min} to ${max}, got "${text}"`);
  return n;
}

export function parseCompareArgs(argv: string[]): CompareOptions | 'help' {
  const { values: v } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      against: { type: 'string' },
      only: { type: 'string' },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      concurrency: { type: 'string' },
      out: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (v.help) return 'help';
  if (!v.against) throw new Error('--against DIR is required: the checkout to compare with');
  const only = (v.only ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    against: v.against,
    only: only.length ? only : DEFAULT_ONLY,
    rounds: Math.round(number(v.rounds, 'rounds', 1, 31, 9)),
    durationS: number(v.duration, 'duration', 0.1, 120, 1.5),
    warmupS: number(v.warmup, 'warmup', 0, 30, 0.5),
    concurrency: Math.round(number(v.concurrency, 'concurrency', 2, 256, 16)),
    outDir: v.out ?? '.cache/bench-compare',
    json: v.json,
  };
}

/** The lower median (a real round for an even count). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('median: no values');
  return [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] as number;
}

/**
 * Each side's median, and the median of the per-round ratios this ÷ that: both servers ran in
 * the same window, so a round's ratio cancels the load of that moment.
 */
export function summary(rounds: { this: number[]; that: number[] }): { this: number; that: number; ratio: number } {
  if (rounds.this.length !== rounds.that.length) throw new Error('summary: the sides have different round counts');
  return { this: median(rounds.this), that: median(rounds.that), ratio: median(rounds.this.map((x, i) => x / (rounds.that[i] as number))) };
}

export function compareTable(results: readonly CompareResult[]): string {
  const rows = [['case', 'path', 'that µs/req', 'this µs/req', 'this ÷ that (median of rounds)', 'rounds this/that']];
  for (const r of results)
    for (const way of ['identical', 'notModified'] as const) {
      const s = summary(r.rounds[way]);
      const spread = r.rounds[way].this.map((x, i) => `${x.toFixed(0)}/${(r.rounds[way].that[i] as number).toFixed(0)}`).join(' ');
      rows.push([r.name, way === 'identical' ? 'identical' : '304', s.that.toFixed(0), s.this.toFixed(0), `${s.ratio.toFixed(2)}×`, spread]);
    }
  return table(rows);
}
