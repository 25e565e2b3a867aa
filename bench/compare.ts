/**
 * `npm run bench:compare -- --against DIR`: the cached paths (identical, 304) of this checkout's
 * server and of another checkout's (a `git worktree add` of an older commit), measured at the
 * same time: in each round both servers take the same load side by side (8 keep-alive
 * connections each), so a busy spell on a shared machine falls on both alike. Reports each side's
 * median server CPU µs per request and the median of the per-round ratios (this ÷ that): the
 * figure docs/development.md ("express") gives. Each server is the checkout's own
 * bench/server.ts and hooks/, transpiled (bench/compile.ts), with this checkout's node flags.
 */
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { requestBodies } from './bodies.js';
import { parseCompareArgs, type CompareOptions, compareTable, COMPARE_USAGE, type CompareResult, type ComparedPath } from './compare-report.js';
import { transpileServer } from './compile.js';
import { measure, post, ServerChild, type Shot, soak } from './load.js';
import { measuredServerEnv } from './malloc-env.js';
import { shippedNodeFlags } from './node-flags.js';
import { selectCases } from './requests/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = (line: string) => process.stderr.write(`${line}\n`);

async function compare(o: CompareOptions): Promise<CompareResult[]> {
  const flags = shippedNodeFlags(ROOT);
  const env = measuredServerEnv(process.env);
  const sides = [
    { label: 'this', root: ROOT },
    { label: 'that', root: path.resolve(o.against) },
  ];
  const servers = await Promise.all(
    sides.map(async ({ label, root }) => {
      const script = transpileServer(root, path.join(o.outDir, label));
      return ServerChild.start(script, 'ours', { env, execArgv: flags });
    }),
  );
  const load = { concurrency: Math.max(1, Math.floor(o.concurrency / 2)), warmupS: o.warmupS, durationS: o.durationS, minRequests: 200 };
  const results: CompareResult[] = [];
  try {
    for (const c of selectCases(o.only)) {
      const bodies = requestBodies(c);
      // Each server's own ETag: the two may answer differently.
      const shots = await Promise.all(
        servers.map(async (s, i) => {
          const first = await post(new http.Agent({ keepAlive: false }), s.port, { path: bodies.path, body: bodies.identical, expect: 200 }, true);
          const etag = first.headers.etag;
          if (first.status !== 200 || !etag) throw new Error(`${sides[i]?.label} (${sides[i]?.root}): ${c.name} answered ${first.status} without an ETag`);
          const next: Record<ComparedPath, () => Shot> = {
            identical: () => ({ path: bodies.path, body: bodies.identical, expect: 200 }),
            notModified: () => ({ path: bodies.path, body: bodies.identical, headers: { 'if-none-match': etag }, expect: 304 }),
          };
          for (const way of ['identical', 'notModified'] as const) await soak(s, next[way], 300, load.concurrency);
          return next;
        }),
      );
      const rounds: CompareResult['rounds'] = { identical: { this: [], that: [] }, notModified: { this: [], that: [] } };
      for (let round = 1; round <= o.rounds; round++) {
        for (const way of ['identical', 'notModified'] as const) {
          const [mine, theirs] = await Promise.all(servers.map((s, i) => measure(s, shots[i]?.[way] as () => Shot, load)));
          if (!mine || !theirs || mine.errors || theirs.errors) throw new Error(`${c.name} ${way}: failed requests`);
          rounds[way].this.push(mine.serverCpuUsPerRequest);
          rounds[way].that.push(theirs.serverCpuUsPerRequest);
        }
        log(`  ${c.name}: round ${round}/${o.rounds}, load ${(os.loadavg()[0] ?? 0).toFixed(1)}`);
      }
      results.push({ name: c.name, rounds });
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
  return results;
}

const parsed = parseCompareArgs(process.argv.slice(2));
if (parsed === 'help') {
  process.stdout.write(`${COMPARE_USAGE}\n`);
} else {
  const loadBefore = os.loadavg()[0] ?? 0;
  const results = await compare(parsed);
  const loadAfter = os.loadavg()[0] ?? 0;
  if (parsed.json) process.stdout.write(`${JSON.stringify({ against: parsed.against, load: [loadBefore, loadAfter], results }, null, 2)}\n`);
  else {
    process.stdout.write(
      `this: ${ROOT}\nthat: ${path.resolve(parsed.against)}\nload average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)} on ${os.cpus().length} cores; ${parsed.rounds} rounds of ${parsed.durationS} s, both servers at once\n\n`,
    );
    process.stdout.write(`${compareTable(results)}\n`);
  }
}
