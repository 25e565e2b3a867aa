/**
 * One tenant cannot hurt another (issue 32 items 1, 2, 3, 4 and 6), against the real
 * `modelhooks serve` with the Deployment's node flags and heap (deploy/base/deployment.yaml),
 * a bearer token, and the probes and /metrics on their own port, as the Deployment has them.
 * Loopback only; every phase is bounded in time and the script stops by itself.
 *
 * 1. ConfigMaps the API server stores: model-serving-config's config.yaml of 0.95 MiB of `[`
 *    (it exhausted the heap) and a 600-byte alias bomb (a 500), inferenceservice-config's
 *    `ingress` of 0.95 MiB of `[`: 200, with a False condition naming the key.
 * 6. A predictor.batcher nested 5,000 and 10,000 deep (a stack overflow: 500): 200, InvalidSpec.
 * 2. 16, 32 and 64 slow POSTs, each announcing 16 MiB (with the token): RSS stays under the
 *    container's 512 MiB limit (before: 379 / 612 / 1,123 MiB), the extra ones get 503 at once.
 * 3. 260 sockets that send a request head, then a byte a second, and 300 that send nothing,
 *    each reconnecting as soon as it is closed: every sync of the authenticated client and every
 *    probe is answered (before: 86 of 89 syncs and /healthz reset).
 * 4. 16 and 48 concurrent 2 MB syncs from namespace `flood`, each distinct, and one 2 MB parent
 *    with 40,000 containers: every sync of another namespace is answered, its p99 within issue
 *    32's 500 ms (stretched by the machine's load from other work: externalLoadPerCore) (before:
 *    a median of 1.9 s and 6.0 s under the floods, 3.9 s beside the huge parent).
 *
 * It fails on a crash, any 5xx but the budget's 503, an RSS at the limit, a reset or failed
 * request of the authenticated client; it prints what it measured.
 *
 *   npx tsx test/soak/tenant-attacks.ts     (about 2-3 minutes on 2 cores; run by .ci/run)
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { shippedNodeFlags } from '../../bench/node-flags.js';
import { freePort } from '../support/free-port.js';
import { memoryPeaks, ROOT, runSoak, type SoakServer } from './serve.js';

const MEMORY_LIMIT = 512 * 1024 * 1024; // deploy/base/deployment.yaml's limits.memory
const P99_LIMIT_MS = 500;
/**
 * How many runnable processes share each core besides this soak (the 1-minute load average per
 * core before the first flood, at least 1): the server gets about 1/this of a core, so every
 * latency it gives stretches by it. The p99 bound is P99_LIMIT_MS on a machine of its own and
 * stretched by this on a shared one (both are printed). Sampled before the floods, so the
 * floods' own processes (the attack, which the server must bear) do not widen it.
 */
const externalLoadPerCore = () => Math.max(1, (os.loadavg()[0] ?? 0) / os.availableParallelism());
const TOKEN = 'soak-token';
const MiB = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dir = mkdtempSync(path.join(tmpdir(), 'modelhooks-tenant-attacks-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const tokenFile = path.join(dir, 'token');
writeFileSync(tokenFile, TOKEN);

interface Answer {
  status: number;
  text: string;
  ms: number;
}

/** One request (on a new connection, or on `agent`'s); status 0 with the error's code when the connection fails (a reset). */
function post(port: string, urlPath: string, body: string | Buffer, token = TOKEN, agent: http.Agent | false = false): Promise<Answer & { error?: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: urlPath,
        agent,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), ms: performance.now() - started }));
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: 0, text: '', ms: performance.now() - started, error: err.code ?? err.message }));
    req.end(body);
  });
}

function get(port: string, urlPath: string): Promise<Answer & { error?: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path: urlPath, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: '', ms: performance.now() - started }));
      })
      .on('error', (err: NodeJS.ErrnoException) => resolve({ status: 0, text: '', ms: performance.now() - started, error: err.code ?? err.message }));
  });
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

const conditionOf = (text: string, type: string): { status?: string; reason?: string; message?: string } | undefined => {
  try {
    return (JSON.parse(text) as { status: { conditions: { type: string; status?: string; reason?: string; message?: string }[] } }).status.conditions.find(
      (c) => c.type === type,
    );
  } catch {
    return undefined;
  }
};

// Parents.
const trusty = (namespace: string, name = 'svc') => ({
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  metadata: { name, namespace, generation: 1, uid: `uid-${name}` },
  spec: { storage: { format: 'PVC' }, metrics: { schedule: '5s' } },
});
const isvc = (namespace: string, name: string, extra: Record<string, unknown> = {}, predictor: Record<string, unknown> = {}) => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name, namespace, generation: 1, uid: `uid-${namespace}-${name}`, ...extra },
  spec: { predictor: { model: { modelFormat: { name: 'sklearn' }, storageUri: `gs://bucket/${name}` }, ...predictor } },
});
const configMap = (namespace: string, name: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace },
  data,
});
const syncBody = (parent: unknown, related: unknown[] = [], children: Record<string, unknown> = {}) =>
  JSON.stringify({
    controller: {},
    parent,
    children,
    related: {
      'ConfigMap.v1': Object.fromEntries(
        related.map((o) => [
          `${(o as { metadata: { namespace: string; name: string } }).metadata.namespace}/${(o as { metadata: { name: string } }).metadata.name}`,
          o,
        ]),
      ),
    },
  });

function aliasBomb(): string {
  const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < 9; i++)
    lines.push(
      `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
        .fill(`*${String.fromCharCode(96 + i)}`)
        .join(',')}]`,
    );
  return `${lines.join('\n')}\npayloadProcessors: [*i]\n`;
}

/** SOAK_ITEMS=1,2 runs those items only (items 1 and 6 run together); all by default. */
const ITEMS = new Set((process.env.SOAK_ITEMS ?? '1,2,3,4').split(','));

const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) failures.push(what);
  console.log(`tenant-attacks: ${ok ? 'held' : 'FAILED'}: ${what}`);
};

/** Items 1 and 6: what the API server stores is answered 200, with a condition naming what could not be read. */
async function untrustedObjects(port: string): Promise<void> {
  const brackets = `${'['.repeat(5e5)}${']'.repeat(5e5)}`;
  for (const [what, text, want] of [
    ['0.95 MiB of [ in model-serving-config config.yaml', brackets, 'config.yaml is 1000000 bytes'],
    ['a 600-byte alias bomb in config.yaml', aliasBomb(), 'Excessive alias count'],
  ] as const) {
    const res = await post(
      port,
      '/hooks/trustyai/sync',
      syncBody(trusty('modelmesh-serving'), [configMap('modelmesh-serving', 'model-serving-config', { 'config.yaml': text })]),
    );
    const c = conditionOf(res.text, 'ModelMeshReady');
    check(
      res.status === 200 && c?.status === 'False' && (c.message ?? '').includes(want),
      `item 1: ${what}: ${res.status} in ${res.ms.toFixed(0)} ms, ModelMeshReady ${c?.status} "${(c?.message ?? '').slice(0, 90)}…"`,
    );
  }
  const res = await post(
    port,
    '/hooks/inferenceservice/sync',
    syncBody(isvc('team-a', 'cfg'), [configMap('kserve', 'inferenceservice-config', { ingress: brackets })]),
  );
  const c = conditionOf(res.text, 'KServeConfig');
  check(
    res.status === 200 && c?.status === 'False' && (c.message ?? '').includes('data.ingress: 1000000 bytes'),
    `item 1: 0.95 MiB of [ in inferenceservice-config ingress: ${res.status} in ${res.ms.toFixed(0)} ms, KServeConfig ${c?.status} "${(c?.message ?? '').slice(0, 90)}…"`,
  );
  for (const depth of [5000, 10_000]) {
    const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    // Written as text: JSON.stringify cannot write it.
    const text = syncBody(isvc('team-a', `deep-${depth}`, {}, { batcher: { maxBatchSize: 4, x: '@' } })).replace('"x":"@"', `"x":${nested}`);
    const deep = await post(port, '/hooks/inferenceservice/sync', text);
    const ready = conditionOf(deep.text, 'Ready');
    check(
      deep.status === 200 && ready?.reason === 'InvalidSpec' && (ready.message ?? '').startsWith('spec.predictor.batcher.x'),
      `item 6: predictor.batcher nested ${depth} deep: ${deep.status} in ${deep.ms.toFixed(0)} ms, Ready ${ready?.reason} "${(ready?.message ?? '').slice(0, 70)}…"`,
    );
  }
}

/** Item 2: slow POSTs announcing 16 MiB, `n` at a time for `seconds`; what they were answered. */
async function slowPosts(port: string, n: number, seconds: number, sample: () => Promise<void>): Promise<Map<string, number>> {
  const outcomes = new Map<string, number>();
  const until = Date.now() + seconds * 1000;
  const one = async () => {
    while (Date.now() < until) {
      const status = await new Promise<string>((resolve) => {
        const socket = net.connect(Number(port), '127.0.0.1');
        let text = '';
        let timer: NodeJS.Timeout | undefined;
        socket.on('data', (d) => (text += d.toString()));
        socket.on('error', () => {});
        socket.on('close', () => {
          clearInterval(timer);
          resolve(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 'closed');
        });
        socket.write(
          `POST /hooks/inferenceservice/sync HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Length: ${16 * 1024 * 1024}\r\n\r\n`,
        );
        // 256 KiB a second: above the minimum rate, far too slow to finish within the request timeout.
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        timer = setInterval(() => socket.writable && socket.write(chunk), 250);
        setTimeout(() => socket.destroy(), Math.max(0, until - Date.now()));
      });
      outcomes.set(status, (outcomes.get(status) ?? 0) + 1);
    }
  };
  const sampler = (async () => {
    while (Date.now() < until) {
      await sample().catch(() => undefined);
      await sleep(250);
    }
  })();
  await Promise.all([...Array.from({ length: n }, one), sampler]);
  return outcomes;
}

/** Item 3: dripping and silent sockets that reconnect when closed, for as long as `stop` is not called. */
function connectionAttackers(port: string, dripping: number, silent: number): { stop(): void; opened(): number } {
  let stopping = false;
  let opened = 0;
  const open = new Set<net.Socket>();
  const attacker = (drips: boolean) => {
    if (stopping) return;
    const socket = net.connect(Number(port), '127.0.0.1');
    opened++;
    open.add(socket);
    let drip: NodeJS.Timeout | undefined;
    socket.on('error', () => {});
    socket.on('connect', () => {
      if (!drips) return;
      socket.write('POST /hooks/inferenceservice/sync HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n');
      drip = setInterval(() => socket.writable && socket.write('x'), 1000);
    });
    socket.once('close', () => {
      clearInterval(drip);
      open.delete(socket);
      setTimeout(() => attacker(drips), 100);
    });
  };
  for (let i = 0; i < dripping; i++) attacker(true);
  for (let i = 0; i < silent; i++) attacker(false);
  return {
    opened: () => opened,
    stop: () => {
      stopping = true;
      for (const s of open) s.destroy();
    },
  };
}

/** Item 4: `n` concurrent distinct 2 MB syncs from `flood` for `seconds` (test/soak/tenant-flood.ts), while `quiet` syncs (each distinct) every 100 ms. */
async function flood(port: string, n: number, seconds: number, sample: () => Promise<void>): Promise<{ quiet: number[]; statuses: Map<string, number> }> {
  const statuses = new Map<string, number>();
  const count = (k: string, by = 1) => statuses.set(k, (statuses.get(k) ?? 0) + by);
  const flooders =
    n === 0
      ? undefined
      : fork(path.join(import.meta.dirname, 'tenant-flood.ts'), [port, TOKEN, String(n), String(seconds)], {
          execArgv: ['--import', 'tsx'],
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
  const floodDone = new Promise<void>((resolve) => {
    if (flooders === undefined) return resolve();
    flooders.on('message', (m) => {
      if (typeof m === 'object' && m !== null) for (const [status, k] of Object.entries(m)) count(`flood ${status}`, k as number);
    });
    flooders.once('exit', () => resolve());
  });
  if (flooders) await new Promise((r) => flooders.once('message', r));
  const until = Date.now() + seconds * 1000;
  const quiet: number[] = [];
  const quietClient = async () => {
    await sleep(1000);
    let i = 0;
    while (Date.now() < until) {
      const res = await post(port, '/hooks/inferenceservice/sync', syncBody(isvc('quiet', `quiet-${n}-${i++}`)));
      count(`quiet ${res.status || res.error}`);
      quiet.push(res.ms);
      await sleep(100);
    }
  };
  const sampler = (async () => {
    while (Date.now() < until) {
      await sample().catch(() => undefined);
      await sleep(500);
    }
  })();
  await Promise.all([quietClient(), sampler, floodDone]);
  return { quiet, statuses };
}

/** One InferenceService of 40,000 containers (about 1.2 MB), while `quiet` syncs every 100 ms. */
async function hugeParent(port: string): Promise<{ huge: Answer & { error?: string }; quiet: number[] }> {
  const containers = Array.from({ length: 40_000 }, (_, i) => ({ name: `c${i}`, image: 'example.com/sidecar:1' }));
  const body = syncBody(isvc('huge', 'huge', {}, { containers }));
  console.log(`tenant-attacks: the huge parent's body is ${MiB(Buffer.byteLength(body))} (${Buffer.byteLength(body)} bytes)`);
  let done = false;
  const quiet: number[] = [];
  const quietClient = async () => {
    let i = 0;
    while (!done) {
      const res = await post(port, '/hooks/inferenceservice/sync', syncBody(isvc('quiet', `huge-quiet-${i++}`)));
      quiet.push(res.status === 200 ? res.ms : Number.POSITIVE_INFINITY);
      await sleep(100);
    }
  };
  const running = quietClient();
  await sleep(300);
  const huge = await post(port, '/hooks/inferenceservice/sync', body);
  await sleep(300);
  done = true;
  await running;
  return { huge, quiet };
}

async function main(server: SoakServer, healthPort: string): Promise<number> {
  const { port } = server;
  const { peak, sample } = memoryPeaks(healthPort);
  const started = Date.now();

  if (ITEMS.has('1')) await untrustedObjects(port);

  for (const n of ITEMS.has('2') ? [16, 32, 64] : []) {
    const before = peak.rss;
    const outcomes = await slowPosts(port, n, 8, sample);
    await sample();
    check(
      server.exited() === undefined && peak.rss < MEMORY_LIMIT,
      `item 2: ${n} slow POSTs announcing 16 MiB for 8 s: ${[...outcomes].map(([s, k]) => `${k}× ${s}`).join(', ')}; peak RSS ${MiB(peak.rss)} (was ${MiB(before)}; limit ${MiB(MEMORY_LIMIT)})`,
    );
    await sleep(1000);
  }

  if (ITEMS.has('3')) {
    // The authenticated client keeps its connection alive, as Metacontroller's Go client does: a
    // connection that has completed a request is never closed to make room (connections.ts).
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const attackers = connectionAttackers(port, 260, 300);
    await sleep(2000);
    const syncs: (Answer & { error?: string })[] = [];
    const probes: (Answer & { error?: string })[] = [];
    const until = Date.now() + 15_000;
    while (Date.now() < until) {
      syncs.push(await post(port, '/hooks/trustyai/sync', syncBody(trusty('team-a', `conn-${syncs.length}`)), TOKEN, agent));
      probes.push(await get(healthPort, '/healthz'));
      await sleep(100);
    }
    const opened = attackers.opened();
    attackers.stop();
    agent.destroy();
    const ok = syncs.filter((r) => r.status === 200).length;
    const probesOk = probes.filter((r) => r.status === 200).length;
    const resets = [...syncs, ...probes].filter((r) => r.status === 0);
    check(
      ok === syncs.length && probesOk === probes.length && resets.length === 0,
      `item 3: 260 dripping and 300 silent sockets (${opened} connections opened in all): ${ok}/${syncs.length} authenticated syncs 200 ` +
        `(p99 ${quantile(
          syncs.map((r) => r.ms),
          0.99,
        ).toFixed(0)} ms), ${probesOk}/${probes.length} probes 200, ${resets.length} resets`,
    );
    await sleep(1000);
  }

  const load = externalLoadPerCore();
  const bound = P99_LIMIT_MS * load;
  const boundText = `${P99_LIMIT_MS} ms${load > 1 ? ` × a load of ${load.toFixed(1)} per core from other work = ${bound.toFixed(0)} ms` : ''}`;
  if (ITEMS.has('4')) {
    // The same syncs of another namespace without a flood: what this machine gives them.
    const { quiet } = await flood(port, 0, 6, sample);
    console.log(
      `tenant-attacks: another namespace's sync without a flood: p50 ${quantile(quiet, 0.5).toFixed(0)} ms, p99 ${quantile(quiet, 0.99).toFixed(0)} ms (load ${os.loadavg()[0]?.toFixed(1)})`,
    );
  }
  for (const n of ITEMS.has('4') ? (process.env.SOAK_FLOODS ?? '16,48').split(',').map(Number) : []) {
    const { quiet, statuses } = await flood(port, n, 15, sample);
    const p50 = quantile(quiet, 0.5);
    const p99 = quantile(quiet, 0.99);
    const quietFailed = [...statuses].filter(([k]) => k.startsWith('quiet') && k !== 'quiet 200').reduce((a, [, v]) => a + v, 0);
    const errors = [...statuses].filter(([k]) => /\b(5\d\d)\b/.test(k) && !k.endsWith(' 503')).reduce((a, [, v]) => a + v, 0);
    check(
      quietFailed === 0 && errors === 0 && server.exited() === undefined && peak.rss < MEMORY_LIMIT && p99 <= bound,
      `item 4: ${n} concurrent 2 MB syncs from one namespace for 15 s (${[...statuses].map(([k, v]) => `${v}× ${k}`).join(', ')}): ` +
        `every sync of another namespace answered, p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms (bound ${boundText}; load now ${os.loadavg()[0]?.toFixed(1)}), ` +
        `no 5xx but the budget's 503, peak RSS ${MiB(peak.rss)}`,
    );
    await sleep(1000);
  }

  if (ITEMS.has('4')) {
    const { huge, quiet } = await hugeParent(port);
    const p99 = quantile(quiet, 0.99);
    check(
      huge.status === 200 && server.exited() === undefined && p99 <= bound,
      `item 4: one parent of 40,000 containers: ${huge.status} in ${huge.ms.toFixed(0)} ms; another namespace's sync meanwhile: ` +
        `${quiet.length} syncs, p99 ${Number.isFinite(p99) ? `${p99.toFixed(0)} ms` : 'failed'}, max ${Math.max(...quiet).toFixed(0)} ms (bound ${boundText})`,
    );
  }

  await sample().catch(() => undefined);
  const died = server.exited() !== undefined;
  await server.stop();
  console.log(
    `tenant-attacks: ${((Date.now() - started) / 1000).toFixed(0)} s; peak RSS ${MiB(peak.rss)}, peak heap used ${MiB(peak.heap)} (limit ${MiB(MEMORY_LIMIT)}); ` +
      `${died ? 'the server DIED' : 'the server stayed up'}`,
  );
  const passed = !died && failures.length === 0;
  console.log(`tenant-attacks: ${passed ? 'passed' : `FAILED: ${failures.length} of the bounds did not hold`}`);
  return passed ? 0 : 1;
}

const healthPort = String(await freePort());
runSoak(
  {
    // The Deployment's node flags and settings (probes and /metrics on their own port), with a bearer token.
    nodeFlags: [...shippedNodeFlags(ROOT), ...(process.env.SOAK_NODE_FLAGS ?? '').split(' ').filter(Boolean)],
    env: { MODELHOOKS_TOKEN_FILE: tokenFile, MODELHOOKS_METRICS_PORT: healthPort, MODELHOOKS_MODELMESH_NAMESPACE: 'modelmesh-serving' },
    healthPort,
  },
  (server) => main(server, healthPort),
);
