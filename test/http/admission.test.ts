/**
 * Issue 32 items 2 and 4 (server/admission.ts, server/hook-route.ts): a byte budget for the
 * bodies in flight, reserved before reading and refused with 503 + Retry-After at once; a
 * minimum data rate for bodies; one queue per namespace, served round-robin, the heaviest
 * namespace's newest request shed first when the budget is short.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ByteBudget, ComputePool, FairQueue, type QueuedJob } from '../../hooks/server/admission.js';
import { builtinCompositions } from '../../hooks/compositions.js';
import { createApp, createLogger } from '../../hooks/server/app.js';
import { loadConfig } from '../../hooks/server/config.js';
import { parentNamespaceOf } from '../../hooks/engine/request-json.js';
import { POOL_MIN_BYTES } from '../../hooks/server/hook-route.js';
import { syncRequest } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';

const turn = () => new Promise((r) => setImmediate(r));
const settle = async (turns = 20) => {
  for (let i = 0; i < turns; i++) await turn();
};

describe('ByteBudget', () => {
  it('reserves what fits, refuses what does not, and releases', () => {
    const budget = new ByteBudget(100);
    expect(budget.reserve(60)).toBe(true);
    expect(budget.reserve(41)).toBe(false);
    expect(budget.used).toBe(60);
    expect(budget.reserve(40)).toBe(true);
    budget.release(60);
    expect(budget.used).toBe(40);
    budget.release(100);
    expect(budget.used).toBe(0);
  });
});

describe('FairQueue', () => {
  const log: string[] = [];
  const job = (name: string, bytes = 1, onShed?: () => void): QueuedJob => ({ bytes, run: () => void log.push(name), shed: () => onShed?.() });
  afterEach(() => void (log.length = 0));

  it('runs a lone job at once, then takes turns between namespaces: another namespace waits behind only the job the flood has in progress', async () => {
    const queue = new FairQueue(100);
    queue.submit('flood', job('flood-1'));
    expect(log).toEqual(['flood-1']);
    // Arriving in the same turn of the event loop: they wait, and namespaces alternate.
    for (let i = 2; i <= 6; i++) queue.submit('flood', job(`flood-${i}`));
    queue.submit('quiet', job('quiet-1'));
    queue.submit('other', job('other-1'));
    expect(log).toEqual(['flood-1']);
    await settle();
    expect(log).toEqual(['flood-1', 'quiet-1', 'other-1', 'flood-2', 'flood-3', 'flood-4', 'flood-5', 'flood-6']);
    expect(queue.counts()).toMatchObject({ waiting: 0, namespaces: 0, ran: 8, deferred: 7 });
  });

  it('a request of another namespace, whenever it arrives, waits behind at most one job of a flood (start-time fair queuing)', async () => {
    const queue = new FairQueue(1000);
    // A flood of 50 waiting; each time a flood job runs, the flood submits another (a client that keeps 50 in flight).
    let flooded = 0;
    let flooding = true;
    const flood = (): QueuedJob => ({
      bytes: 1,
      run: () => {
        log.push('flood');
        if (flooding) queue.submit('flood', flood());
      },
      shed: () => {},
    });
    queue.submit('flood', flood());
    for (let i = 0; i < 49; i++) queue.submit('flood', flood());
    for (let round = 0; round < 5; round++) {
      // It arrives after some flood turns, at a different point each round.
      for (let t = 0; t <= round * 3; t++) await turn();
      flooded = log.length;
      queue.submit(`quiet-${round}`, job(`quiet-${round}`));
      await settle(3);
      const at = log.indexOf(`quiet-${round}`);
      expect(at).toBeGreaterThanOrEqual(flooded);
      // At most one flood job (the one whose turn was taken when it arrived) before it.
      expect(at - flooded).toBeLessThanOrEqual(1);
    }
    flooding = false;
    await settle(60);
  });

  it('a namespace that submits again as soon as its job runs does not starve one with jobs waiting', async () => {
    const queue = new FairQueue(1000);
    let eager = 0;
    const again = (): QueuedJob => ({
      bytes: 1,
      run: () => {
        log.push('eager');
        if (++eager < 20) queue.submit('eager', again());
      },
      shed: () => {},
    });
    queue.submit('eager', again());
    for (let i = 0; i < 5; i++) queue.submit('patient', job(`patient-${i}`));
    await settle(40);
    // Until the patient namespace's last job, never two of the eager one's in a row: each patient job waits behind at most one.
    const order = log
      .slice(0, log.indexOf('patient-4') + 1)
      .map((e) => (e === 'eager' ? 'e' : 'p'))
      .join('');
    expect(order).not.toContain('ee');
    expect(order.split('p').length - 1).toBe(5);
  });

  it('a pooled job waits for an idle worker while other namespaces pass it, and runs when woken', async () => {
    const queue = new FairQueue(100);
    let idle = false;
    queue.usePool({ idle: () => idle });
    queue.submit('busy', job('running'));
    queue.submit('flood', { ...job('pooled-1'), pooled: true });
    queue.submit('quiet', job('quiet-1'));
    await settle();
    expect(log).toEqual(['running', 'quiet-1']);
    expect(queue.counts()).toMatchObject({ waiting: 1 });
    idle = true;
    queue.wake();
    await settle();
    expect(log).toEqual(['running', 'quiet-1', 'pooled-1']);
    expect(queue.counts()).toMatchObject({ waiting: 0, namespaces: 0 });
  });

  it('runs one job a turn, so I/O is served between two jobs', async () => {
    const queue = new FairQueue(100);
    for (let i = 0; i < 3; i++) queue.submit('a', job(`a-${i}`));
    const between: string[] = [];
    setImmediate(() => between.push(`after ${log.length}`));
    await settle();
    expect(between).toEqual(['after 2']);
  });

  it("refuses a namespace's job beyond its queue's length, not another namespace's", () => {
    const queue = new FairQueue(2);
    expect(queue.submit('a', job('a-0'))).toBe(true);
    expect(queue.submit('a', job('a-1'))).toBe(true);
    expect(queue.submit('a', job('a-2'))).toBe(true);
    expect(queue.submit('a', job('a-3'))).toBe(false);
    expect(queue.submit('b', job('b-0'))).toBe(true);
    expect(queue.counts()).toMatchObject({ waiting: 3, refused: 1 });
  });

  it("refuses a namespace's job beyond its share of bytes, unless its queue is empty", () => {
    const queue = new FairQueue(100, 10);
    queue.submit('a', job('a-0', 50));
    expect(queue.submit('a', job('a-1', 50))).toBe(true);
    expect(queue.submit('a', job('a-2', 1))).toBe(false);
    expect(queue.submit('b', job('b-0', 9))).toBe(true);
    expect(queue.submit('b', job('b-1', 2))).toBe(false);
    expect(queue.counts()).toMatchObject({ waiting: 2, refused: 2 });
  });

  it('makes room by shedding the newest job of the namespace that holds the most waiting bytes', () => {
    const queue = new FairQueue(100);
    const budget = new ByteBudget(100);
    const shed: string[] = [];
    const held = (name: string, bytes: number) => {
      budget.reserve(bytes);
      return job(name, bytes, () => {
        shed.push(name);
        budget.release(bytes);
      });
    };
    queue.submit('a', held('running', 10));
    queue.submit('flood', held('flood-1', 30));
    queue.submit('flood', held('flood-2', 30));
    queue.submit('quiet', held('quiet-1', 20));
    budget.release(10);
    expect(budget.used).toBe(80);
    expect(queue.makeRoom(budget, 40)).toBe(true);
    expect(shed).toEqual(['flood-2']);
    expect(queue.makeRoom(budget, 100)).toBe(true);
    expect(shed).toEqual(['flood-2', 'flood-1', 'quiet-1']);
    expect(queue.makeRoom(budget, 101)).toBe(false);
  });
});

describe('parentNamespaceOf: the queue of a request, from its bytes', () => {
  it.each([
    [
      'after the controller and annotations',
      '{"controller":{"metadata":{"namespace":"x"}},"parent":{"metadata":{"annotations":{"namespace":"no"},"namespace":"yes"}}}',
      'yes',
    ],
    ['after a spec holding metadata.namespace', '{"parent":{"spec":{"metadata":{"namespace":"no"}},"metadata":{"namespace":"yes"}}}', 'yes'],
    ['past escaped quotes', '{"parent":{"metadata":{"name":"a\\\\\\"}","namespace":"yes"}}}', 'yes'],
    ['with spaces', '{ "parent" : { "metadata" : { "namespace" : "yes" } } }', 'yes'],
    ['none in the parent', '{"parent":{"metadata":{"name":"n"}},"x":{"metadata":{"namespace":"no"}}}', undefined],
    ['a parent that is not an object', '{"parent":"x","y":{"metadata":{"namespace":"no"}}}', undefined],
  ])('%s', (_what, text, want) => {
    expect(JSON.parse(text)).toBeDefined();
    expect(parentNamespaceOf(Buffer.from(text))).toBe(want);
  });
});

const TOKEN = 't0ken';
const parent = (namespace = 'team-a') => ({
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  metadata: { name: 'svc', namespace, generation: 1 },
  spec: { storage: { format: 'PVC' }, metrics: { schedule: '5s' } },
});
const sync = (namespace?: string) => JSON.stringify(syncRequest(trustyai, { parent: parent(namespace) }));

async function serve(env: Record<string, string>): Promise<{ port: number; close(): void }> {
  const config = loadConfig({ MODELHOOKS_LOG_LEVEL: 'silent', ...env });
  const app = createApp({
    compositions: builtinCompositions,
    config,
    logger: createLogger('silent'),
    token: { current: () => TOKEN },
    now: () => '2026-01-01T00:00:00Z',
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A raw HTTP exchange: the head (and what of the body is given), then what the server answers until it closes or `ms` pass. */
function raw(port: number, head: string, body = '', ms = 5000): Promise<{ text: string; closed: boolean; socket: net.Socket }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let closed = false;
    const timer = setTimeout(() => resolve({ text, closed, socket }), ms);
    socket.on('data', (d) => (text += d.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
      clearTimeout(timer);
      resolve({ text, closed, socket });
    });
    socket.write(head + body);
  });
}
const postHead = (length: number | 'chunked', auth = true) =>
  `POST /hooks/trustyai/sync HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${auth ? `Authorization: Bearer ${TOKEN}\r\n` : ''}${
    length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`
  }\r\n\r\n`;

describe('the budget over real sockets', () => {
  it('a body that would pass MODELHOOKS_INFLIGHT_BYTES: 503 with Retry-After at once, the connection closed; served again once room is made', async () => {
    const s = await serve({ MODELHOOKS_BODY_LIMIT: '64kb', MODELHOOKS_INFLIGHT_BYTES: '64kb' });
    try {
      // Announces 60 KB and sends 10 bytes: its reservation holds.
      const holder = net.connect(s.port, '127.0.0.1');
      holder.on('error', () => {});
      holder.write(`${postHead(60_000)}{"parent":`);
      await new Promise((r) => setTimeout(r, 100));
      const started = Date.now();
      const refused = await raw(s.port, postHead(10_000));
      expect(Date.now() - started).toBeLessThan(1000);
      expect(refused.closed).toBe(true);
      expect(refused.text).toMatch(/^HTTP\/1\.1 503 /);
      expect(refused.text).toContain('Retry-After: 1');
      expect(refused.text).toContain('Connection: close');
      expect(refused.text).toContain('would pass MODELHOOKS_INFLIGHT_BYTES (65536 bytes of bodies in flight, 60000 held)');
      holder.destroy();
      await new Promise((r) => setTimeout(r, 100));
      const body = sync();
      const served = await raw(s.port, postHead(Buffer.byteLength(body)), body, 1000);
      expect(served.text).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      s.close();
    }
  });

  it('a chunked body is charged as it arrives: 503 once it passes the budget', async () => {
    const s = await serve({ MODELHOOKS_BODY_LIMIT: '64kb', MODELHOOKS_INFLIGHT_BYTES: '64kb' });
    try {
      const holder = net.connect(s.port, '127.0.0.1');
      holder.on('error', () => {});
      holder.write(`${postHead(50_000)}{"parent":`);
      await new Promise((r) => setTimeout(r, 100));
      const chunk = 'x'.repeat(20_000);
      const refused = await raw(s.port, postHead('chunked'), `${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      expect(refused.text).toMatch(/^HTTP\/1\.1 503 /);
      expect(refused.text).toContain('reached MODELHOOKS_INFLIGHT_BYTES (65536) while this body was read');
      holder.destroy();
    } finally {
      s.close();
    }
  });

  it('a body slower than MODELHOOKS_MIN_DATA_RATE: 408 after its grace, and the connection closed', async () => {
    const s = await serve({ MODELHOOKS_MIN_DATA_RATE: '1kb' });
    try {
      const started = Date.now();
      const socket = net.connect(s.port, '127.0.0.1');
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('error', () => {});
      socket.write(postHead(10_000));
      const drip = setInterval(() => socket.writable && socket.write('x'), 200);
      await new Promise((r) => socket.once('close', r));
      clearInterval(drip);
      const seconds = (Date.now() - started) / 1000;
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      expect(text).toContain('arrived slower than 1024 bytes a second on average (MODELHOOKS_MIN_DATA_RATE)');
      expect(seconds).toBeGreaterThan(2);
      expect(seconds).toBeLessThan(5);
    } finally {
      s.close();
    }
  });

  it('a body at the minimum rate is read and answered', async () => {
    const s = await serve({ MODELHOOKS_MIN_DATA_RATE: '1kb' });
    try {
      // Padded (JSON allows the spaces) to 7 KB: 2 KB a second, in pieces, for about 3.5 s.
      const body = Buffer.from(sync().padEnd(7 * 1024, ' '));
      const socket = net.connect(s.port, '127.0.0.1');
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.write(postHead(body.length));
      const size = Math.ceil(body.length / 14);
      for (let from = 0; from < body.length; from += size) {
        socket.write(body.subarray(from, from + size));
        await new Promise((r) => setTimeout(r, Math.ceil((size / 2048) * 1000)));
      }
      await new Promise((r) => setTimeout(r, 200));
      expect(text).toMatch(/^HTTP\/1\.1 200 /);
      socket.destroy();
    } finally {
      s.close();
    }
  });

  it('a request refused for its token before its body is read closes its connection', async () => {
    const s = await serve({});
    try {
      const refused = await raw(s.port, postHead(1000, false), 'x');
      expect(refused.text).toMatch(/^HTTP\/1\.1 401 /);
      expect(refused.closed).toBe(true);
    } finally {
      s.close();
    }
  });

  it('a body naming two namespaces for its parent (it waited in the first one’s queue): 400', async () => {
    const s = await serve({});
    try {
      const body = sync('team-b').replace('"metadata":{"name":"svc"', '"metadata":{"namespace":"team-a","name":"svc"');
      expect(parentNamespaceOf(Buffer.from(body))).toBe('team-a');
      const res = await raw(s.port, postHead(Buffer.byteLength(body)), body, 1000);
      expect(res.text).toMatch(/^HTTP\/1\.1 400 /);
      expect(res.text).toContain('body: parent.metadata.namespace is given more than once');
    } finally {
      s.close();
    }
  });
});

describe('ComputePool (MODELHOOKS_COMPUTE_WORKERS): large requests computed in a worker thread', () => {
  it('starts a worker with the first task; a worker holds the task it computes and the next, answered in order, then takes more', async () => {
    const pool = new ComputePool(1, { hooks: loadConfig({}).hooks, namespaceSelector: loadConfig({}).namespaceSelector, memoBytes: 1 << 20 });
    const answers: string[] = [];
    const task = (name: string) => ({
      composition: 'trustyai',
      hook: 'sync' as const,
      raw: Buffer.from(name === 'a' ? '{' : '[]'),
      now: '2026-01-01T00:00:00Z',
      namespace: undefined,
      done: (c: { kind: string }) => void answers.push(`${name}:${c.kind}`),
    });
    try {
      expect(pool.idle()).toBe(true);
      expect(pool.run(task('a'))).toBe(true);
      expect(pool.idle()).toBe(true);
      expect(pool.run(task('b'))).toBe(true);
      // Two held: it takes no third until one is answered.
      expect(pool.idle()).toBe(false);
      expect(pool.run(task('c'))).toBe(false);
      const woken = new Promise<void>((resolve) => (pool.onIdle = resolve));
      await woken;
      expect(answers).toEqual(['a:refused']);
      expect(pool.idle()).toBe(true);
      await new Promise<void>((resolve) => (pool.onIdle = resolve));
      expect(answers).toEqual(['a:refused', 'b:refused']);
    } finally {
      await pool.close();
    }
  }, 30_000);

  it('answers a request of 256 KiB or more exactly as the event loop does: the same bytes and ETag', async () => {
    // A parent with a 250 KB annotation (the API server allows 256 KiB) and an observed object of 50 KB: over POOL_MIN_BYTES.
    const big = { ...parent(), metadata: { ...parent().metadata, annotations: { 'example.com/notes': 'x'.repeat(250_000) } } };
    const extra = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra', namespace: 'team-a' }, data: { notes: 'y'.repeat(50_000) } };
    const body = JSON.stringify(syncRequest(trustyai, { parent: big, observed: [extra] }));
    expect(Buffer.byteLength(body)).toBeGreaterThan(POOL_MIN_BYTES);
    const answers: string[] = [];
    for (const workers of ['1', '0']) {
      const s = await serve({ MODELHOOKS_COMPUTE_WORKERS: workers });
      try {
        const res = await raw(s.port, postHead(Buffer.byteLength(body)), body, 20_000);
        expect(res.text).toMatch(/^HTTP\/1\.1 200 /);
        answers.push(res.text.replace(/^Date: .*\r\n/m, ''));
      } finally {
        s.close();
      }
    }
    expect(answers[0]).toBe(answers[1]);
  }, 30_000);
});
