/**
 * `npm run bench:plan [-- --parents N]`: `modelhooks plan` on a dump of N parents (default 5,000)
 * and their children, on one core (taskset -c 0). Target (issue 34): under 30 s and under 1 GB.
 * The dump is made here from the examples (each example parent copied under new names into 100
 * namespaces, settled by the simulated cluster of test/support/plan-cluster.ts) and kept in
 * .cache/bench-plan/ for the next run. Reports wall seconds, CPU seconds and the peak RSS
 * (`/usr/bin/time -f`); never fails on time (a benchmark, not a timed test) — over target is marked.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { readObjects } from '../hooks/cli/render.js';
import type { KubeObject } from '../hooks/kit/types.js';
import { simulateCluster } from '../test/support/plan-cluster.js';
import { cores, load1m, revision } from './env.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_S = 30;
const TARGET_MB = 1024;
const NAMESPACES = 100;

const { values } = parseArgs({ options: { parents: { type: 'string', default: '5000' } } });
const count = Number(values.parents);
if (!Number.isInteger(count) || count < 1) throw new Error(`--parents must be a positive integer, got ${values.parents}`);

const example = (f: string) => readObjects(path.join(ROOT, 'examples', f));

/** N parents: the examples' five kinds in turn, renamed `<name>-<i>`, spread over 100 namespaces with what each needs. */
function makeDump(n: number): KubeObject[] {
  const templates = ['inferenceservice.yaml', 'trustyai.yaml', 'tfserv.yaml', 'mlmodel.yaml', 'inferencegraph.yaml'].map((f) => example(f)[0] as KubeObject);
  const namespaceOf = (i: number) => `team-${i % NAMESPACES}`;
  const parents = Array.from({ length: n }, (_, i) => {
    const t = templates[i % templates.length] as KubeObject;
    return { ...structuredClone(t), metadata: { ...t.metadata, name: `${t.metadata.name}-${i}`, namespace: namespaceOf(i) } };
  });
  const others: KubeObject[] = [];
  for (let k = 0; k < Math.min(n, NAMESPACES); k++) {
    const ns = namespaceOf(k);
    others.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { team: String(k) } } });
    for (const o of [...example('tfserv-configmap.yaml'), ...example('servingruntime.yaml')]) others.push({ ...o, metadata: { ...o.metadata, namespace: ns } });
    others.push({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'storage-config', namespace: ns },
      data: { key: Buffer.from(`secret-${k}`).toString('base64') },
    });
  }
  return simulateCluster(parents, others);
}

const dir = path.join(ROOT, '.cache/bench-plan');
const file = path.join(dir, `dump-${count}.yaml`);
if (!existsSync(file)) {
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  process.stderr.write(`bench:plan: making a dump of ${count} parents (once; kept in ${path.relative(ROOT, file)}) …\n`);
  const objects = makeDump(count);
  writeFileSync(file, stringify({ apiVersion: 'v1', kind: 'List', items: objects }, { lineWidth: 0 }));
  process.stderr.write(`bench:plan: ${objects.length} objects in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

const tsx = path.join(ROOT, 'node_modules/tsx/dist/esm/index.mjs');
const run = spawnSync(
  '/usr/bin/time',
  ['-f', 'time %e %U %S %M', 'taskset', '-c', '0', process.execPath, '--import', tsx, path.join(ROOT, 'hooks/cli/main.ts'), 'plan', file, '-o', 'json'],
  { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 30 },
);
const timing = /time ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(run.stderr);
if (!timing || (run.status !== 0 && run.status !== 2)) {
  process.stderr.write(run.stderr);
  throw new Error(`plan exited ${run.status}`);
}
const [wall, user, sys, rssKb] = timing.slice(1).map(Number) as [number, number, number, number];
const report = JSON.parse(run.stdout) as { summary: { parents: number; changed: number; failing: number } };
const rssMb = rssKb / 1024;
const mark = (over: boolean) => (over ? '  OVER TARGET' : '');
process.stdout.write(
  [
    `bench:plan (${revision()}, ${cores()} cores, load ${load1m()}, run on one core):`,
    `  dump            ${path.relative(ROOT, file)}: ${report.summary.parents} parents (changed ${report.summary.changed}, failing ${report.summary.failing}), exit ${run.status}`,
    `  wall            ${wall.toFixed(1)} s (target < ${TARGET_S} s)${mark(wall >= TARGET_S)}`,
    `  cpu             ${(user + sys).toFixed(1)} s (user ${user.toFixed(1)}, system ${sys.toFixed(1)})`,
    `  peak RSS        ${rssMb.toFixed(0)} MB (target < ${TARGET_MB} MB)${mark(rssMb >= TARGET_MB)}`,
  ].join('\n') + '\n',
);
