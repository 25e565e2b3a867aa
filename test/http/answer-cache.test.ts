/**
 * The answer cache's key is the SHA-256 of the request body (a digest no tenant can collide
 * on purpose), and the cache keeps answers, never the request bodies: these tests send the
 * same and other bytes, whole and in pieces, through the hook route.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import { digestOf, hookAnswerer } from '../../hooks/server/hook-answer.js';
import { hookRoute } from '../../hooks/server/hook-route.js';
import { bindHookMetrics, createMetrics } from '../../hooks/server/metrics.js';
import { createLogger } from '../../hooks/server/app.js';
import { syncRequest } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';

const parentNamed = (name: string) => ({
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  // Names of one length: the bodies have the same length, as a real collision would.
  metadata: { name, namespace: 'team-a', generation: 1 },
  spec: { storage: { format: 'PVC' }, metrics: { schedule: '5s' } },
});
const bodyOf = (name: string) => JSON.stringify(syncRequest(trustyai, { parent: parentNamed(name) }));

interface Answer {
  status: number;
  etag: string | undefined;
  body: string;
}

let servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers) s.close();
  servers = [];
});

async function serve() {
  const config = loadConfig({ MODELHOOKS_LOG_LEVEL: 'silent' });
  const logger = createLogger('silent');
  const metrics = createMetrics();
  const answerer = hookAnswerer({ config, metrics, logger, now: () => '2026-05-05T05:05:05Z' });
  const route = hookRoute({
    byName: new Map(builtinCompositions.map((c) => [c.name, c])),
    answerer,
    metrics: bindHookMetrics(metrics),
    logger,
    token: undefined,
    limit: 1 << 20,
    limitText: '1mb',
  });
  const server = http.createServer((req, res) => route(req, res, '/hooks/trustyai/sync'));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  /** POSTs the body to /hooks/trustyai/sync, in `writes` pieces a few ms apart. */
  const post = (body: string, writes = 1, headers: Record<string, string> = {}): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const bytes = Buffer.from(body);
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/hooks/trustyai/sync',
          agent: false,
          headers: { 'content-length': String(bytes.length), ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag, body: Buffer.concat(chunks).toString() }));
        },
      );
      req.on('error', reject);
      const size = Math.ceil(bytes.length / writes);
      const write = (from: number) => {
        if (from + size >= bytes.length) return void req.end(bytes.subarray(from));
        req.write(bytes.subarray(from, from + size));
        setTimeout(() => write(from + size), 5);
      };
      req.flushHeaders();
      write(0);
    });
  const outcomes = async () => {
    const text = await metrics.registry.getSingleMetricAsString('modelhooks_hook_requests_total');
    return Object.fromEntries([...text.matchAll(/outcome="(\w+)"\} (\d+)/g)].map((m) => [m[1], Number(m[2])]));
  };
  return { post, outcomes, answerer, metrics };
}

const named = (answer: Answer) =>
  (JSON.parse(answer.body) as { children: { metadata: { labels?: Record<string, string> } }[] }).children.map((c) => JSON.stringify(c)).join();

describe('the answer cache is keyed by a digest of the body', () => {
  it('the same bytes hit (and 304 with the ETag), other bytes get their own answer', async () => {
    const { post, outcomes } = await serve();
    const [a, b] = [bodyOf('svc-a'), bodyOf('svc-b')];
    expect(a.length).toBe(b.length);
    expect(digestOf(Buffer.from(a))).not.toBe(digestOf(Buffer.from(b)));
    expect(digestOf(Buffer.from(a))).toBe(digestOf(Buffer.from(bodyOf('svc-a'))));
    const first = await post(a);
    const again = await post(a);
    expect(again.body).toBe(first.body);
    expect((await post(a, 1, { 'if-none-match': first.etag as string })).status).toBe(304);
    const other = await post(b);
    expect(other.etag).not.toBe(first.etag);
    expect(named(other)).toContain('svc-b');
    expect(named(other)).not.toContain('svc-a');
    // Nor does a's ETag make b's request a 304.
    expect((await post(b, 1, { 'if-none-match': first.etag as string })).status).toBe(200);
    expect(await outcomes()).toEqual({ ok: 2, cached: 2, not_modified: 1 });
  });

  it('a body that arrives in several pieces is read whole: the same bytes in one piece hit', async () => {
    const { post, outcomes } = await serve();
    const a = bodyOf('svc-a');
    const pieces = await post(a, 4);
    const whole = await post(a);
    expect([pieces.status, whole.body]).toEqual([200, pieces.body]);
    // A body differing in its last piece only is not that one.
    const tail = a.replace('"schedule":"5s"', '"schedule":"6s"');
    expect(tail.indexOf('"6s"')).toBeGreaterThan((a.length * 3) / 4);
    expect((await post(tail, 4)).status).toBe(200);
    expect(await outcomes()).toEqual({ ok: 2, cached: 1 });
  });

  it('holds the answer, not the request body, in its bytes (MODELHOOKS_CACHE_BYTES)', async () => {
    const { post, answerer } = await serve();
    // A large request whose answer is small: 64 KB of managedFields, which no child carries.
    const parent = { ...parentNamed('svc-a'), metadata: { ...parentNamed('svc-a').metadata, managedFields: [{ manager: 'x'.repeat(64 * 1024) }] } };
    const big = JSON.stringify(syncRequest(trustyai, { parent }));
    const answer = await post(big);
    expect(answer.status).toBe(200);
    expect(answer.body).not.toContain('xxxx');
    const held = answerer.cache.bytes;
    expect(held).toBeGreaterThanOrEqual(Buffer.byteLength(answer.body));
    expect(held).toBeLessThan(Buffer.byteLength(answer.body) + 1024);
    expect(Buffer.byteLength(big)).toBeGreaterThan(held + 50 * 1024);
  });
});
