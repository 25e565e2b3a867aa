import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import { defineComposition } from '../../hooks/kit/index.js';
import { OUTCOMES, TOO_LARGE_NAMESPACES, tooLargeLabel } from '../../hooks/server/metrics.js';
import { createApp, createLogger } from '../../hooks/server/app.js';
import { syncRequest } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';

const parent = {
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  metadata: { name: 'svc', namespace: 'team-a', generation: 1 },
  spec: { storage: { format: 'PVC' }, metrics: { schedule: '5s' } },
};
const invalid = { ...parent, metadata: { ...parent.metadata, name: 'bad' }, spec: { storage: { format: 'S3' }, metrics: { schedule: '5s' } } };
const body = (p: unknown = parent) => syncRequest(trustyai, { parent: p });
const broken = defineComposition({
  name: 'broken',
  parent: { group: 'x.dev', kind: 'X', plural: 'xs', singular: 'x', versions: ['v1'] },
  spec: z.object({}),
  children: [],
  sync: () => {
    throw new TypeError('boom');
  },
});

/** An app whose log lines are collected, with a bearer token so that 401 can be reached. */
function setup(env: Record<string, string> = {}, level: 'info' | 'debug' = 'info') {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger(level, { write: (l: string) => void lines.push(JSON.parse(l)) });
  const config = loadConfig({ MODELHOOKS_LOG_LEVEL: 'info', ...env });
  const app = createApp({
    compositions: [broken, ...builtinCompositions],
    config,
    logger,
    now: () => '2026-05-05T05:05:05Z',
    token: { current: () => 's3cret' },
  });
  const post = (path: string) => request(app).post(path).set('Authorization', 'Bearer s3cret');
  const count = async (labels: string) => {
    const text = (await request(app).get('/metrics').expect(200)).text;
    const line = text.split('\n').find((l) => l.startsWith(`modelhooks_hook_requests_total{${labels}}`));
    return line === undefined ? 0 : Number(line.split(' ').at(-1));
  };
  return { app, post, count, lines };
}

describe('outcomes: one metric sample per hook request, labelled with its route', () => {
  it('a 304 computed (the answer cache had lost the answer) is told from a 304 from the cache', async () => {
    const first = await setup().post('/hooks/trustyai/sync').send(body()).expect(200);
    // Another app (a restarted or another replica): its cache is empty, Metacontroller holds the ETag.
    const { post, count } = setup();
    await post('/hooks/trustyai/sync')
      .set('If-None-Match', first.headers.etag as string)
      .send(body())
      .expect(304);
    await post('/hooks/trustyai/sync')
      .set('If-None-Match', first.headers.etag as string)
      .send(body())
      .expect(304);
    expect(await count('composition="trustyai",hook="sync",outcome="computed_not_modified"')).toBe(1);
    expect(await count('composition="trustyai",hook="sync",outcome="not_modified"')).toBe(1);
    expect(await count('composition="trustyai",hook="sync",outcome="ok"')).toBe(0);
  });

  it('ok, cached, not_modified; the size of the cache', async () => {
    const { app, post, count } = setup();
    const first = await post('/hooks/trustyai/sync').send(body()).expect(200);
    await post('/hooks/trustyai/sync').send(body()).expect(200);
    await post('/hooks/trustyai/sync')
      .set('If-None-Match', first.headers.etag as string)
      .send(body())
      .expect(304);
    await post('/hooks/trustyai/customize').send({ parent }).expect(200);
    for (const outcome of ['ok', 'cached', 'not_modified']) expect(await count(`composition="trustyai",hook="sync",outcome="${outcome}"`), outcome).toBe(1);
    const text = (await request(app).get('/metrics')).text;
    expect(text).toContain('modelhooks_answer_cache_entries 2');
    expect(Number(/^modelhooks_answer_cache_bytes (\d+)$/m.exec(text)?.[1])).toBeGreaterThan(Buffer.byteLength(first.text));
    expect(await count('composition="trustyai",hook="customize",outcome="ok"')).toBe(1);
  });

  it('invalid_spec, whether computed, cached or not modified', async () => {
    const { post, count } = setup();
    const first = await post('/hooks/trustyai/sync').send(body(invalid)).expect(200);
    await post('/hooks/trustyai/sync').send(body(invalid)).expect(200);
    await post('/hooks/trustyai/sync')
      .set('If-None-Match', first.headers.etag as string)
      .send(body(invalid))
      .expect(304);
    expect(await count('composition="trustyai",hook="sync",outcome="invalid_spec"')).toBe(3);
    expect(await count('composition="trustyai",hook="sync",outcome="ok"')).toBe(0);
  });

  it('bad_request for malformed JSON, a wrong shape or a missing namespace', async () => {
    const { post, count } = setup();
    await post('/hooks/trustyai/sync').set('content-type', 'application/json').send('{').expect(400);
    await post('/hooks/trustyai/sync').send({ parent: 1 }).expect(400);
    await post('/hooks/trustyai/sync')
      .send({ parent: { ...parent, metadata: { name: 'x' } } })
      .expect(400);
    expect(await count('composition="trustyai",hook="sync",outcome="bad_request"')).toBe(3);
  });

  it('unauthorized without the bearer token, before the composition is even looked up', async () => {
    const { app, count } = setup();
    await request(app).post('/hooks/trustyai/sync').send(body()).expect(401);
    await request(app).post('/hooks/no-such-thing/sync').send(body()).expect(401);
    expect(await count('composition="trustyai",hook="sync",outcome="unauthorized"')).toBe(1);
    expect(await count('composition="unknown",hook="sync",outcome="unauthorized"')).toBe(1);
  });

  it('not_found with `unknown` in place of a composition or hook that does not exist', async () => {
    const { post, count } = setup();
    await post('/hooks/no-such-thing/sync').send(body()).expect(404);
    await post('/hooks/another-made-up-name/sync').send(body()).expect(404);
    await post('/hooks/trustyai/nope').send(body()).expect(404);
    await post('/hooks/trustyai/sync/extra').send(body()).expect(404);
    expect(await count('composition="unknown",hook="sync",outcome="not_found"')).toBe(2);
    expect(await count('composition="trustyai",hook="unknown",outcome="not_found"')).toBe(1);
    expect(await count('composition="unknown",hook="unknown",outcome="not_found"')).toBe(1);
    const text = (await request(setup().app).get('/metrics')).text;
    expect(text).not.toContain('no-such-thing');
  });

  it('too_large, labelled with the composition and hook of its path', async () => {
    const { post, count } = setup({ MODELHOOKS_BODY_LIMIT: '1kb' });
    await post('/hooks/trustyai/finalize')
      .send({ ...body(), padding: 'x'.repeat(4096) })
      .expect(413);
    expect(await count('composition="trustyai",hook="finalize",outcome="too_large"')).toBe(1);
    expect(await count('composition="unknown",hook="unknown",outcome="too_large"')).toBe(0);
  });

  it('error for a bug in a hook', async () => {
    const { post, count } = setup();
    await post('/hooks/broken/sync')
      .send({ parent: { apiVersion: 'x.dev/v1', kind: 'X', metadata: { name: 'p', namespace: 'ns' }, spec: {} } })
      .expect(500);
    expect(await count('composition="broken",hook="sync",outcome="error"')).toBe(1);
  });

  it('every outcome is one of the documented ones', () => {
    expect([...OUTCOMES].sort()).toEqual([
      'bad_request',
      'cached',
      'computed_not_modified',
      'error',
      'invalid_spec',
      'not_found',
      'not_modified',
      'ok',
      'overloaded',
      'too_large',
      'unauthorized',
    ]);
  });

  it('health and metrics requests are not hook requests', async () => {
    const { app } = setup();
    await request(app).get('/healthz').expect(200);
    await request(app).get('/nothing').expect(404);
    const text = (await request(app).get('/metrics')).text;
    expect(text).not.toMatch(/^modelhooks_hook_requests_total\{/m);
  });
});

describe('request log: one info line per refusal and per InvalidSpec answer', () => {
  it('names composition, hook, parent, reason, status and duration, with an ISO-8601 time', async () => {
    const { post, lines } = setup();
    await post('/hooks/trustyai/sync').send(body()).expect(200);
    await post('/hooks/trustyai/sync').send(body()).expect(200);
    expect(lines).toEqual([]);

    await post('/hooks/trustyai/sync').send(body(invalid)).expect(200);
    await post('/hooks/trustyai/sync').send(body(invalid)).expect(200); // cached: logged again
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toMatchObject({
        level: 'info',
        msg: 'invalid spec',
        composition: 'trustyai',
        hook: 'sync',
        parent: 'team-a/bad',
        outcome: 'invalid_spec',
        status: 200,
      });
      expect(line.reason).toContain('spec.storage.format');
      expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(typeof line.durationMs).toBe('number');
    }

    lines.length = 0;
    await post('/hooks/trustyai/sync')
      .send({ parent: { ...parent, metadata: { name: 'svc', namespace: 'Not_A_Namespace' } } })
      .expect(400);
    await post('/hooks/nope/sync').send({}).expect(404);
    await request(setup().app).post('/hooks/trustyai/sync').send(body()); // another app's log
    expect(lines.map((l) => [l.msg, l.status, l.outcome, l.composition, l.hook])).toEqual([
      ['request refused', 400, 'bad_request', 'trustyai', 'sync'],
      ['request refused', 404, 'not_found', 'unknown', 'sync'],
    ]);
    expect(lines[0]?.reason).toMatch(/^parent\.metadata\.namespace: /);
  });

  it("at debug, one line per hook request with the parent and the body's bytes (what a sync carries: test/live/credentials.live.ts reads it)", async () => {
    const { post, lines } = setup({}, 'debug');
    const sent = JSON.stringify(body());
    await post('/hooks/trustyai/sync').set('Content-Type', 'application/json').send(sent).expect(200);
    await post('/hooks/trustyai/sync').set('Content-Type', 'application/json').send(sent).expect(200); // from the answer cache: the same
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests.map((l) => [l.composition, l.hook, l.parent, l.bytes, l.status])).toEqual([
      ['trustyai', 'sync', 'team-a/svc', Buffer.byteLength(sent), 200],
      ['trustyai', 'sync', 'team-a/svc', Buffer.byteLength(sent), 200],
    ]);
  });

  it("logs the parent of a 500, and of a 413 as the refused body's first bytes name it", async () => {
    const { post, lines } = setup({ MODELHOOKS_BODY_LIMIT: '1kb' });
    await post('/hooks/broken/sync')
      .send({ parent: { apiVersion: 'x.dev/v1', kind: 'X', metadata: { name: 'p', namespace: 'ns' }, spec: {} } })
      .expect(500);
    await post('/hooks/trustyai/sync')
      .send({ ...body(), padding: 'x'.repeat(4096) })
      .expect(413);
    const refused = lines.filter((l) => l.msg === 'request refused');
    expect(refused.map((l) => [l.status, l.composition, l.parent])).toEqual([
      [500, 'broken', 'ns/p'],
      [413, 'trustyai', 'team-a/svc'],
    ]);
    expect(refused[1]?.reason).toContain('MODELHOOKS_BODY_LIMIT');
  });

  it("counts 413s by the parent's namespace (modelhooks_too_large_requests_total), whatever the body's encoding; unknown when the first bytes name none", async () => {
    const { app, post, lines } = setup({ MODELHOOKS_BODY_LIMIT: '1kb' });
    const inNamespace = (namespace: string) => ({ ...body({ ...parent, metadata: { ...parent.metadata, namespace } }), padding: 'x'.repeat(600_000) });
    // By Content-Length: refused before reading, its first bytes kept as it is read to its end.
    await post('/hooks/trustyai/sync').send(inNamespace('team-b')).expect(413);
    const server = http.createServer(app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const raw = (headers: Record<string, string>, chunks: (string | Buffer)[]) =>
      new Promise<number | undefined>((resolve) => {
        const port = (server.address() as AddressInfo).port;
        const req = http.request(
          {
            port,
            host: '127.0.0.1',
            method: 'POST',
            path: '/hooks/trustyai/sync',
            headers: { 'content-type': 'application/json', authorization: 'Bearer s3cret', ...headers },
          },
          (res) => resolve(res.resume().statusCode),
        );
        for (const c of chunks) req.write(c);
        req.end();
      });
    const sent = JSON.stringify(inNamespace('team-b'));
    // Chunked (no Content-Length): refused once past the limit, named from what was held and what follows.
    expect(await raw({}, [sent.slice(0, 500), sent.slice(500)])).toBe(413);
    // gzip: from the first decompressed bytes.
    expect(await raw({ 'content-encoding': 'gzip' }, [gzipSync(JSON.stringify(inNamespace('team-c')))])).toBe(413);
    server.close();
    await post('/hooks/trustyai/sync')
      .send({ padding: 'x'.repeat(4096) })
      .expect(413);
    const text = (await request(app).get('/metrics').expect(200)).text;
    const counted = text.split('\n').filter((l) => l.startsWith('modelhooks_too_large_requests_total{'));
    expect(counted.sort()).toEqual([
      'modelhooks_too_large_requests_total{namespace="team-b"} 2',
      'modelhooks_too_large_requests_total{namespace="team-c"} 1',
      'modelhooks_too_large_requests_total{namespace="unknown"} 1',
    ]);
    expect(lines.filter((l) => l.status === 413).map((l) => l.parent)).toEqual(['team-b/svc', 'team-b/svc', 'team-c/svc', undefined]);
  });

  it(`labels at most ${TOO_LARGE_NAMESPACES} namespaces in modelhooks_too_large_requests_total, the rest as other`, () => {
    const seen = new Set<string>();
    const labels = Array.from({ length: TOO_LARGE_NAMESPACES + 2 }, (_, i) => tooLargeLabel(seen, `ns-${i}`));
    expect(labels.slice(0, TOO_LARGE_NAMESPACES)).toEqual(Array.from({ length: TOO_LARGE_NAMESPACES }, (_, i) => `ns-${i}`));
    expect(labels.slice(TOO_LARGE_NAMESPACES)).toEqual(['other', 'other']);
    expect(tooLargeLabel(seen, 'ns-0')).toBe('ns-0');
    expect(tooLargeLabel(seen, undefined)).toBe('unknown');
  });

  it('the server logger writes ISO-8601 times', () => {
    const lines: string[] = [];
    createLogger('info', { write: (l: string) => void lines.push(l) }).info('hello');
    expect(JSON.parse(lines[0] as string).time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it.each([
    ['debug', 'debug'],
    ['info', 'info'],
    ['warn', 'warn'],
    ['error', 'error'],
    ['fatal', 'fatal'],
  ] as const)('the server logger names the level: %s → "level":"%s", not its number', (method, label) => {
    const lines: string[] = [];
    createLogger('debug', { write: (l: string) => void lines.push(l) })[method]('hello');
    expect(lines[0]).toContain(`"level":"${label}"`);
    expect(JSON.parse(lines[0] as string).level).toBe(label);
  });
});
