/**
 * The parent's labels and annotations, checked as the API server checks them. Expected values
 * from k8s.io/apimachinery (commit eed236c):
 * - pkg/apis/meta/v1/validation/validation.go ValidateLabels: key IsQualifiedName, value IsValidLabelValue;
 * - pkg/api/validation/objectmeta.go ValidateAnnotations: key IsQualifiedName(strings.ToLower(k)),
 *   TotalAnnotationSizeLimitB = 256 * (1 << 10) over len(k) + len(v) (bytes);
 * - pkg/api/validate/content/kube.go IsLabelKey: `[prefix/]name`, prefix IsDNS1123Subdomain (≤253),
 *   name ≤63 matching `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, more than one `/` refused;
 *   IsLabelValue: ≤63 matching `(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?` (empty allowed).
 */
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import { metadataProblem, TOTAL_ANNOTATION_SIZE_LIMIT } from '../../hooks/engine/object-meta.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import { createApp, createLogger } from '../../hooks/server/app.js';
import { syncRequest } from '../../hooks/testing/index.js';

const labels = (l: unknown) => metadataProblem({ labels: l }, 'm');
const annotations = (a: unknown) => metadataProblem({ annotations: a }, 'm');

describe('labels (ValidateLabels)', () => {
  it.each([
    ['app', 'x'],
    ['example.com/app', 'x'],
    ['A_b.c-D', 'A_b.c-D'],
    ['app', ''],
    ['a'.repeat(63), 'b'.repeat(63)],
    [`${'a'.repeat(253)}/x`, 'v'],
  ])('accepts %s=%s', (k, v) => expect(labels({ [k]: v })).toBeUndefined());

  it.each([
    ['has space', 'x', 'not a label key'],
    ['a'.repeat(64), 'x', 'not a label key'],
    ['/x', 'x', 'not a label key'],
    ['a/b/c', 'x', 'not a label key'],
    ['Example.com/x', 'x', 'not a label key'],
    [`${'a'.repeat(254)}/x`, 'x', 'not a label key'],
    ['-x', 'x', 'not a label key'],
    ['__proto__', 'x', 'not a label key'],
    ['app', 'has space', 'not a label value'],
    ['app', 'b'.repeat(64), 'not a label value'],
    ['app', '-x', 'not a label value'],
    ['app', 'x.', 'not a label value'],
    ['app', 3, 'must be a string'],
    ['app', null, 'must be a string'],
  ])('refuses %s=%s', (k, v, message) => {
    const problem = labels(JSON.parse(`{${JSON.stringify(k)}:${JSON.stringify(v)}}`));
    expect(problem?.field).toBe(`m.labels[${JSON.stringify(k)}]`);
    expect(problem?.message).toContain(message);
  });

  it('refuses a list or a string for the map', () => {
    expect(labels([])?.field).toBe('m.labels');
    expect(labels('a=b')?.field).toBe('m.labels');
    expect(labels(null)).toBeUndefined();
  });
});

describe('annotations (ValidateAnnotations)', () => {
  it('checks keys case-insensitively, as qualified names', () => {
    expect(annotations({ 'Example.COM/Anything': 'free text, any length ✓' })).toBeUndefined();
    expect(annotations({ 'no spaces': 'x' })?.field).toBe('m.annotations["no spaces"]');
    expect(annotations(JSON.parse('{"__proto__": "x"}'))?.field).toBe('m.annotations["__proto__"]');
  });

  it('values must be strings', () => {
    for (const v of [true, 1, null, {}, []]) expect(annotations({ 'serving.kserve.io/stop': v })?.message).toBe('must be a string');
  });

  it('allows 256 KiB of keys and values in bytes, not one more', () => {
    const key = 'k';
    const exact = 'x'.repeat(TOTAL_ANNOTATION_SIZE_LIMIT - 1);
    expect(TOTAL_ANNOTATION_SIZE_LIMIT).toBe(262144);
    expect(annotations({ [key]: exact })).toBeUndefined();
    expect(annotations({ [key]: `${exact}x` })?.message).toContain('262145 bytes');
    // Bytes of UTF-8, as Go's len: 'é' is two.
    expect(annotations({ [key]: `${'x'.repeat(TOTAL_ANNOTATION_SIZE_LIMIT - 2)}é` })?.field).toBe('m.annotations');
  });
});

describe('the server refuses a parent the API server would not store (400 naming the field)', () => {
  const app = createApp({ compositions: builtinCompositions, config: loadConfig({}), logger: createLogger('silent') });
  const parent = (metadata: Record<string, unknown>) => ({
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: 'isvc', namespace: 'team-a', ...metadata },
    spec: { predictor: { model: { modelFormat: { name: 'sklearn' }, storageUri: 'gs://b/m' } } },
  });
  const post = (metadata: Record<string, unknown>) =>
    request(app)
      .post('/hooks/inferenceservice/sync')
      .send(syncRequest(inferenceservice, { parent: parent(metadata) }));

  it('a non-string annotation value (was a 500 in stop.ts)', async () => {
    const res = await post({ annotations: { 'serving.kserve.io/stop': true } }).expect(400);
    expect(res.text).toBe('parent.metadata.annotations["serving.kserve.io/stop"]: must be a string');
  });

  it('a label value with a space, a label value over 63 characters', async () => {
    expect((await post({ labels: { team: 'a b' } }).expect(400)).text).toMatch(/^parent\.metadata\.labels\["team"\]: not a label value/);
    expect((await post({ labels: { team: 'a'.repeat(64) } }).expect(400)).text).toMatch(/^parent\.metadata\.labels\["team"\]: not a label value/);
  });

  it('a __proto__ annotation key', async () => {
    const body = JSON.stringify(syncRequest(inferenceservice, { parent: parent({ annotations: { placeholder: 'x' } }) })).replace(
      '"placeholder"',
      '"__proto__"',
    );
    const res = await request(app).post('/hooks/inferenceservice/sync').set('Content-Type', 'application/json').send(body).expect(400);
    expect(res.text).toMatch(/^parent\.metadata\.annotations\["__proto__"\]: not an annotation key/);
  });

  it('annotations over 256 KiB; at 256 KiB they are served', async () => {
    const res = await post({ annotations: { big: 'x'.repeat(TOTAL_ANNOTATION_SIZE_LIMIT) } }).expect(400);
    expect(res.text).toMatch(/^parent\.metadata\.annotations: 262147 bytes/);
    await post({ annotations: { big: 'x'.repeat(TOTAL_ANNOTATION_SIZE_LIMIT - 3) } }).expect(200);
  });
});
