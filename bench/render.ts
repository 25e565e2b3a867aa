/**
 * `npm run bench:render`: how long the built CLI (`node dist/hooks/cli/main.js`, what `npx
 * modelhooks` runs once installed) takes to start for `--help`, and for `render <example>`, the
 * inner loop of someone previewing desired state. Targets (issue 33): `--help` < 300 ms, a render
 * < 500 ms. Wall time on a shared machine is noisy, so each row runs `--runs` times (default 5)
 * and the median is reported with the process's user+system CPU, the steadier figure. Needs
 * `npm run build` first; `--root DIR` measures another checkout's build (a before/after). Prints
 * a table; never fails on time (benchmarks, not timed tests) — a row over target is marked.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cores, load1m, revision } from './env.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rootArg = process.argv.indexOf('--root');
const CLI_ROOT = rootArg > 0 ? path.resolve(process.argv[rootArg + 1] as string) : ROOT;
const CLI = path.join(CLI_ROOT, 'dist/hooks/cli/main.js');
const HELP_TARGET_MS = 300;
const RENDER_TARGET_MS = 500;

export interface RenderRun {
  wallMs: number;
  cpuMs: number;
}

/** The median of a non-empty list (the lower middle for an even length). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] as number;
}

function runOnce(args: string[]): RenderRun {
  // The child's CPU is read from `time`-like accounting: process.resourceUsage() cannot see a child,
  // so the child reports its own at exit on stderr.
  const started = process.hrtime.bigint();
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      'data:text/javascript,process.on("exit",()=>{const u=process.cpuUsage();process.stderr.write("\\ncpu-us "+(u.user+u.system)+"\\n")})',
      CLI,
      ...args,
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr.slice(0, 500)}`);
  const cpu = /cpu-us (\d+)/.exec(run.stderr);
  return { wallMs, cpuMs: cpu ? Number(cpu[1]) / 1000 : Number.NaN };
}

function main(): void {
  if (!existsSync(CLI)) {
    process.stderr.write('bench:render: dist/hooks/cli/main.js is missing; run `npm run build` first\n');
    process.exit(2);
  }
  const runsArg = process.argv.indexOf('--runs');
  const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
  // One example per composition (servingruntime.yaml and tfserv-configmap.yaml are related objects).
  const files = readdirSync(path.join(ROOT, 'examples'))
    .filter((f) => f.endsWith('.yaml') && !['servingruntime.yaml', 'tfserv-configmap.yaml'].includes(f))
    .map((f) => `examples/${f}`);
  const load = load1m();
  console.log(
    `the built CLI (${path.relative(ROOT, CLI) || CLI}), median of ${runs} runs · ${revision()} · Node ${process.version} · ${cores()} cores · load ${load}`,
  );
  console.log('| command | wall ms | CPU ms | target |');
  console.log('|---|---:|---:|---|');
  const rows: Array<[string[], number]> = [[['--help'], HELP_TARGET_MS], ...files.map((f): [string[], number] => [['render', f], RENDER_TARGET_MS])];
  for (const [args, target] of rows) {
    const all = Array.from({ length: runs }, () => runOnce(args));
    const wall = median(all.map((r) => r.wallMs));
    const cpu = median(all.map((r) => r.cpuMs));
    console.log(`| ${args.join(' ')} | ${wall.toFixed(0)} | ${cpu.toFixed(0)} | ${wall < target ? `< ${target} ms` : `OVER ${target} ms`} |`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
