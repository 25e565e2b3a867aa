/**
 * A timeout on every phase of a connection, and slots that sockets proving nothing cannot
 * hold (hooks/server/connections.ts, hooks/server/listen.ts). Timeouts are set short through the
 * environment; each case asserts what happens (the socket is closed, the client is served),
 * never how long it took.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import { listen, type Listeners } from '../../hooks/server/listen.js';
import { createApp, createLogger } from '../../hooks/server/app.js';
import { syncRequest } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';
import { certificates } from '../support/certificates.js';

const logger = createLogger('silent');
const body = JSON.stringify(
  syncRequest(trustyai, {
    parent: {
      apiVersion: 'trustyai.opendatahub.io/v1',
      kind: 'TrustyAIService',
      metadata: { name: 's', namespace: 'ns' },
      spec: { storage: { format: 'PVC' }, metrics: { schedule: '5s' } },
    },
  }),
);
const SHORT = {
  MODELHOOKS_HOST: '127.0.0.1',
  PORT: '1',
  MODELHOOKS_DRAIN_SECONDS: '0',
  MODELHOOKS_HANDSHAKE_TIMEOUT_SECONDS: '0.3',
  MODELHOOKS_HEADERS_TIMEOUT_SECONDS: '0.3',
  MODELHOOKS_REQUEST_TIMEOUT_SECONDS: '0.6',
  MODELHOOKS_KEEPALIVE_TIMEOUT_SECONDS: '0.3',
};
let dir = '';
let certs: ReturnType<typeof certificates>;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'modelhooks-conn-'));
  certs = certificates(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let running: Listeners | undefined;
afterEach(async () => {
  running?.main.closeAllConnections();
  await running?.shutdown();
  running = undefined;
});

async function serve(env: Record<string, string>, token?: string): Promise<{ port: number; listeners: Listeners }> {
  const config = loadConfig({ ...SHORT, ...env });
  const app = createApp({ compositions: builtinCompositions, config, logger, ...(token ? { token: { current: () => token } } : {}) });
  const listeners = await listen(app, undefined, { ...config, port: 0 }, logger, {
    draining: false,
  });
  running = listeners;
  return { port: (listeners.main.address() as net.AddressInfo).port, listeners };
}
const mtls = () => ({
  MODELHOOKS_TLS_CERT_FILE: certs.file('server.crt'),
  MODELHOOKS_TLS_KEY_FILE: certs.file('server.key'),
  MODELHOOKS_CLIENT_CA_FILE: certs.file('ca.crt'),
  MODELHOOKS_METRICS_PORT: '2',
});

/** A raw socket, resolved once connected; `closed` settles when the server closes it. */
async function rawSocket(port: number): Promise<{ socket: net.Socket; closed: Promise<void> }> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  await new Promise((r) => socket.once('connect', r));
  return { socket, closed };
}

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 10));
}

function post(port: number, options: { secure?: boolean; agent?: http.Agent } = {}): Promise<number> {
  const client = options.secure ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/hooks/trustyai/sync',
        headers: { 'content-type': 'application/json' },
        ...(options.agent ? { agent: options.agent } : {}),
        ...(options.secure ? { ca: certs.ca, cert: certs.client.cert, key: certs.client.key } : {}),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('a timeout on every phase of a connection', () => {
  it('plain: a socket that never sends a request is closed (headers timeout from the connection)', async () => {
    const { port } = await serve({});
    const { closed } = await rawSocket(port);
    await closed;
  });

  it('plain: headers that never end are closed', async () => {
    const { port } = await serve({});
    const { socket, closed } = await rawSocket(port);
    socket.write('POST /hooks/trustyai/sync HTTP/1.1\r\nHost: x\r\n');
    const drip = setInterval(() => socket.writable && socket.write('X'), 50);
    await closed;
    clearInterval(drip);
  });

  it('plain: a body that never ends is answered 408 and closed (request timeout)', async () => {
    const { port } = await serve({});
    const { socket, closed } = await rawSocket(port);
    let answer = '';
    socket.on('data', (d) => (answer += String(d)));
    socket.write('POST /hooks/trustyai/sync HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
    const drip = setInterval(() => socket.writable && socket.write(' '), 50);
    await closed;
    clearInterval(drip);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('plain: an idle keep-alive connection is closed after its request (keep-alive timeout)', async () => {
    const { port } = await serve({});
    const { socket, closed } = await rawSocket(port);
    let answer = '';
    socket.on('data', (d) => (answer += String(d)));
    socket.write(
      `POST /hooks/trustyai/sync HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('TLS: a socket that never starts its handshake is closed (handshake timeout)', async () => {
    const { port } = await serve(mtls());
    const { closed } = await rawSocket(port);
    await closed;
  });

  it('TLS: a socket past its handshake that never sends a request is closed', async () => {
    const { port } = await serve(mtls());
    const socket = tls.connect({ port, host: '127.0.0.1', ca: certs.ca, cert: certs.client.cert, key: certs.client.key });
    socket.on('error', () => {});
    await new Promise((r) => socket.once('secureConnect', r));
    await new Promise((r) => socket.once('close', r));
  });
});

describe('connection slots (MODELHOOKS_MAX_CONNECTIONS): sockets that prove nothing cannot keep a client out', () => {
  const SLOTS = {
    MODELHOOKS_MAX_CONNECTIONS: '4',
    MODELHOOKS_MAX_PENDING_CONNECTIONS: '2',
    MODELHOOKS_HANDSHAKE_TIMEOUT_SECONDS: '30',
    MODELHOOKS_HEADERS_TIMEOUT_SECONDS: '30',
    MODELHOOKS_REQUEST_TIMEOUT_SECONDS: '30',
    MODELHOOKS_KEEPALIVE_TIMEOUT_SECONDS: '30',
  };

  it('mutual TLS: never-handshaking sockets beyond the pending budget are closed oldest first, and a real client is served', async () => {
    const { port, listeners } = await serve({ ...mtls(), ...SLOTS });
    const silent = await Promise.all(Array.from({ length: 6 }, () => rawSocket(port)));
    // Six arrived; at most two pending at a time: the four oldest were closed.
    await Promise.all(silent.slice(0, 4).map((s) => s.closed));
    expect(await post(port, { secure: true })).toBe(200);
    expect(listeners.connections().evicted.unproven).toBeGreaterThanOrEqual(4);
    for (const { socket } of silent) socket.destroy();
  });

  it('plain: silent sockets holding every slot make room for a new client', async () => {
    const { port } = await serve({ ...SLOTS, MODELHOOKS_MAX_PENDING_CONNECTIONS: '4' });
    const silent = await Promise.all(Array.from({ length: 4 }, () => rawSocket(port)));
    expect(await post(port)).toBe(200);
    await silent[0]?.closed;
  });

  it('idle keep-alive connections make room when the slots are full; busy ones never do, a new socket is refused instead', async () => {
    const { port, listeners } = await serve(SLOTS);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const agents = Array.from({ length: 4 }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
    for (const a of agents) expect(await post(port, { agent: a })).toBe(200);
    expect(listeners.connections().idle).toBe(4);
    expect(await post(port, { agent })).toBe(200);
    expect(listeners.connections().evicted.idle).toBe(1);

    // Four clients that have each completed a request start one whose body never ends: busy, never closed to make room.
    const held: net.Socket[] = [];
    for (let i = 1; i <= 4; i++) {
      const { socket } = await rawSocket(port);
      const answered = new Promise((r) => socket.once('data', r));
      socket.write(`POST /hooks/trustyai/sync HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      await answered;
      socket.write('POST /hooks/trustyai/sync HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{');
      held.push(socket);
      await until(() => listeners.connections().busy === i);
    }
    expect(listeners.connections()).toMatchObject({ busy: 4, reading: 0, idle: 0, unproven: 0 });
    const refused = await rawSocket(port);
    await refused.closed;
    expect(listeners.connections().refused).toBe(1);
    for (const a of [agent, ...agents]) a.destroy();
    for (const socket of held) socket.destroy();
  });

  it('unfinished requests of sockets that never completed one are closed first, oldest first, before idle clients', async () => {
    const { port, listeners } = await serve(SLOTS);
    // A client that has completed a request, now idle on its keep-alive connection.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect(await post(port, { agent })).toBe(200);
    // Three sockets that send a request head, then nothing of the body they announce.
    const dripping = [];
    for (let i = 1; i <= 3; i++) {
      const s = await rawSocket(port);
      s.socket.write('POST /hooks/trustyai/sync HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{');
      dripping.push(s);
      await until(() => listeners.connections().reading === i);
    }
    expect(listeners.connections()).toMatchObject({ reading: 3, idle: 1 });
    // Every slot is taken: each new socket closes the oldest unfinished request, never the idle client.
    const fresh = await rawSocket(port);
    await dripping[0]?.closed;
    expect(listeners.connections()).toMatchObject({ evicted: { reading: 1, idle: 0 }, idle: 1 });
    expect(await post(port, { agent })).toBe(200);
    expect(listeners.connections().evicted.idle).toBe(0);
    fresh.socket.destroy();
    for (const { socket } of dripping) socket.destroy();
    agent.destroy();
  });

  it('a request with the bearer token is trusted at once: a new socket never closes it to make room', async () => {
    const { port, listeners } = await serve({ ...SLOTS, MODELHOOKS_MAX_CONNECTIONS: '1', MODELHOOKS_MAX_PENDING_CONNECTIONS: '1' }, 'tok');
    const { socket } = await rawSocket(port);
    socket.write('POST /hooks/trustyai/sync HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok\r\nContent-Length: 100\r\n\r\n{');
    await until(() => listeners.connections().busy === 1);
    const refused = await rawSocket(port);
    await refused.closed;
    expect(listeners.connections()).toMatchObject({ busy: 1, refused: 1 });
    socket.destroy();
  });
});
