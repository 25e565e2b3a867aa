/**
 * Issue 32 item 6: JSON the API server stores (nesting to 10,000 levels where a CRD keeps
 * unknown fields) overflowed the stack in the spec memo's JSON.stringify: every sync of that
 * parent was a 500. Now a parent's spec past MAX_DEPTH is an InvalidSpec naming where, and a
 * deep status or related object is cut at MAX_DEPTH (kit/bounded.ts, engine/protocol.ts).
 */
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { createApp } from '../../hooks/server/app.js';
import { loadConfig } from '../../hooks/server/config.js';

const app = () => createApp({ compositions: builtinCompositions, config: loadConfig({ MODELHOOKS_LOG_LEVEL: 'silent' }), logger: pino({ level: 'silent' }) });
const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const predictor = '"model":{"modelFormat":{"name":"sklearn"},"storageUri":"gs://b/m"}';
const isvc = (spec: string, status = '{}') =>
  `{"apiVersion":"serving.kserve.io/v1beta1","kind":"InferenceService","metadata":{"name":"deep","namespace":"team-a","generation":1},"spec":${spec},"status":${status}}`;
/** The body as text: JSON.stringify itself cannot write these. */
const body = (parent: string, related = '{}') => `{"controller":{},"parent":${parent},"children":{},"related":${related}}`;
const post = (text: string) => request(app()).post('/hooks/inferenceservice/sync').set('content-type', 'application/json').send(text);

describe('nesting the API server stores', () => {
  it.each([5000, 10_000])('a spec.predictor.batcher nested %i deep: 200, Ready=False InvalidSpec naming the field', async (depth) => {
    const res = await post(body(isvc(`{"predictor":{"batcher":{"x":${nested(depth)}},${predictor}}}`)));
    expect(res.status).toBe(200);
    const ready = res.body.status.conditions.find((c: { type: string }) => c.type === 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(ready.message).toBe('spec.predictor.batcher.x[0][0][0][0][0][0][0][0][0]…: nests deeper than 100 levels, more than any field modelhooks reads');
  });

  it('a status and a related object nested 10,000 deep are cut: 200 and the children of the spec', async () => {
    const runtime = `{"apiVersion":"serving.kserve.io/v1alpha1","kind":"ServingRuntime","metadata":{"name":"r","namespace":"team-a"},"spec":{"x":${nested(10_000)}}}`;
    const res = await post(
      body(isvc(`{"predictor":{${predictor}}}`, `{"x":${nested(10_000)}}`), `{"ServingRuntime.serving.kserve.io/v1alpha1":{"team-a/r":${runtime}}}`),
    );
    expect(res.status).toBe(200);
    expect(res.body.children.map((c: { kind: string }) => c.kind)).toContain('Deployment');
  });

  it('a spec at the limit is served as before', async () => {
    const res = await post(body(isvc(`{"predictor":{"batcher":{"maxBatchSize":4,"x":${nested(90)}},${predictor}}}`)));
    expect(res.status).toBe(200);
    expect(res.body.children.map((c: { kind: string }) => c.kind)).toContain('Deployment');
  });
});
