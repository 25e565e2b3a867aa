import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import { defineComposition } from '../../hooks/kit/index.js';
import { createApp } from '../../hooks/server/app.js';
import { syncRequest, wireMap } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';
import { z } from 'zod';

const NOW = '2026-05-05T05:05:05Z';
const config = (env: Record<string, string> = {}) => loadConfig({ MODELHOOKS_LOG_LEVEL: 'silent', ...env });
const appWith = (env: Record<string, string> = {}, compositions = builtinCompositions, logger = pino({ level: 'silent' })) =>
  createApp({ compositions, config: config(env), logger, now: () => NOW });

const parent = {
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  metadata: { name: 'svc', namespace: 'team-a', generation: 1 },
  spec: { storage: { format: 'PVC' }, metrics: { schedule: '5s' } },
};
const body = (p: unknown = parent, observed: object[] = []) => syncRequest(trustyai, { parent: p, observed: observed as never });

describe('POST /hooks/<composition>/sync', () => {
  it('answers 200 with status, children and an ETag', async () => {
    const res = await request(appWith()).post('/hooks/trustyai/sync').send(body()).expect(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(res.body.children.map((c: { kind: string }) => c.kind)).toEqual(['Deployment', 'PersistentVolumeClaim', 'Service']);
    expect(res.body.status.phase).toBe('Not Ready');
    expect(Object.keys(res.body).sort()).toEqual(['children', 'status']);
  });

  it('answers 304 without a body when If-None-Match holds the ETag, 200 when it does not', async () => {
    const app = appWith();
    const first = await request(app).post('/hooks/trustyai/sync').send(body()).expect(200);
    const again = await request(app)
      .post('/hooks/trustyai/sync')
      .set('If-None-Match', first.headers.etag as string)
      .send(body())
      .expect(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    await request(app).post('/hooks/trustyai/sync').set('If-None-Match', '"stale"').send(body()).expect(200);
  });

  it('the ETag depends only on the answer, so every replica computes the same one', async () => {
    const a = await request(appWith()).post('/hooks/trustyai/sync').send(body()).expect(200);
    const b = await request(appWith())
      .post('/hooks/trustyai/sync')
      .send(JSON.stringify(body(), null, 2))
      .set('content-type', 'application/json')
      .expect(200);
    expect(a.headers.etag).toBe(b.headers.etag);
  });

  it('reads hook v1 (name) and v2 (namespace/name) child keys the same', async () => {
    const first = await request(appWith()).post('/hooks/trustyai/sync').send(body()).expect(200);
    const observed = first.body.children.map((c: object) => ({ ...c, status: { phase: 'Bound' } }));
    const v2 = { ...body(), children: wireMap(observed, 'team-a', 'v2') };
    const v1 = { ...body(), children: wireMap(observed, 'team-a', 'v1') };
    expect(Object.keys(v1.children['PersistentVolumeClaim.v1'] ?? {})).toEqual(['svc-pvc']);
    expect(Object.keys(v2.children['PersistentVolumeClaim.v1'] ?? {})).toEqual(['team-a/svc-pvc']);
    const r1 = await request(appWith()).post('/hooks/trustyai/sync').send(v1).expect(200);
    const r2 = await request(appWith()).post('/hooks/trustyai/sync').send(v2).expect(200);
    expect(r1.body).toEqual(r2.body);
    const storage = r1.body.status.conditions.find((c: { type: string }) => c.type === 'StorageReady');
    expect(storage.status).toBe('True');
  });

  it('an invalid spec answers 200 with Ready=False/InvalidSpec and the observed children unchanged', async () => {
    const first = await request(appWith()).post('/hooks/trustyai/sync').send(body()).expect(200);
    const broken = { ...parent, spec: { storage: { format: 'S3' }, metrics: { schedule: '5s' } } };
    const res = await request(appWith()).post('/hooks/trustyai/sync').send(body(broken, first.body.children)).expect(200);
    const ready = res.body.status.conditions.find((c: { type: string }) => c.type === 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(ready.message).toContain('spec.storage.format');
    expect(res.body.children).toEqual(first.body.children);
  });

  // Metacontroller sends every object with server-side apply's managedFields (kit/request-json.ts).
  const managed = <T extends { metadata: object }>(o: T): T => ({
    ...o,
    metadata: {
      ...o.metadata,
      managedFields: [
        {
          apiVersion: 'v1',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:status': { '.': {}, 'f:phase': {} } },
          manager: 'kube-controller-manager',
          operation: 'Update',
          subresource: 'status',
        },
      ],
    },
  });

  it('answers a request whose objects carry managedFields exactly as one without them', async () => {
    const app = appWith();
    const first = await request(app).post('/hooks/trustyai/sync').send(body()).expect(200);
    const observed = first.body.children.map((c: { metadata: object }) => ({ ...c, status: { phase: 'Bound' } }));
    const plain = body(parent, observed);
    const carrying = { ...plain, parent: managed(plain.parent as typeof parent), children: wireMap(observed.map(managed), 'team-a', 'v2') };
    expect(JSON.stringify(carrying)).toContain('"managedFields":[{');
    const a = await request(appWith()).post('/hooks/trustyai/sync').send(plain).expect(200);
    const b = await request(appWith()).post('/hooks/trustyai/sync').send(carrying).expect(200);
    expect(b.text).toBe(a.text);
    expect(b.headers.etag).toBe(a.headers.etag);
  });

  it('no hook sees metadata.managedFields; a spec field of that name reaches it unchanged', async () => {
    const seen: unknown[] = [];
    const echo = defineComposition({
      name: 'echo',
      parent: { group: 'x.dev', kind: 'X', plural: 'xs', singular: 'x', versions: ['v1'] },
      spec: z.object({ managedFields: z.array(z.string()) }),
      children: [],
      sync: (input) => {
        seen.push(input.parent.metadata.managedFields, input.parent.spec.managedFields, input.observed.list('v1', 'ConfigMap')[0]?.metadata.managedFields);
        return { status: {}, children: [] };
      },
    });
    const x = managed({ apiVersion: 'x.dev/v1', kind: 'X', metadata: { name: 'p', namespace: 'ns' }, spec: { managedFields: ['kept'] } });
    const map = { 'ConfigMap.v1': { 'ns/c': managed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' } }) } };
    await request(appWith({}, [echo]))
      .post('/hooks/echo/sync')
      .send({ parent: x, children: map })
      .expect(200);
    expect(seen).toEqual([undefined, ['kept'], undefined]);
  });

  it("400 with JSON.parse's message for a malformed managedFields array, never read as if it were well-formed", async () => {
    const text = JSON.stringify(body(managed(parent))).replace('"managedFields":[{', '"managedFields":[,{');
    const res = await request(appWith()).post('/hooks/trustyai/sync').set('content-type', 'application/json').send(text).expect(400);
    expect(res.text).toMatch(/^body: malformed JSON \(Unexpected token ','/);
  });

  it('customize answers the related resources', async () => {
    const db = { ...parent, spec: { storage: { format: 'DATABASE', databaseConfigurations: 'creds' }, metrics: { schedule: '5s' } } };
    const res = await request(appWith()).post('/hooks/trustyai/customize').send({ controller: {}, parent: db }).expect(200);
    expect(res.body.relatedResources).toContainEqual({ apiVersion: 'v1', resource: 'secrets', namespace: 'team-a', names: ['creds', 'svc-db-ca'] });
  });

  it('finalize answers finalized: true and keeps the children', async () => {
    const first = await request(appWith()).post('/hooks/trustyai/sync').send(body()).expect(200);
    const res = await request(appWith())
      .post('/hooks/trustyai/finalize')
      .send({ ...body(parent, first.body.children), finalizing: true })
      .expect(200);
    expect(res.body.finalized).toBe(true);
    expect(res.body.children).toHaveLength(first.body.children.length);
  });
});

describe('errors', () => {
  it('415 for a body that says it is not JSON; JSON types with parameters, +json and none are read', async () => {
    const text = JSON.stringify(body());
    const res = await request(appWith()).post('/hooks/trustyai/sync').set('content-type', 'application/x-www-form-urlencoded').send(text).expect(415);
    // curl -d's default type: said how to fix it, and never read (a browser sends it cross-site without a preflight).
    expect(res.text).toBe(
      "body: Content-Type application/x-www-form-urlencoded is not JSON; hooks take application/json (curl -d sends a form type: add -H 'Content-Type: application/json')",
    );
    await request(appWith()).post('/hooks/trustyai/sync').set('content-type', 'text/plain').send(text).expect(415);
    await request(appWith()).post('/hooks/trustyai/sync').set('content-type', 'application/json; charset=utf-8').send(text).expect(200);
    await request(appWith()).post('/hooks/trustyai/sync').set('content-type', 'application/merge-patch+json').send(text).expect(200);
  });
  it('400 for malformed JSON', async () => {
    const res = await request(appWith()).post('/hooks/trustyai/sync').set('content-type', 'application/json').send('{"parent":').expect(400);
    expect(res.text).toMatch(/^body: malformed JSON/);
  });
  it('400 naming the field for a request of the wrong shape', async () => {
    const res = await request(appWith())
      .post('/hooks/trustyai/sync')
      .send({ parent: { apiVersion: 'v1', kind: 'X', metadata: {} } })
      .expect(400);
    expect(res.text).toBe('parent.metadata.name: must be a non-empty string');
  });
  it('404 for an unknown composition or hook, naming what exists', async () => {
    expect((await request(appWith()).post('/hooks/nope/sync').send({}).expect(404)).text).toContain('trustyai');
    expect((await request(appWith()).post('/hooks/trustyai/nope').send({}).expect(404)).text).toContain('sync, customize, finalize');
    await request(appWith()).get('/nothing').expect(404);
  });
  it('413 over the body limit, which is configurable', async () => {
    const res = await request(appWith({ MODELHOOKS_BODY_LIMIT: '1kb' }))
      .post('/hooks/trustyai/sync')
      .send(body(parent, [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big', namespace: 'team-a' }, data: { x: 'y'.repeat(4096) } }]))
      .expect(413);
    expect(res.text).toContain('MODELHOOKS_BODY_LIMIT');
  });
  it('500 for a bug in a hook, logged with the parent, and the server keeps serving', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'error' }, { write: (l: string) => void lines.push(l) });
    const broken = defineComposition({
      name: 'broken',
      parent: { group: 'x.dev', kind: 'X', plural: 'xs', singular: 'x', versions: ['v1'] },
      spec: z.object({}),
      children: [],
      sync: () => {
        throw new TypeError('boom');
      },
    });
    const app = appWith({}, [broken, ...builtinCompositions], logger);
    const res = await request(app)
      .post('/hooks/broken/sync')
      .send({ parent: { apiVersion: 'x.dev/v1', kind: 'X', metadata: { name: 'p', namespace: 'ns' }, spec: {} } })
      .expect(500);
    expect(res.text).not.toContain('boom');
    const log = JSON.parse(lines[0] as string);
    expect(log).toMatchObject({ level: 50, parent: 'ns/p', composition: 'broken', hook: 'sync' });
    expect(log.err.message).toBe('boom');
    await request(app).post('/hooks/trustyai/sync').send(body()).expect(200);
  });
});

describe('health and metrics', () => {
  it('/healthz and /readyz answer ok; /readyz fails while draining', async () => {
    const state = { draining: false };
    const app = createApp({ compositions: builtinCompositions, config: config(), logger: pino({ level: 'silent' }), state });
    await request(app).get('/healthz').expect(200, 'ok');
    await request(app).get('/readyz').expect(200);
    expect((await request(app).post('/hooks/trustyai/sync').set('Connection', 'keep-alive').send(body()).expect(200)).headers.connection).toBe('keep-alive');
    state.draining = true;
    await request(app).get('/readyz').expect(503);
    // Still served while draining, but every answer closes its connection.
    expect((await request(app).post('/hooks/trustyai/sync').set('Connection', 'keep-alive').send(body()).expect(200)).headers.connection).toBe('close');
    expect((await request(app).get('/readyz')).headers.connection).toBe('close');
  });
  it('/metrics counts requests and latency by composition, hook and outcome, with process metrics', async () => {
    const app = appWith();
    await request(app).post('/hooks/trustyai/sync').send(body()).expect(200);
    await request(app).post('/hooks/trustyai/sync').send(body()).expect(200);
    await request(app).post('/hooks/trustyai/sync').send('{').set('content-type', 'application/json').expect(400);
    const text = (await request(app).get('/metrics').expect(200)).text;
    expect(text).toContain('modelhooks_hook_requests_total{composition="trustyai",hook="sync",outcome="ok"} 1');
    expect(text).toContain('modelhooks_hook_requests_total{composition="trustyai",hook="sync",outcome="cached"} 1');
    expect(text).toContain('modelhooks_hook_requests_total{composition="trustyai",hook="sync",outcome="bad_request"} 1');
    expect(text).toMatch(/modelhooks_hook_request_duration_seconds_bucket\{le="0.005",composition="trustyai",hook="sync",outcome="ok"\}/);
    expect(text).toContain('process_cpu_user_seconds_total');
  });
});

describe('MODELHOOKS_METRICS_PORT (issue 32 item 8: probes and /metrics off the hook port)', () => {
  it('when set, the hook port answers 404 for /metrics, /healthz and /readyz, and serves the hooks', async () => {
    const app = appWith({ MODELHOOKS_METRICS_PORT: '9090' });
    for (const path of ['/metrics', '/healthz', '/readyz']) await request(app).get(path).expect(404);
    await request(app).post('/hooks/trustyai/sync').send(body()).expect(200);
  });
  it('unset, the hook port serves them too (a local run)', async () => {
    const app = appWith();
    for (const path of ['/metrics', '/healthz', '/readyz']) await request(app).get(path).expect(200);
  });
});
