/**
 * The one request path (hooks/server/app.ts, hooks/server/hook-route.ts) over real sockets,
 * byte for byte: which requests are answered and how — status, every header (names, case and
 * order; all but Date) and body — for the route's edges that the other files of test/http do
 * not reach: trailing slash and query, bodies in pieces, chunked and compressed bodies, paths
 * that are not a hook, methods, HEAD of the health routes, draining.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import { createMetrics } from '../../hooks/server/metrics.js';
import { createApp, createHealthApp, createLogger } from '../../hooks/server/app.js';
import { syncRequest } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';

const TOKEN = 's3cret';
const parent = {
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  metadata: { name: 'svc', namespace: 'team-a', generation: 1 },
  spec: { storage: { format: 'PVC' }, metrics: { schedule: '5s' } },
};
const sync = JSON.stringify(syncRequest(trustyai, { parent }));

interface Sent {
  method?: string;
  path: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Send the body chunked, without Content-Length. */
  chunked?: boolean;
  /** Send the body (with its Content-Length) in this many writes, a few ms apart. */
  writes?: number;
  anonymous?: boolean;
}
interface Got {
  status: number;
  headers: string[];
  body: string;
}

function send(server: http.Server, s: Sent): Promise<Got> {
  const { port } = server.address() as AddressInfo;
  const body = s.body === undefined ? undefined : Buffer.isBuffer(s.body) ? s.body : Buffer.from(s.body);
  const headers: Record<string, string> = { ...(s.anonymous ? {} : { authorization: `Bearer ${TOKEN}` }), ...(s.headers ?? {}) };
  if (body && !s.chunked) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: s.method ?? 'POST', path: s.path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = res.rawHeaders.filter((_, i, all) => i % 2 === 0 && all[i] !== 'Date').map((name) => `${name}: ${res.headers[name.toLowerCase()]}`);
        resolve({ status: res.statusCode ?? 0, headers: raw, body: Buffer.concat(chunks).toString() });
      });
    });
    req.on('error', reject);
    if (body && s.chunked) {
      req.write(body.subarray(0, 10));
      req.end(body.subarray(10));
    } else if (body && s.writes) {
      const size = Math.ceil(body.length / s.writes);
      const write = (from: number) => {
        if (from + size >= body.length) return void req.end(body.subarray(from));
        req.write(body.subarray(from, from + size));
        setTimeout(() => write(from + size), 5);
      };
      req.flushHeaders();
      write(0);
    } else req.end(body);
  });
}

/** The headers of a plain-text answer of `text`, as the client sees them (agent: false closes). */
const textHeaders = (text: string, ...before: string[]) => [
  ...before,
  'Content-Type: text/plain; charset=utf-8',
  `Content-Length: ${Buffer.byteLength(text)}`,
  'Connection: close',
];

let server: http.Server;
let lines: Record<string, unknown>[];
let state: { draining: boolean };
let answer: Got;
beforeAll(async () => {
  lines = [];
  state = { draining: false };
  const logger = createLogger('info', { write: (l: string) => void lines.push(JSON.parse(l)) });
  const config = loadConfig({ MODELHOOKS_LOG_LEVEL: 'info', MODELHOOKS_BODY_LIMIT: '8kb' });
  server = http.createServer(
    createApp({ compositions: builtinCompositions, config, logger, state, now: () => '2026-05-05T05:05:05Z', token: { current: () => TOKEN } }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  answer = await send(server, { path: '/hooks/trustyai/sync', body: sync });
});
afterAll(() => server.close());

describe('a hook answer', () => {
  it('is its ETag, JSON type and length, then the JSON', () => {
    expect(answer.status).toBe(200);
    const etag = answer.headers[0]?.slice('ETag: '.length) as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(answer.headers).toEqual([
      `ETag: ${etag}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(answer.body)}`,
      'Connection: close',
    ]);
    expect(JSON.parse(answer.body).children.length).toBeGreaterThan(0);
  });

  it.each<[string, Sent]>([
    ['a trailing slash and a query', { path: '/hooks/trustyai/sync/?x=1', body: sync }],
    ['a Content-Length body in three writes', { path: '/hooks/trustyai/sync', body: sync, writes: 3 }],
    ['a chunked body', { path: '/hooks/trustyai/sync', body: sync, chunked: true }],
    ['a gzip body', { path: '/hooks/trustyai/sync', body: gzipSync(sync), headers: { 'content-encoding': 'gzip' } }],
    ['a deflate body', { path: '/hooks/trustyai/sync', body: deflateSync(sync), headers: { 'content-encoding': 'Deflate' } }],
    ['JSON with parameters', { path: '/hooks/trustyai/sync', body: sync, headers: { 'content-type': 'Application/JSON; charset=utf-8' } }],
  ])('is the same for %s', async (_, sent) => {
    expect(await send(server, sent)).toEqual(answer);
  });

  it('is 304 with only its ETag for If-None-Match holding it, weak or in a list', async () => {
    const etag = answer.headers[0]?.slice('ETag: '.length) as string;
    for (const match of [etag, `"x", W/${etag}`]) {
      expect(await send(server, { path: '/hooks/trustyai/sync', body: sync, headers: { 'if-none-match': match } })).toEqual({
        status: 304,
        headers: [`ETag: ${etag}`, 'Connection: close'],
        body: '',
      });
    }
  });
});

describe('refusals: plain text, one log line each', () => {
  const large = JSON.stringify({ ...JSON.parse(sync), padding: 'x'.repeat(9000) });
  it.each<[string, Sent, number, string]>([
    ['no token', { path: '/hooks/trustyai/sync', body: sync, anonymous: true }, 401, 'a bearer token is required (MODELHOOKS_TOKEN_FILE)'],
    ['no token, not even a hook route', { method: 'GET', path: '/hooks', anonymous: true }, 401, 'a bearer token is required (MODELHOOKS_TOKEN_FILE)'],
    ['GET on a hook path', { method: 'GET', path: '/hooks/trustyai/sync' }, 404, 'not found'],
    ['an extra path segment', { path: '/hooks/trustyai/sync/extra', body: sync }, 404, 'not found'],
    ['an upper-case path (matched as sent)', { path: '/HOOKS/trustyai/sync', body: sync, anonymous: true }, 404, 'not found'],
    [
      'an escaped composition (not decoded)',
      { path: '/hooks/trusty%61i/sync', body: sync },
      404,
      'unknown composition "trusty%61i"; known: trustyai, tfserv, mlmodel, inferenceservice, inferencegraph',
    ],
    [
      'an unknown hook',
      { path: '/hooks/trustyai/nope', body: sync },
      404,
      'unknown hook "nope"; hooks are sync, customize, finalize, decorator-sync, decorator-customize',
    ],
    ['another path', { method: 'GET', path: '/nope' }, 404, 'not found'],
    ['POST on a health route', { path: '/healthz', body: '{}' }, 404, 'not found'],
    ['OPTIONS', { method: 'OPTIONS', path: '/healthz' }, 404, 'not found'],
    [
      'not JSON',
      { path: '/hooks/trustyai/sync', body: sync, headers: { 'content-type': 'text/plain' } },
      415,
      'body: Content-Type text/plain is not JSON; hooks take application/json',
    ],
    [
      'an unknown encoding',
      { path: '/hooks/trustyai/sync', body: sync, headers: { 'content-encoding': 'zip' } },
      415,
      'body: unsupported content encoding "zip"',
    ],
    [
      'a gzip header on a plain body',
      { path: '/hooks/trustyai/sync', body: sync, headers: { 'content-encoding': 'gzip' } },
      400,
      'body: incorrect header check',
    ],
    ['no body', { path: '/hooks/trustyai/sync' }, 400, 'body: malformed JSON (Unexpected end of JSON input)'],
    ['too large by its Content-Length', { path: '/hooks/trustyai/sync', body: large }, 413, 'body: larger than the limit of 8kb (MODELHOOKS_BODY_LIMIT)'],
    ['too large, chunked', { path: '/hooks/trustyai/sync', body: large, chunked: true }, 413, 'body: larger than the limit of 8kb (MODELHOOKS_BODY_LIMIT)'],
    [
      'too large once inflated',
      { path: '/hooks/trustyai/sync', body: gzipSync(large), headers: { 'content-encoding': 'gzip' } },
      413,
      'body: larger than the limit of 8kb (MODELHOOKS_BODY_LIMIT)',
    ],
  ])('%s', async (_, sent, status, text) => {
    const before = lines.length;
    const got = await send(server, sent);
    expect(got).toEqual({ status, headers: textHeaders(text, ...(status === 401 ? ['WWW-Authenticate: Bearer'] : [])), body: text });
    expect(lines.slice(before).map((l) => [l.msg, l.status, l.reason])).toEqual([['request refused', status, text]]);
  });

  it('a client that goes away in the middle of its body costs nothing but that request', async () => {
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/hooks/trustyai/sync',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-length': '5000' },
        agent: false,
      });
      req.on('error', () => resolve());
      req.write('{"parent":');
      setTimeout(() => req.destroy(), 20);
    });
    expect(await send(server, { path: '/hooks/trustyai/sync', body: sync })).toEqual(answer);
  });
});

describe('health routes', () => {
  it('answer GET and HEAD (no body), with or without a trailing slash', async () => {
    expect(await send(server, { method: 'GET', path: '/healthz' })).toEqual({ status: 200, headers: textHeaders('ok'), body: 'ok' });
    expect(await send(server, { method: 'HEAD', path: '/readyz/' })).toEqual({ status: 200, headers: textHeaders('ok'), body: '' });
    const metrics = await send(server, { method: 'GET', path: '/metrics?x=1', anonymous: true });
    expect(metrics.headers[0]).toBe('Content-Type: text/plain; version=0.0.4; charset=utf-8');
    expect(metrics.body).toContain('modelhooks_hook_requests_total{composition="trustyai",hook="sync",outcome="ok"} 1');
  });

  it('on their own port: the same, and 404 for anything else, hooks included', async () => {
    const health = createHealthApp(createMetrics(), { draining: true }).listen(0, '127.0.0.1');
    await new Promise((resolve) => health.once('listening', resolve));
    try {
      // Draining: Connection: close is set first, so it comes first.
      const closing = (text: string) => ['Connection: close', 'Content-Type: text/plain; charset=utf-8', `Content-Length: ${text.length}`];
      expect(await send(health, { method: 'GET', path: '/readyz' })).toEqual({ status: 503, headers: closing('draining'), body: 'draining' });
      expect(await send(health, { path: '/hooks/trustyai/sync', body: sync })).toEqual({ status: 404, headers: closing('not found'), body: 'not found' });
    } finally {
      health.close();
    }
  });
});

describe('while draining', () => {
  it('every answer closes its connection, a keep-alive client’s too', async () => {
    state.draining = true;
    try {
      const { port } = server.address() as AddressInfo;
      const agent = new http.Agent({ keepAlive: true });
      const connection = (path: string, method: string, body?: string) =>
        new Promise<string | undefined>((resolve, reject) => {
          const req = http.request(
            {
              host: '127.0.0.1',
              port,
              method,
              path,
              agent,
              headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-length': String(body.length) } : {}) },
            },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.headers.connection));
            },
          );
          req.on('error', reject);
          req.end(body);
        });
      expect(await connection('/hooks/trustyai/sync', 'POST', sync)).toBe('close');
      expect(await connection('/nope', 'GET')).toBe('close');
      expect(await connection('/healthz', 'GET')).toBe('close');
      agent.destroy();
    } finally {
      state.draining = false;
    }
  });
});
