import express, { type NextFunction, type Request, type Response } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { createApp, createLogger } from '../../hooks/server/app.js';
import { loadConfig } from '../../hooks/server/config.js';
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
    const { hooks } = teamApp();
    expect(hooks.mountpath).toBe('/x');
    expect(hooks.get('etag')).toBe(false);
    expect(hooks.get('x-powered-by')).toBe(false);
    expect(typeof hooks.use).toBe('function');
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
