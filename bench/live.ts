/**
 * `npm run bench:live`: the system, not the request. N InferenceServices (default 1,000) through
 * the real Metacontroller of the live tier (test/live/support/cluster.ts), spread over
 * `--namespaces` namespaces (default 20; 1 puts them all in one), and what it costs:
 *
 *   - the time from the first create until every parent is Ready;
 *   - CPU seconds and peak RSS of the hook server, Metacontroller, kube-apiserver, etcd and
 *     kube-controller-manager (from /proc);
 *   - every hook request's size, as Metacontroller sent it (a recording proxy sits between them);
 *   - at steady state (nothing changing, `--steady` seconds): hook requests per parent per minute,
 *     how they were answered (200, 304; the server's outcome counters), and the writes to the API
 *     server seen by a watch on the children and parents;
 *   - one parent's sync request alone in its namespace against the same parent's once all are there.
 *
 * Needs what the live tier needs (Go, Metacontroller's source); prints why when it can't run.
 * Not a test: no thresholds. See docs/development.md, "System figures".
 */
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Kube, type KubeObject } from '../test/e2e/support/kube.js';
import { buildLiveBinaries } from '../test/live/support/build.js';
import { compositeControllers, startLiveCluster } from '../test/live/support/cluster.js';
import { metacontrollerSrc, skipReason } from '../test/live/support/skip.js';
import { listAndWatch, type Watch } from '../test/live/support/watch.js';

const { values: args } = parseArgs({
  options: {
    parents: { type: 'string', default: '1000' },
    namespaces: { type: 'string', default: '20' },
    steady: { type: 'string', default: '120' },
    json: { type: 'boolean', default: false },
  },
});
const PARENTS = Number(args.parents);
const NAMESPACES = Number(args.namespaces);
const STEADY_S = Number(args.steady);
const log = (line: string) => process.stderr.write(`${line}\n`);
const IS = { apiVersion: 'serving.kserve.io/v1beta1', plural: 'inferenceservices' };

/** Every hook request Metacontroller sent, as it sent it. */
interface Sent {
  at: number;
  path: string;
  parent: string;
  bytes: number;
  status: number;
}

/** A pass-through between Metacontroller and the hook server that records each request's size. */
function recordingProxy(target: string, sent: Sent[]): Promise<{ url: string; close(): void }> {
  const to = new URL(target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const out = http.request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers, agent }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        sent.push({ at: Date.now(), path: req.url ?? '', parent: parentOf(body), bytes: body.length, status: answer.statusCode ?? 0 });
      });
      out.on('error', (e) => {
        res.writeHead(502);
        res.end(String(e));
      });
      out.end(body);
    });
  });
  // Metacontroller's Go client keeps idle connections 90 s: a proxy closing them at Node's default
  // 5 s races a request onto a closing socket (Metacontroller sees EOF), as the hook server avoids.
  server.keepAliveTimeout = 95_000;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
    }),
  );
}

/** `namespace/name` of the request's parent, read from the body's prefix without parsing all of it. */
function parentOf(body: Buffer): string {
  try {
    const parent = (JSON.parse(body.toString('utf8')) as { parent?: KubeObject }).parent;
    return parent ? `${parent.metadata.namespace}/${parent.metadata.name}` : '';
  } catch {
    return '';
  }
}

/** CPU seconds (user + system) and peak RSS of one process, from /proc. */
function usage(pid: number): { cpu: number; peakRss: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpu: ticks / 100, peakRss: Number(hwm?.[1] ?? 0) * 1024 };
}

/** The cluster's processes by name, found by what their command lines hold. */
function processes(dir: string, hookPort: number): Record<string, number[]> {
  const found: Record<string, number[]> = { hooks: [], metacontroller: [], 'kube-apiserver': [], etcd: [], 'kube-controller-manager': [] };
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmd: string[];
    let env = '';
    try {
      cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      env = readFileSync(`/proc/${entry}/environ`, 'utf8');
    } catch {
      continue;
    }
    const line = cmd.join(' ');
    const exe = cmd[0]?.split('/').at(-1) ?? '';
    // tsx runs the server in a child node process (its loader imported); the tsx parent only waits.
    if (line.includes('hooks/cli/main.ts serve') && line.includes('tsx/dist/loader') && env.split('\0').includes(`PORT=${hookPort}`))
      found.hooks?.push(Number(entry));
    else if (line.includes(dir) && exe in found) found[exe]?.push(Number(entry));
  }
  return found;
}

function totals(pids: Record<string, number[]>) {
  return Object.fromEntries(
    Object.entries(pids).map(([name, list]) => {
      const u = list.map(usage);
      return [name, { cpu: u.reduce((a, b) => a + b.cpu, 0), peakRss: u.reduce((a, b) => a + b.peakRss, 0) }];
    }),
  );
}

const ready = (o: KubeObject) =>
  ((o.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

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

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.floor((s.length - 1) / 2)] as number) : 0;
};

async function hookOutcomes(hookUrl: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${hookUrl}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^modelhooks_hook_requests_total\{([^}]*)\} (\d+)/gm)) {
    const labels = m[1] ?? '';
    if (!labels.includes('composition="inferenceservice"')) continue;
    const outcome = /outcome="([^"]+)"/.exec(labels)?.[1] ?? '?';
    const hook = /hook="([^"]+)"/.exec(labels)?.[1] ?? '?';
    out[`${hook}:${outcome}`] = (out[`${hook}:${outcome}`] ?? 0) + Number(m[2]);
  }
  return out;
}

async function main() {
  const why = skipReason();
  if (why) {
    log(`bench:live skipped: ${why}`);
    return;
  }
  log(`bench:live: ${PARENTS} InferenceServices over ${NAMESPACES} namespace(s)`);
  const build = await buildLiveBinaries();
  const sent: Sent[] = [];
  // As the live tier: LIVE_KEEP_TMP=1 keeps the logs, LIVE_METACONTROLLER_LOG_LEVEL=4 logs every child event.
  const cluster = await startLiveCluster({
    binDir: build.binDir,
    metacontrollerSrc: metacontrollerSrc(),
    keep: Boolean(process.env.LIVE_KEEP_TMP),
    ...(process.env.LIVE_METACONTROLLER_LOG_LEVEL ? { metacontrollerLogLevel: process.env.LIVE_METACONTROLLER_LOG_LEVEL } : {}),
  });
  // Metacontroller's hooks go through the recording proxy: the CompositeControllers again, pointed at it.
  const proxy = await recordingProxy(cluster.hooks.url, sent);
  try {
    const kube = new Kube(cluster.info);
    for (const cc of compositeControllers(build.binDir, proxy.url)) await kube.apply(cc);
    await sleep(5000); // Metacontroller restarts a controller whose CompositeController changed
    const namespaces = Array.from({ length: NAMESPACES }, (_, i) => `bench-${i}`);
    for (const ns of namespaces) await kube.ensureNamespace(ns);
    const names = Array.from({ length: PARENTS }, (_, i) => ({ name: `m${i}`, namespace: namespaces[i % NAMESPACES] as string }));

    // One parent alone in its namespace first: its sync request is the baseline.
    const first = names[0] as { name: string; namespace: string };
    await kube.create(inferenceService(first.name, first.namespace));
    const firstKey = `${first.namespace}/${first.name}`;
    while (!ready(await kube.get(IS.apiVersion, 'InferenceService', first.name, first.namespace))) await sleep(500);
    const alone = median(sent.filter((s) => s.parent === firstKey && s.path.includes('/sync')).map((s) => s.bytes));

    const before = totals(processes(cluster.dir, cluster.hooks.port));
    const t0 = Date.now();
    await pool(names.slice(1), 16, (n) => kube.create(inferenceService(n.name, n.namespace)));
    const created = Date.now() - t0;
    let readyCount = 0;
    while (readyCount < PARENTS) {
      await sleep(2000);
      const list = await kube.call<{ items: KubeObject[] }>('GET', `/apis/${IS.apiVersion}/${IS.plural}`);
      readyCount = list.items.filter(ready).length;
      log(`  ${((Date.now() - t0) / 1000).toFixed(0)} s: ${readyCount}/${PARENTS} Ready`);
      if (Date.now() - t0 > 40 * 60_000) throw new Error(`not converged after 40 minutes (${readyCount} Ready)`);
    }
    const converged = Date.now() - t0;
    const atConvergence = totals(processes(cluster.dir, cluster.hooks.port));
    const convergenceRequests = sent.filter((s) => s.at >= t0 && s.path.includes('/sync'));

    // Steady state: let the last writes settle, then watch and count.
    await sleep(30_000);
    let writes = 0;
    const watches: Watch[] = [
      'apps/v1/deployments',
      'v1/services',
      'autoscaling/v2/horizontalpodautoscalers',
      'networking.k8s.io/v1/ingresses',
      `${IS.apiVersion}/${IS.plural}`,
    ].map((c) => {
      const [group, ...rest] = c.split('/');
      const collection = group === 'v1' ? `/api/v1/${rest.join('/')}` : `/apis/${c}`;
      let live = false;
      const w = listAndWatch(kube, collection, (e) => {
        if (live && e.type !== 'ADDED') writes++;
      });
      w.synced.then(() => (live = true));
      return w;
    });
    await Promise.all(watches.map((w) => w.synced));
    const steadyStart = Date.now();
    const outcomesBefore = await hookOutcomes(cluster.hooks.url);
    const usageBefore = totals(processes(cluster.dir, cluster.hooks.port));
    await sleep(STEADY_S * 1000);
    const usageAfter = totals(processes(cluster.dir, cluster.hooks.port));
    const outcomesAfter = await hookOutcomes(cluster.hooks.url);
    for (const w of watches) w.stop();
    const steadyRequests = sent.filter((s) => s.at >= steadyStart);

    // The first parent again, among all the others: a metadata edit makes Metacontroller sync it.
    const touchAt = Date.now();
    await kube.call(
      'PATCH',
      `/apis/${IS.apiVersion}/namespaces/${first.namespace}/${IS.plural}/${first.name}`,
      { metadata: { labels: { 'bench.modelhooks.dev/touched': 'yes' } } },
      'application/merge-patch+json',
    );
    while (!sent.some((s) => s.at >= touchAt && s.parent === firstKey && s.path.includes('/sync'))) await sleep(200);
    const among = median(sent.filter((s) => s.at >= touchAt && s.parent === firstKey && s.path.includes('/sync')).map((s) => s.bytes));

    const delta = (a: Record<string, { cpu: number }>, b: Record<string, { cpu: number }>) =>
      Object.fromEntries(Object.keys(b).map((k) => [k, +((b[k]?.cpu ?? 0) - (a[k]?.cpu ?? 0)).toFixed(1)]));
    const outcomeDelta = Object.fromEntries(
      Object.keys(outcomesAfter)
        .map((k) => [k, (outcomesAfter[k] ?? 0) - (outcomesBefore[k] ?? 0)])
        .filter(([, v]) => (v as number) > 0),
    );
    const report = {
      parents: PARENTS,
      namespaces: NAMESPACES,
      createSeconds: +(created / 1000).toFixed(1),
      convergedSeconds: +(converged / 1000).toFixed(1),
      convergenceCpuSeconds: delta(before, atConvergence),
      peakRssMiB: Object.fromEntries(Object.entries(atConvergence).map(([k, v]) => [k, +(v.peakRss / 2 ** 20).toFixed(0)])),
      syncRequests: {
        count: convergenceRequests.length,
        medianBytes: median(convergenceRequests.map((s) => s.bytes)),
        maxBytes: Math.max(0, ...convergenceRequests.map((s) => s.bytes)),
        perParent: +(convergenceRequests.length / PARENTS).toFixed(2),
      },
      onesSyncBytes: { alone, amongAll: among, ratio: +(among / alone).toFixed(2) },
      steady: {
        seconds: STEADY_S,
        requestsPerParentPerMinute: +(steadyRequests.length / PARENTS / (STEADY_S / 60)).toFixed(3),
        statuses: Object.fromEntries([200, 304].map((s) => [s, steadyRequests.filter((r) => r.status === s).length])),
        outcomes: outcomeDelta,
        writesSeen: writes,
        cpuSeconds: delta(usageBefore, usageAfter),
      },
    };
    if (args.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } finally {
    proxy.close();
    await cluster.stop();
  }
}

main().catch((error) => {
  log(String(error?.stack ?? error));
  process.exit(1);
});
