/**
 * The direct hook route (hooks/server/hook-route.ts) against express's route: the same table of
 * requests, sent byte for byte over real sockets to an app with it and to one without it,
 * must get the same status, headers (names, case and order; all but Date), body, metrics
 * and log lines. A second table says which requests the direct route takes at all.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import { hookAnswerer, matchesEtag } from '../../hooks/server/hook-answer.js';
import { directHookRoute } from '../../hooks/server/hook-route.js';
import { defineComposition } from '../../hooks/kit/index.js';
import { bindHookMetrics, createMetrics } from '../../hooks/server/metrics.js';
import { createApp, createLogger, type ServerState } from '../../hooks/server/app.js';
import { syncRequest } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';

const NOW = '2026-05-05T05:05:05Z';
const TOKEN = 's3cret';
const parent = {
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  metadata: { name: 'svc', namespace: 'team-a', generation: 1 },
  spec: { storage: { format: 'PVC' }, metrics: { schedule: '5s' } },
};
const invalid = { ...parent, metadata: { ...parent.metadata, name: 'bad' }, spec: { storage: { format: 'S3' }, metrics: { schedule: '5s' } } };
const sync = JSON.stringify(syncRequest(trustyai, { parent }));
const broken = defineComposition({
  name: 'broken',
  parent: { group: 'x.dev', kind: 'X', plural: 'xs', singular: 'x', versions: ['v1'] },
  spec: z.object({}),
  children: [],
  sync: () => {
    throw new TypeError('boom');
  },
});
const compositions = [broken, ...builtinCompositions];

interface Sent {
  method?: string;
  path: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Send the body chunked, without Content-Length. */
  chunked?: boolean;
  /** Send the body (with its Content-Length) in this many writes, a tick apart. */
  writes?: number;
  /** Leave out the Authorization header. */
  anonymous?: boolean;
}
interface Got {
  status: number;
  headers: string[];
  body: string;
}

interface Side {
  server: http.Server;
  lines: Record<string, unknown>[];
  metrics: ReturnType<typeof createMetrics>;
  state: ServerState;
}

async function start(direct: boolean): Promise<Side> {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('info', { write: (l: string) => void lines.push(JSON.parse(l)) });
  const metrics = createMetrics();
  const state = { draining: false };
  const config = loadConfig({ MODELHOOKS_LOG_LEVEL: 'info', MODELHOOKS_BODY_LIMIT: '8kb' });
  const app = createApp({ compositions, config, logger, metrics, state, now: () => NOW, token: { current: () => TOKEN }, directHookRoute: direct });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, lines, metrics, state };
}

function send(side: Side, s: Sent): Promise<Got> {
  const { port } = side.server.address() as AddressInfo;
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

const brokenBody = JSON.stringify({ parent: { apiVersion: 'x.dev/v1', kind: 'X', metadata: { name: 'p', namespace: 'ns' }, spec: {} } });
/** Requests in order (the cache fills as they go); an `etag` body asks with the ETag of the first answer. */
const TABLE: Array<[string, Sent | ((etag: string) => Sent)]> = [
  ['sync, computed', { path: '/hooks/trustyai/sync', body: sync }],
  ['sync, cached', { path: '/hooks/trustyai/sync', body: sync }],
  ['If-None-Match with the ETag: 304', (etag) => ({ path: '/hooks/trustyai/sync', body: sync, headers: { 'if-none-match': etag } })],
  ['If-None-Match, weak, in a list', (etag) => ({ path: '/hooks/trustyai/sync', body: sync, headers: { 'if-none-match': `"x", W/${etag}` } })],
  ['If-None-Match stale', { path: '/hooks/trustyai/sync', body: sync, headers: { 'if-none-match': '"stale"' } }],
  ['trailing slash and a query', { path: '/hooks/trustyai/sync/?x=1', body: sync }],
  ['customize', { path: '/hooks/trustyai/customize', body: sync }],
  ['finalize', { path: '/hooks/trustyai/finalize', body: sync }],
  ['invalid spec', { path: '/hooks/trustyai/sync', body: JSON.stringify(syncRequest(trustyai, { parent: invalid })) }],
  ['invalid spec, cached', { path: '/hooks/trustyai/sync', body: JSON.stringify(syncRequest(trustyai, { parent: invalid })) }],
  ['malformed JSON', { path: '/hooks/trustyai/sync', body: '{', headers: { 'content-type': 'application/json' } }],
  ['empty body', { path: '/hooks/trustyai/sync', body: '' }],
  ['not JSON: 415', { path: '/hooks/trustyai/sync', body: sync, headers: { 'content-type': 'text/plain' } }],
  ['JSON with parameters', { path: '/hooks/trustyai/sync', body: sync, headers: { 'content-type': 'Application/JSON; charset=utf-8' } }],
  ['wrong shape', { path: '/hooks/trustyai/sync', body: '{"parent":1}' }],
  ['no namespace', { path: '/hooks/trustyai/sync', body: JSON.stringify({ parent: { ...parent, metadata: { name: 'x' } } }) }],
  ['a hook that throws', { path: '/hooks/broken/sync', body: brokenBody }],
  ['too large', { path: '/hooks/trustyai/sync', body: JSON.stringify({ ...JSON.parse(sync), padding: 'x'.repeat(9000) }) }],
  ['a Content-Length body in three writes', { path: '/hooks/trustyai/sync', body: JSON.stringify({ ...JSON.parse(sync), controller: { note: 'z'.repeat(3000) } }), writes: 3 }],
  ['chunked, within the limit', { path: '/hooks/trustyai/sync', body: sync, chunked: true }],
  ['chunked, too large', { path: '/hooks/trustyai/sync', body: 'y'.repeat(9000), chunked: true }],
  ['gzip', { path: '/hooks/trustyai/sync', body: gzipSync(sync), headers: { 'content-encoding': 'gzip' } }],
  ['unknown composition', { path: '/hooks/nope/sync', body: sync }],
  ['unknown hook', { path: '/hooks/trustyai/nope', body: sync }],
  ['extra path segment', { path: '/hooks/trustyai/sync/extra', body: sync }],
  ['upper-case path', { path: '/HOOKS/trustyai/sync', body: sync }],
  ['escaped composition', { path: '/hooks/trusty%61i/sync', body: sync }],
  ['no token', { path: '/hooks/trustyai/sync', body: sync, anonymous: true }],
  ['wrong token', { path: '/hooks/trustyai/sync', body: sync, anonymous: true, headers: { authorization: 'Bearer nope' } }],
  ['GET on a hook path', { method: 'GET', path: '/hooks/trustyai/sync' }],
  ['healthz', { method: 'GET', path: '/healthz' }],
];

describe('the direct hook route answers as express does', () => {
  let direct: Side;
  let viaExpress: Side;
  beforeAll(async () => {
    [direct, viaExpress] = await Promise.all([start(true), start(false)]);
  });
  afterAll(() => {
    direct.server.close();
    viaExpress.server.close();
  });

  it('the same status, headers and body for every request of the table, in order', async () => {
    const first = await send(direct, { path: '/hooks/trustyai/sync', body: sync });
    const etag = first.headers.find((h) => h.startsWith('ETag: '))?.slice(6) as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    await send(viaExpress, { path: '/hooks/trustyai/sync', body: sync });
    const statuses: number[] = [];
    for (const [name, row] of TABLE) {
      const sent = typeof row === 'function' ? row(etag) : row;
      const a = await send(direct, sent);
      const b = await send(viaExpress, sent);
      expect(a, name).toEqual(b);
      statuses.push(a.status);
    }
    // The table reaches every kind of answer, so the comparison above means something.
    expect(statuses).toEqual([200, 200, 304, 304, 200, 200, 200, 200, 200, 200, 400, 400, 415, 200, 400, 400, 500, 413, 200, 200, 413, 200, 404, 404, 404, 200, 200, 401, 401, 404, 200]);
  });

  it('the same metrics and log lines', async () => {
    const samples = async (side: Side) => (await side.metrics.registry.getSingleMetricAsString('modelhooks_hook_requests_total')).split('\n').sort();
    expect(await samples(direct)).toEqual(await samples(viaExpress));
    expect((await samples(direct)).some((l) => l.includes('outcome="not_modified"') && l.endsWith(' 2'))).toBe(true);
    const strip = (lines: Record<string, unknown>[]) => lines.map(({ time: _t, durationMs: _d, err, ...rest }) => ({ ...rest, err: (err as { message?: string } | undefined)?.message }));
    expect(strip(direct.lines)).toEqual(strip(viaExpress.lines));
    expect(direct.lines.map((l) => l.msg)).toContain('hook failed');
  });

  it('closes the connection of every answer while draining', async () => {
    direct.state.draining = true;
    viaExpress.state.draining = true;
    const a = await send(direct, { path: '/hooks/trustyai/sync', body: sync });
    const b = await send(viaExpress, { path: '/hooks/trustyai/sync', body: sync });
    expect(a).toEqual(b);
    expect(a.headers).toContain('Connection: close');
  });
});

describe('a client that goes away in the middle of its body', () => {
  it('costs the server nothing but that request', async () => {
    const side = await start(true);
    try {
      const { port } = side.server.address() as AddressInfo;
      await new Promise<void>((resolve) => {
        const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/hooks/trustyai/sync', headers: { authorization: `Bearer ${TOKEN}`, 'content-length': '5000' }, agent: false });
        req.on('error', () => resolve());
        req.write('{"parent":');
        setTimeout(() => req.destroy(), 20);
      });
      const after = await send(side, { path: '/hooks/trustyai/sync', body: sync });
      expect(after.status).toBe(200);
      expect(JSON.parse(after.body).children.length).toBeGreaterThan(0);
    } finally {
      side.server.close();
    }
  });
});

describe('which requests the direct route takes', () => {
  const config = loadConfig({ MODELHOOKS_LOG_LEVEL: 'silent', MODELHOOKS_BODY_LIMIT: '1kb' });
  const logger = createLogger('silent');
  const metrics = createMetrics();
  const route = (token?: string) =>
    directHookRoute({
      byName: new Map(builtinCompositions.map((c) => [c.name, c])),
      answerer: hookAnswerer({ config, metrics, logger, now: () => NOW }),
      metrics: bindHookMetrics(metrics),
      logger,
      state: { draining: false },
      token: token === undefined ? undefined : { current: () => token },
      limit: 1024,
    });
  /** A request object as far as the route reads it before taking it; it never takes one it is not given a body for. */
  const takes = (take: ReturnType<typeof route>, method: string, url: string, headers: Record<string, string>) => {
    const req = Object.assign(new http.IncomingMessage(null as never), { method, url, headers });
    const res = new http.ServerResponse(req);
    return take(req, res);
  };
  const len = { 'content-length': '100' };

  it.each([
    ['POST', '/hooks/trustyai/sync', len, true],
    ['POST', '/hooks/inferenceservice/customize/', len, true],
    ['POST', '/hooks/trustyai/finalize?x=1', len, true],
    ['POST', '/hooks/trustyai/sync', { 'content-length': '1024' }, true],
    ['POST', '/hooks/trustyai/sync', { 'content-length': '1025' }, false],
    ['POST', '/hooks/trustyai/sync', {}, false],
    ['POST', '/hooks/trustyai/sync', { 'transfer-encoding': 'chunked' }, false],
    ['POST', '/hooks/trustyai/sync', { ...len, 'content-encoding': 'gzip' }, false],
    ['POST', '/hooks/nope/sync', len, false],
    ['POST', '/hooks/trustyai/nope', len, false],
    ['POST', '/hooks/trustyai/sync/extra', len, false],
    ['POST', '/HOOKS/trustyai/sync', len, false],
    ['POST', '/hooks/trusty%61i/sync', len, false],
    ['GET', '/hooks/trustyai/sync', len, false],
    ['POST', '/healthz', len, false],
  ] as const)('%s %s %j → %s', (method, url, headers, expected) => {
    expect(takes(route(), method, url, headers)).toBe(expected);
  });

  it('leaves a request without the right token to express (which answers 401)', () => {
    expect(takes(route('t'), 'POST', '/hooks/trustyai/sync', len)).toBe(false);
    expect(takes(route('t'), 'POST', '/hooks/trustyai/sync', { ...len, authorization: 'Bearer nope' })).toBe(false);
    expect(takes(route('t'), 'POST', '/hooks/trustyai/sync', { ...len, authorization: 'Bearer t' })).toBe(true);
  });
});

describe('If-None-Match', () => {
  it.each([
    ['"a"', true],
    ['W/"a"', true],
    ['"b", "a"', true],
    ['"b",W/"a"', true],
    ['"b"', false],
    ['"a', false],
    ['*', false],
  ] as const)('%s matches "a": %s', (match, expected) => {
    expect(matchesEtag(match, '"a"')).toBe(expected);
  });
});
