/**
 * `npm run bench:live`: the system, not the request. N InferenceServices (default 1,000) through
 * the real Metacontroller of the live tier (test/live/support/cluster.ts), spread over
 * `--namespaces` namespaces (default 20; 1 puts them all in one), and what it costs:
 *
 *   - the time from the first create until every parent is Ready (watched: the time each one
 *     first was), and the load average then (the machine may be shared);
 *   - CPU seconds and peak RSS of the hook server, Metacontroller, kube-apiserver, etcd and
 *     kube-controller-manager (from /proc), and Metacontroller's and the hook's per parent;
 *   - every hook request's size, as Metacontroller sent it (a recording proxy sits between them):
 *     syncs per parent until Ready, the median and largest request, any 413;
 *   - the `--tail` seconds (default 180) after the last Ready, when nothing changes: syncs per
 *     60 s bucket, and the writes to the API server seen by watches on the children and parents;
 *   - one parent's sync request alone in its namespace against the same parent's once all are there;
 *   - with `--secrets N`: all parents in one namespace with S3 credentials beside N unrelated
 *     Secrets; then the syncs one unrelated Secret edit causes, and how long a credential
 *     rotation takes to reach every Deployment;
 *   - KServe's controller's figures for the same parents, where `npm run bench:oracle` measured them
 *     first in this run and handed them over (`KSERVE_BENCH_JSON`), or how to get them.
 *
 * `--metacontroller-flag=--workers=20` (repeatable) adds flags to Metacontroller's (docs/install.md).
 * Needs what the live tier needs (Go, Metacontroller's source); prints why when it can't run.
 * Not a test: no thresholds. See docs/development.md, "System figures".
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Kube, type KubeObject } from '../test/e2e/support/kube.js';
import { buildLiveBinaries } from '../test/live/support/build.js';
import { compositeControllers, startLiveCluster } from '../test/live/support/cluster.js';
import { metacontrollerSrc, skipReason } from '../test/live/support/skip.js';
import { listAndWatch, type Watch } from '../test/live/support/watch.js';
import { usage } from './proc.js';

const { values: args } = parseArgs({
  options: {
    parents: { type: 'string', default: '1000' },
    namespaces: { type: 'string', default: '20' },
    tail: { type: 'string', default: '180' },
    secrets: { type: 'string', default: '-1' },
    'metacontroller-flag': { type: 'string', multiple: true, default: [] },
    json: { type: 'boolean', default: false },
    // Writes the first parent's sync request among all the others, as Metacontroller sent it.
    'dump-request': { type: 'string' },
  },
});
const PARENTS = Number(args.parents);
const NAMESPACES = Number(args.namespaces);
const TAIL_S = Number(args.tail);
/** `--secrets N`: every parent in one namespace, with S3 credentials, beside N unrelated Secrets (-1: none of it). */
const SECRETS = Number(args.secrets);
/** Extra Metacontroller flags (`--metacontroller-flag=--workers=20`), after the live tier's. */
const MC_FLAGS = args['metacontroller-flag'] as string[];
const log = (line: string) => process.stderr.write(`${line}\n`);
const IS = { apiVersion: 'serving.kserve.io/v1beta1', plural: 'inferenceservices' };

/** Every hook request Metacontroller sent, as it sent it. */
interface Sent {
  at: number;
  path: string;
  parent: string;
  bytes: number;
  status: number;
  /** The body, kept for the first parent's syncs only (`keepBody`). */
  body?: Buffer;
}

/** Whose request bodies the proxy keeps (the first parent's: its request is broken down by section). */
let keepBody = '';

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
        const parent = parentOf(body);
        sent.push({
          at: Date.now(),
          path: req.url ?? '',
          parent,
          bytes: body.length,
          status: answer.statusCode ?? 0,
          ...(parent === keepBody && req.url?.includes('/sync') ? { body } : {}),
        });
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

function inferenceService(name: string, namespace: string, s3 = false): KubeObject {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name, namespace },
    spec: s3
      ? { predictor: { serviceAccountName: 'storage', sklearn: { storageUri: 's3://bench/models/sklearn' } } }
      : { predictor: { sklearn: { storageUri: 'gs://kfserving-examples/models/sklearn/1.0/model' } } },
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

/** The S3 credential of the `--secrets` run, as docs/credentials.md sets one up (KServe's S3 annotations). */
function s3Credential(namespace: string, endpoint: string): KubeObject[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's3creds', namespace, annotations: { 'serving.kserve.io/s3-endpoint': endpoint, 'serving.kserve.io/s3-usehttps': '0' } },
      stringData: { AWS_ACCESS_KEY_ID: 'bench', AWS_SECRET_ACCESS_KEY: 'bench-secret' },
    },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'storage', namespace }, secrets: [{ name: 's3creds' }] },
  ];
}

/** A Secret nobody uses, of 1–4 KB (the `--secrets` run puts N of them beside the parents). */
function unrelatedSecret(i: number, namespace: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name: `unrelated-${i}`, namespace }, stringData: { blob: 'x'.repeat(1024 * (1 + (i % 4))) } };
}

/** Bytes of a value as JSON (0 for undefined). */
const jsonBytes = (v: unknown) => (v === undefined ? 0 : Buffer.byteLength(JSON.stringify(v)));

/**
 * A sync request's bytes by section: the parent, each `children` and `related` group (objects,
 * bytes, of which `metadata.managedFields` and `status`), the rest (controller, finalizing).
 */
function requestBreakdown(body: Buffer): Record<string, unknown> {
  const request = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  const groups = (map: unknown) =>
    Object.fromEntries(
      Object.entries((map ?? {}) as Record<string, Record<string, { metadata?: { managedFields?: unknown }; status?: unknown }>>)
        .map(([group, objects]) => {
          const all = Object.values(objects);
          const section = {
            objects: all.length,
            bytes: jsonBytes(objects),
            managedFields: all.reduce((n, o) => n + jsonBytes(o.metadata?.managedFields), 0),
            status: all.reduce((n, o) => n + jsonBytes(o.status), 0),
          };
          return [group, section] as const;
        })
        .sort((a, b) => b[1].bytes - a[1].bytes),
    );
  const parent = request.parent as { metadata?: { managedFields?: unknown }; status?: unknown };
  const { parent: _p, children, related, ...rest } = request;
  return {
    bytes: body.length,
    parent: { bytes: jsonBytes(parent), managedFields: jsonBytes(parent.metadata?.managedFields), status: jsonBytes(parent.status) },
    children: { bytes: jsonBytes(children), groups: groups(children) },
    related: { bytes: jsonBytes(related), groups: groups(related) },
    rest: jsonBytes(rest),
  };
}

/** Sync requests of InferenceServices seen in [from, to). */
const syncsIn = (sent: Sent[], from: number, to: number) => sent.filter((s) => s.at >= from && s.at < to && s.path.includes('/inferenceservice/sync'));

async function main() {
  const why = skipReason();
  if (why) {
    log(`bench:live skipped: ${why}`);
    return;
  }
  const credentialed = SECRETS >= 0;
  log(
    `bench:live: ${PARENTS} InferenceServices over ${credentialed ? 1 : NAMESPACES} namespace(s)${credentialed ? `, S3 credentials beside ${SECRETS} unrelated Secrets` : ''}`,
  );
  const build = await buildLiveBinaries();
  const sent: Sent[] = [];
  // As the live tier: LIVE_KEEP_TMP=1 keeps the logs, LIVE_METACONTROLLER_LOG_LEVEL=4 logs every child event.
  const cluster = await startLiveCluster({
    binDir: build.binDir,
    metacontrollerSrc: metacontrollerSrc(),
    keep: Boolean(process.env.LIVE_KEEP_TMP),
    ...(MC_FLAGS.length > 0 ? { metacontrollerFlags: MC_FLAGS } : {}),
    ...(process.env.LIVE_METACONTROLLER_LOG_LEVEL ? { metacontrollerLogLevel: process.env.LIVE_METACONTROLLER_LOG_LEVEL } : {}),
  });
  // Metacontroller's hooks go through the recording proxy: the CompositeControllers again, pointed at it.
  const proxy = await recordingProxy(cluster.hooks.url, sent);
  const watches: Watch[] = [];
  try {
    const kube = new Kube(cluster.info);
    for (const cc of compositeControllers(build.binDir, proxy.url)) await kube.apply(cc);
    await sleep(5000); // Metacontroller restarts a controller whose CompositeController changed
    const namespaces = credentialed ? ['bench-secrets'] : Array.from({ length: NAMESPACES }, (_, i) => `bench-${i}`);
    for (const ns of namespaces) await kube.ensureNamespace(ns);
    if (credentialed) {
      const ns = namespaces[0] as string;
      for (const o of s3Credential(ns, 's3.bench.example:9000')) await kube.create(o);
      await pool(
        Array.from({ length: SECRETS }, (_, i) => i),
        8,
        (i) => kube.create(unrelatedSecret(i, ns)),
      );
    }
    const names = Array.from({ length: PARENTS }, (_, i) => ({ name: `m${i}`, namespace: namespaces[i % namespaces.length] as string }));
    const objectFor = (n: { name: string; namespace: string }) => inferenceService(n.name, n.namespace, credentialed);

    // Writes (anything but the ADDED of a new object) and when each parent first was Ready, from watches.
    // Events by kind until the last Ready: each one is run through every related rule of every
    // parent by Metacontroller when it watches that kind for related objects (findRelatedParents).
    const writes: Array<{ at: number; kind: string }> = [];
    const events: Record<string, number[]> = {};
    const readyAt = new Map<string, number>();
    for (const c of [
      'apps/v1/deployments',
      'v1/services',
      'autoscaling/v2/horizontalpodautoscalers',
      'networking.k8s.io/v1/ingresses',
      'v1/pods',
      `${IS.apiVersion}/${IS.plural}`,
    ]) {
      const [group, ...rest] = c.split('/');
      const collection = group === 'v1' ? `/api/v1/${rest.join('/')}` : `/apis/${c}`;
      const kind = c.split('/').at(-1) as string;
      const seen: number[] = [];
      events[kind] = seen;
      let live = false;
      const w = listAndWatch(kube, collection, (e) => {
        if (live) seen.push(Date.now());
        if (live && e.type !== 'ADDED' && kind !== 'pods') writes.push({ at: Date.now(), kind });
        if (e.object.kind === 'InferenceService' && ready(e.object)) {
          const key = `${e.object.metadata.namespace}/${e.object.metadata.name}`;
          if (!readyAt.has(key)) readyAt.set(key, Date.now());
        }
      });
      w.synced.then(() => (live = true));
      watches.push(w);
    }
    await Promise.all(watches.map((w) => w.synced));

    // One parent alone in its namespace first: its sync request is the baseline.
    const first = names[0] as { name: string; namespace: string };
    const firstKey = `${first.namespace}/${first.name}`;
    keepBody = firstKey;
    const firstAt = Date.now();
    await kube.create(objectFor(first));
    while (!readyAt.has(firstKey)) await sleep(200);
    const firstSyncs = sent.filter((s) => s.parent === firstKey && s.path.includes('/sync'));
    const alone = median(firstSyncs.map((s) => s.bytes));
    const firstReadyMs = (readyAt.get(firstKey) as number) - firstAt;

    const pids = processes(cluster.dir, cluster.hooks.port);
    const before = totals(pids);
    const t0 = Date.now();
    await pool(names.slice(1), 16, (n) => kube.create(objectFor(n)));
    const created = Date.now() - t0;
    let lastLog = 0;
    while (readyAt.size < PARENTS) {
      await sleep(500);
      if (Date.now() - lastLog > 10_000) {
        lastLog = Date.now();
        log(`  ${((Date.now() - t0) / 1000).toFixed(0)} s: ${readyAt.size}/${PARENTS} Ready (load ${loadavg()})`);
      }
      if (Date.now() - t0 > 40 * 60_000) throw new Error(`not converged after 40 minutes (${readyAt.size} Ready)`);
    }
    const lastReady = Math.max(...readyAt.values());
    const atConvergence = totals(pids);
    const loadAtConvergence = loadavg();
    const convergenceRequests = syncsIn(sent, t0, lastReady + 1);

    // The tail: nothing changes after the last Ready; every sync in it is without a cause.
    log(`  all Ready after ${((lastReady - t0) / 1000).toFixed(1)} s; watching ${TAIL_S} s after the last Ready`);
    while (Date.now() < lastReady + TAIL_S * 1000) await sleep(1000);
    const tailEnd = lastReady + TAIL_S * 1000;
    const afterTail = totals(pids);
    const buckets = Array.from(
      { length: Math.ceil(TAIL_S / 60) },
      (_, i) => syncsIn(sent, lastReady + 1 + i * 60_000, Math.min(tailEnd, lastReady + 1 + (i + 1) * 60_000)).length,
    );
    const tailRequests = syncsIn(sent, lastReady + 1, tailEnd);
    // Writes after the last Ready, by kind: an HPA's status is kube-controller-manager's, the rest Metacontroller's.
    const tailWrites: Record<string, number> = {};
    for (const w of writes) if (w.at > lastReady && w.at <= tailEnd) tailWrites[w.kind] = (tailWrites[w.kind] ?? 0) + 1;

    // The first parent again, among all the others: a metadata edit makes Metacontroller sync it.
    const touchAt = Date.now();
    await kube.call(
      'PATCH',
      `/apis/${IS.apiVersion}/namespaces/${first.namespace}/${IS.plural}/${first.name}`,
      { metadata: { labels: { 'bench.modelhooks.dev/touched': 'yes' } } },
      'application/merge-patch+json',
    );
    while (!sent.some((s) => s.at >= touchAt && s.parent === firstKey && s.path.includes('/sync'))) await sleep(200);
    const amongRequests = sent.filter((s) => s.at >= touchAt && s.parent === firstKey && s.path.includes('/sync'));
    const among = median(amongRequests.map((s) => s.bytes));
    // What that request is made of, and the request itself where `--dump-request` asks for it.
    const amongBody = amongRequests.at(-1)?.body;
    if (amongBody && args['dump-request']) writeFileSync(args['dump-request'], amongBody);

    // The Secrets run: what one unrelated Secret edit, then one credential rotation, cost.
    let secretEdits: Record<string, unknown> | undefined;
    if (credentialed) {
      const ns = namespaces[0] as string;
      const settle = async () => {
        await sleep(20_000);
      };
      await settle();
      const editAt = Date.now();
      const cpuEdit = totals(pids);
      await kube.call('PATCH', `/api/v1/namespaces/${ns}/secrets/unrelated-0`, { stringData: { blob: 'edited' } }, 'application/merge-patch+json');
      await settle();
      const unrelated = {
        inferenceServiceSyncs: syncsIn(sent, editAt, Date.now()).length,
        // The credentials DecoratorController's syncs (one per ServiceAccount of the namespace) and their bytes.
        decoratorSyncs: sent.filter((s) => s.at >= editAt && s.path.includes('/decorator-sync')).map((s) => s.bytes),
        metacontrollerCpu: +((totals(pids).metacontroller?.cpu ?? 0) - (cpuEdit.metacontroller?.cpu ?? 0)).toFixed(2),
      };
      // A rotation that the children show: the S3 endpoint annotation (it becomes the Deployments' S3_ENDPOINT).
      const rotateAt = Date.now();
      await kube.call(
        'PATCH',
        `/api/v1/namespaces/${ns}/secrets/s3creds`,
        { metadata: { annotations: { 'serving.kserve.io/s3-endpoint': 's3.rotated.example:9000' } } },
        'application/merge-patch+json',
      );
      const reached = new Set<string>();
      const rotated = listAndWatch(kube, `/apis/apps/v1/namespaces/${ns}/deployments`, (e) => {
        if (JSON.stringify(e.object).includes('s3.rotated.example')) reached.add(e.object.metadata.name);
      });
      watches.push(rotated);
      while (reached.size < PARENTS && Date.now() - rotateAt < 120_000) await sleep(250);
      secretEdits = {
        unrelatedSecretEdit: unrelated,
        rotation: {
          deploymentsReached: reached.size,
          seconds: +((Date.now() - rotateAt) / 1000).toFixed(1),
          inferenceServiceSyncs: syncsIn(sent, rotateAt, Date.now()).length,
        },
      };
    }

    const delta = (a: Record<string, { cpu: number }>, b: Record<string, { cpu: number }>) =>
      Object.fromEntries(Object.keys(b).map((k) => [k, +((b[k]?.cpu ?? 0) - (a[k]?.cpu ?? 0)).toFixed(1)]));
    const perParent = (a: Record<string, { cpu: number }>, b: Record<string, { cpu: number }>, k: string) =>
      +(((b[k]?.cpu ?? 0) - (a[k]?.cpu ?? 0)) / (PARENTS - 1)).toFixed(4);
    const report = {
      parents: PARENTS,
      namespaces: namespaces.length,
      unrelatedSecrets: credentialed ? SECRETS : undefined,
      metacontrollerFlags: MC_FLAGS.length > 0 ? MC_FLAGS : 'the live tier defaults',
      createSeconds: +(created / 1000).toFixed(1),
      convergedSeconds: +((lastReady - t0) / 1000).toFixed(1),
      loadAverageAtConvergence: loadAtConvergence,
      firstParentReadySeconds: +(firstReadyMs / 1000).toFixed(1),
      convergenceCpuSeconds: delta(before, atConvergence),
      cpuSecondsPerParentUntilReady: { metacontroller: perParent(before, atConvergence, 'metacontroller'), hooks: perParent(before, atConvergence, 'hooks') },
      peakRssMiB: Object.fromEntries(Object.entries(atConvergence).map(([k, v]) => [k, +(v.peakRss / 2 ** 20).toFixed(0)])),
      syncRequests: {
        untilReady: convergenceRequests.length,
        perParentUntilReady: +(convergenceRequests.length / (PARENTS - 1)).toFixed(2),
        medianBytes: median(convergenceRequests.map((s) => s.bytes)),
        maxBytes: Math.max(0, ...convergenceRequests.map((s) => s.bytes)),
        refused413: sent.filter((s) => s.status === 413).length,
      },
      eventsUntilReady: Object.fromEntries(Object.entries(events).map(([k, at]) => [k, at.filter((t) => t >= t0 && t <= lastReady).length])),
      afterLastReady: {
        seconds: TAIL_S,
        syncsPer60s: buckets,
        syncs: tailRequests.length,
        perParent: +(tailRequests.length / PARENTS).toFixed(3),
        statuses: Object.fromEntries([200, 304].map((s) => [s, tailRequests.filter((r) => r.status === s).length])),
        writes: tailWrites,
        cpuSeconds: delta(atConvergence, afterTail),
        loadAverage: loadavg(),
      },
      onesSyncBytes: { alone, amongAll: among, ratio: +(among / alone).toFixed(2), amongAllBySection: amongBody ? requestBreakdown(amongBody) : undefined },
      secretEdits,
      kserve: kserveFigures(),
    };
    if (args.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } finally {
    for (const w of watches) w.stop();
    proxy.close();
    await cluster.stop();
  }
}

/** The 1-, 5- and 15-minute load averages (the machine is shared: every figure goes with it). */
function loadavg(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

/**
 * KServe's own controller's figures for the same load, where the oracle tier measured them in
 * this run and left them in `KSERVE_BENCH_JSON` (a file of the same shape); otherwise says so.
 */
function kserveFigures(): unknown {
  const file = process.env.KSERVE_BENCH_JSON;
  if (!file)
    return "not available: KSERVE_BENCH_JSON unset; `npm run bench:oracle -- --parents N --namespaces M` measures KServe's manager on the oracle tier's cluster first, then runs this bench with its figures";
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    return `not available: ${file}: ${String(error)}`;
  }
}

main().catch((error) => {
  log(String(error?.stack ?? error));
  process.exit(1);
});
