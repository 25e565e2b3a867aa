import http from 'node:http';
import v8 from 'node:v8';
import express, { type NextFunction, type Request, type Response } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { createApp, createLogger } from '../../hooks/server/app.js';
import { loadConfig } from '../../hooks/server/config.js';
import { expressObjects } from '../../hooks/server/listen.js';
import { syncRequest } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';

// A team's own express app with the hook server mounted under /x behind a middleware of its
// own (a header check, and a header it adds): what issue 33 asks createApp to allow.
const NOW = '2026-05-05T05:05:05Z';
const parent = {
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  metadata: { name: 'svc', namespace: 'team-a', generation: 1 },
  spec: { storage: { format: 'PVC' }, metrics: { schedule: '5s' } },
};
const body = syncRequest(trustyai, { parent, observed: [] });
const hookApp = () => createApp({ compositions: builtinCompositions, config: loadConfig({}), logger: createLogger('silent'), now: () => NOW });

function teamApp() {
  const hooks = hookApp();
  const seen: string[] = [];
  const outer = express();
  const teamAuth = (req: Request, res: Response, next: NextFunction) => {
    seen.push(req.originalUrl);
    res.setHeader('X-Team-Trace', 'abc');
    if (req.get('X-Team-Key') !== 'secret') return void res.status(403).send('team says no');
    next();
  };
  outer.use('/x', teamAuth, hooks);
  outer.get('/own', (_req, res) => void res.send('the team route'));
  return { outer, hooks, seen };
}

describe('createApp mounted in a user express app', () => {
  it('is an express application: it knows where it is mounted and keeps its own settings', () => {
    const { hooks, outer } = teamApp();
    expect(hooks.mountpath).toBe('/x');
    expect(hooks.get('etag')).toBe(false);
    expect(hooks.get('x-powered-by')).toBe(false);
    expect(typeof hooks.use).toBe('function');
    // express's own request prototype chain: the app's own request object, then the team app's.
    expect(hooks.request.app).toBe(hooks);
    expect(Object.getPrototypeOf(hooks.request)).toBe(outer.request);
    expect(Object.getPrototypeOf(hooks.response)).toBe(outer.response);
  });

  it('answers hooks below the mount point, after the team middleware, as it does alone (same body, same ETag, 304)', async () => {
    const { outer, seen } = teamApp();
    const alone = await request(hookApp()).post('/hooks/trustyai/sync').send(body).expect(200);
    const mounted = await request(outer).post('/x/hooks/trustyai/sync').set('X-Team-Key', 'secret').send(body).expect(200);
    expect(mounted.headers['x-team-trace']).toBe('abc');
    expect(mounted.headers.etag).toBe(alone.headers.etag);
    expect(mounted.text).toBe(alone.text);
    const again = await request(outer)
      .post('/x/hooks/trustyai/sync')
      .set('X-Team-Key', 'secret')
      .set('If-None-Match', mounted.headers.etag as string)
      .send(body)
      .expect(304);
    expect(again.text).toBe('');
    expect(seen).toEqual(['/x/hooks/trustyai/sync', '/x/hooks/trustyai/sync']);
  });

  it("the team middleware refuses before the hook is reached; the hook server's health, 404 and the team's own routes stay as they are", async () => {
    const { outer } = teamApp();
    const refused = await request(outer).post('/x/hooks/trustyai/sync').send(body).expect(403);
    expect(refused.text).toBe('team says no');
    await request(outer).get('/x/healthz').set('X-Team-Key', 'secret').expect(200, 'ok');
    const unknown = await request(outer).post('/x/hooks/nope/sync').set('X-Team-Key', 'secret').send(body).expect(404);
    expect(unknown.text).toMatch(/unknown composition "nope"/);
    await request(outer).get('/own').expect(200, 'the team route');
  });
});

describe('createApp under a team middleware at the root, and the objects its servers make', () => {
  it("a team's app.use(middleware) before ours, unmounted: it runs for every hook request and ours answers as alone (body, ETag, 304)", async () => {
    const hooks = hookApp();
    const traced: string[] = [];
    const outer = express();
    outer.use((req: Request, res: Response, next: NextFunction) => {
      traced.push(`${req.method} ${req.path}`);
      res.setHeader('X-Trace-Id', String(traced.length));
      next();
    });
    outer.use(hooks);
    expect(hooks.mountpath).toBe('/');
    const alone = await request(hookApp()).post('/hooks/trustyai/sync').send(body).expect(200);
    const first = await request(outer).post('/hooks/trustyai/sync').send(body).expect(200);
    expect(first.text).toBe(alone.text);
    expect(first.headers.etag).toBe(alone.headers.etag);
    expect(first.headers['x-trace-id']).toBe('1');
    const again = await request(outer)
      .post('/hooks/trustyai/sync')
      .set('If-None-Match', first.headers.etag as string)
      .send(body)
      .expect(304);
    expect(again.headers['x-trace-id']).toBe('2');
    await request(outer).get('/healthz').expect(200, 'ok');
    expect(traced).toEqual(['POST /hooks/trustyai/sync', 'POST /hooks/trustyai/sync', 'GET /healthz']);
  });

  it("a path express's router could not decode goes to the hook route as sent: its 404, not a 500", async () => {
    const unknown = await request(hookApp()).post('/hooks/%zz/sync').send(body).expect(404);
    expect(unknown.text).toMatch(/unknown composition "%zz"/);
  });

  it("the servers' requests and responses: node's, with the app's prototypes from the start, and V8 fast-properties objects after a hook's answer", async () => {
    v8.setFlagsFromString('--allow-natives-syntax');
    const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;
    const hooks = hookApp();
    const seen: { req: http.IncomingMessage; res: http.ServerResponse; prototypes: [object, object] }[] = [];
    // As hooks/server/listen.ts makes `modelhooks serve`'s server.
    const server = http.createServer(expressObjects(hooks), (req, res) => {
      seen.push({ req, res, prototypes: [Object.getPrototypeOf(req), Object.getPrototypeOf(res)] });
      hooks(req, res);
    });
    const first = await request(server).post('/hooks/trustyai/sync').send(body).expect(200);
    await request(server)
      .post('/hooks/trustyai/sync')
      .set('If-None-Match', first.headers.etag as string)
      .send(body)
      .expect(304);
    expect(seen).toHaveLength(2);
    for (const { req, res, prototypes } of seen) {
      // express's Object.setPrototypeOf of each request finds them in place.
      expect(prototypes).toEqual([hooks.request, hooks.response]);
      expect(req).toBeInstanceOf(http.IncomingMessage);
      expect(res).toBeInstanceOf(http.ServerResponse);
      // A dictionary-mode response (as a constructor function calling http.ServerResponse made) cost 20-30 % on the cached paths.
      expect([hasFastProperties(req), hasFastProperties(res)]).toEqual([true, true]);
    }
  });
});
