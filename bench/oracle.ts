/**
 * `npm run bench:oracle [-- --parents 300 --namespaces 10]`: the same InferenceServices under
 * KServe v0.20.0's own manager (the oracle tier's cluster: test/oracle/support/cluster.ts) and
 * under Metacontroller + modelhooks (`npm run bench:live`, the live tier's cluster), one after the
 * other on this machine, side by side:
 *
 *   - the time from the first create until every child exists (KServe) and every parent is Ready;
 *   - CPU seconds and peak RSS of the controller: KServe's manager against Metacontroller + the hook
 *     server (from /proc);
 *   - API requests of the run (kube-apiserver's apiserver_request_total, every client).
 *
 * KServe's side runs first; bench:live is then handed its figures (`KSERVE_BENCH_JSON`) and
 * prints them beside Metacontroller's in its own report: the one order in which both are
 * measured on the same machine in the same run (`.ci/run`'s live and oracle tiers run no bench).
 *
 * `--side kserve` or `--side modelhooks` runs one of them.
 * Needs what both tiers need (Go; Metacontroller's source for the modelhooks side, else that side
 * is skipped with the reason). Not a test: no thresholds. See docs/development.md, "Oracle tier".
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { KubeObject } from '../test/e2e/support/kube.js';
import { fromRoot } from '../test/e2e/support/files.js';
import { skipReason as liveSkipReason } from '../test/live/support/skip.js';
import { buildOracleBinaries, startOracleCluster } from '../test/oracle/support/cluster.js';
import { skipReason } from '../test/oracle/support/skip.js';
import { usage } from './proc.js';

const { values: args } = parseArgs({
  options: {
    parents: { type: 'string', default: '300' },
    namespaces: { type: 'string', default: '10' },
    // `kserve` or `modelhooks` runs one side only (the other is then reported as not run).
    side: { type: 'string', default: 'both' },
  },
});
const PARENTS = Number(args.parents);
const NAMESPACES = Number(args.namespaces);
const log = (line: string) => process.stderr.write(`${line}\n`);
const IS = '/apis/serving.kserve.io/v1beta1';

/** The pid of the process whose command line starts with `bin`. */
function pidOf(bin: string): number {
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')[0] === bin) return Number(entry);
    } catch {
      // gone
    }
  }
  throw new Error(`no process runs ${bin}`);
}

const ready = (o: KubeObject) =>
  ((o.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** The live tier's sample, as bench:live creates it (KServe's first sklearn sample). */
function inferenceService(name: string, namespace: string): KubeObject {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name, namespace },
    spec: { predictor: { sklearn: { storageUri: 'gs://kfserving-examples/models/sklearn/1.0/model' } } },
  };
}

async function pool<T>(items: T[], width: number, each: (t: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await each(items[next++] as T);
    }),
  );
}

async function kserveSide() {
  const build = await buildOracleBinaries();
  const oc = await startOracleCluster(build, Boolean(process.env.ORACLE_KEEP_TMP));
  try {
    const kube = oc.kube;
    const requests = async () => {
      const text = (await kube.request('GET', '/metrics')).text;
      return [...text.matchAll(/^apiserver_request_total\{[^}]*\} (\d+)/gm)].reduce((a, m) => a + Number(m[1]), 0);
    };
    const pid = pidOf(build.kserveManager);
    const namespaces = Array.from({ length: NAMESPACES }, (_, i) => `bench-${i}`);
    for (const ns of namespaces) await kube.ensureNamespace(ns);
    const names = Array.from({ length: PARENTS }, (_, i) => ({ name: `m${i}`, namespace: namespaces[i % NAMESPACES] as string }));
    const [before, requestsBefore] = [usage(pid), await requests()];
    const t0 = Date.now();
    await pool(names, 16, (n) => kube.create(inferenceService(n.name, n.namespace)));
    const created = Date.now() - t0;
    let childrenAt = 0;
    let cpuAtChildren = 0;
    for (;;) {
      await sleep(1000);
      const [list, deployments, services] = await Promise.all(
        [`${IS}/inferenceservices`, '/apis/apps/v1/deployments', '/api/v1/services'].map((u) => kube.call<{ items: KubeObject[] }>('GET', u)),
      );
      const readyCount = (list?.items ?? []).filter(ready).length;
      const owned = (items: KubeObject[] = []) => items.filter((o) => o.metadata.namespace?.startsWith('bench-')).length;
      if (!childrenAt && owned(deployments?.items) >= PARENTS && owned(services?.items) >= PARENTS) {
        childrenAt = Date.now() - t0;
        cpuAtChildren = usage(pid).cpu - before.cpu;
      }
      log(`  KServe ${((Date.now() - t0) / 1000).toFixed(0)} s: ${readyCount}/${PARENTS} Ready`);
      if (readyCount >= PARENTS) break;
      if (Date.now() - t0 > 20 * 60_000) throw new Error(`not converged after 20 minutes (${readyCount} Ready)`);
    }
    const converged = Date.now() - t0;
    const after = usage(pid);
    return {
      createSeconds: +(created / 1000).toFixed(1),
      childrenSeconds: +(childrenAt / 1000).toFixed(1),
      readySeconds: +(converged / 1000).toFixed(1),
      cpuSecondsUntilChildren: +cpuAtChildren.toFixed(1),
      cpuSecondsUntilReady: +(after.cpu - before.cpu).toFixed(1),
      cpuSecondsPerParentUntilReady: +((after.cpu - before.cpu) / PARENTS).toFixed(4),
      peakRssMiB: +(after.peakRss / 2 ** 20).toFixed(0),
      apiRequests: (await requests()) - requestsBefore,
    };
  } finally {
    await oc.stop();
  }
}

/**
 * bench:live with the same parents and namespaces and a short tail, handed KServe's figures of
 * this run (KSERVE_BENCH_JSON), so that its own report prints them beside Metacontroller's.
 */
function modelhooksSide(kserve: Record<string, unknown>): Record<string, unknown> {
  const why = liveSkipReason();
  if (why) return { skipped: why };
  const figures = join(mkdtempSync(join(tmpdir(), 'bench-oracle-')), 'kserve.json');
  writeFileSync(figures, JSON.stringify({ ...kserve, measured: 'bench:oracle, this run, before bench:live' }));
  const run = spawnSync(
    fromRoot('node_modules/.bin/tsx'),
    ['bench/live.ts', '--parents', String(PARENTS), '--namespaces', String(NAMESPACES), '--tail', '10', '--json'],
    { cwd: fromRoot(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 2 ** 20, env: { ...process.env, KSERVE_BENCH_JSON: figures } },
  );
  if (run.status !== 0) throw new Error(`bench:live failed (exit ${run.status})`);
  const r = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as {
    createSeconds: number;
    convergedSeconds: number;
    convergenceCpuSeconds: Record<string, number>;
    cpuSecondsPerParentUntilReady: Record<string, number>;
    peakRssMiB: Record<string, number>;
    syncRequests: { untilReady: number; perParentUntilReady: number; medianBytes: number };
    kserve: unknown;
  };
  return {
    createSeconds: r.createSeconds,
    readySeconds: r.convergedSeconds,
    cpuSecondsUntilReady: { metacontroller: r.convergenceCpuSeconds.metacontroller, hooks: r.convergenceCpuSeconds.hooks },
    cpuSecondsPerParentUntilReady: r.cpuSecondsPerParentUntilReady,
    peakRssMiB: { metacontroller: r.peakRssMiB.metacontroller, hooks: r.peakRssMiB.hooks },
    syncRequests: r.syncRequests.untilReady,
    syncRequestsPerParent: r.syncRequests.perParentUntilReady,
    medianSyncRequestBytes: r.syncRequests.medianBytes,
    // What bench:live printed for KServe's side: the figures above, read back (KSERVE_BENCH_JSON).
    kserveSeenByBenchLive: typeof r.kserve === 'object' && r.kserve !== null,
  };
}

async function main() {
  const why = skipReason();
  if (why) return log(`bench:oracle skipped: ${why}`);
  log(`bench:oracle: ${PARENTS} InferenceServices over ${NAMESPACES} namespaces, under KServe's manager, then under Metacontroller + modelhooks`);
  const kserve = args.side === 'modelhooks' ? { skipped: '--side modelhooks' } : await kserveSide();
  log(`  KServe: ${JSON.stringify(kserve)}`);
  const modelhooks = args.side === 'kserve' ? { skipped: '--side kserve' } : modelhooksSide(kserve);
  process.stdout.write(`${JSON.stringify({ parents: PARENTS, namespaces: NAMESPACES, kserve, modelhooks }, null, 2)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
