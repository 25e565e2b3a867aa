/**
 * Arbitrary parent metadata (labels and annotations of any key, any JSON value, any size;
 * `__proto__` and other inherited names among the keys), for every composition, over HTTP:
 * never a 5xx, and a 200 never holds a child whose labels or annotations the API server
 * would refuse (apimachinery ValidateLabels / ValidateAnnotations, checked here from the
 * Kubernetes rules in test/support/labels.ts, not from the kit's own).
 */
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import { createApp, createLogger } from '../../hooks/server/app.js';
import { syncRequest } from '../../hooks/testing/index.js';
import { specArbitraries } from '../support/arbitraries.js';
import { annotationProblems, labelProblems } from '../support/labels.js';

const RUNS = 150;
let base = '';
let close: () => void = () => {};

beforeAll(async () => {
  const app = createApp({ compositions: builtinCompositions, config: loadConfig({ MODELHOOKS_CACHE_ENTRIES: '0' }), logger: createLogger('silent') });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

/** Keys the hooks read, valid keys of every shape, and names an object inherits. */
const key = fc.oneof(
  fc.constantFrom('app', 'serving.kserve.io/stop', 'serving.kserve.io/deploymentMode', 'serving.kserve.io/storageSecretName', 'example.com/Team', 'A.b_c-d'),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', ''),
  fc.stringMatching(/^([a-z0-9]{1,10}\.){0,2}[a-z]{1,5}\/[A-Za-z0-9]([-A-Za-z0-9_.]{0,10}[A-Za-z0-9])?$/),
  fc.string({ maxLength: 80 }),
);
const value = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.oneof(
      fc.constantFrom('true', 'True', 'false', 'Serverless', 'RawDeployment', ''),
      fc.stringMatching(/^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/),
    ),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 100 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  // Large values: a few of them cross the 256 KiB limit together.
  { weight: 1, arbitrary: fc.integer({ min: 60, max: 140 }).map((k) => 'x'.repeat(k * 1024)) },
);
/** A map as JSON text, so that `__proto__` is an own key, as JSON.parse makes it. */
const mapText = fc
  .array(fc.tuple(key, value), { maxLength: 5 })
  .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`);
const metadataText = fc.record({ labels: fc.option(mapText), annotations: fc.option(mapText) });

describe(`${RUNS} arbitrary parent metadata per composition: no 5xx, no invalid child`, () => {
  for (const composition of builtinCompositions) {
    it(composition.name, async () => {
      const spec = specArbitraries[composition.name] ?? fc.constant({});
      await fc.assert(
        fc.asyncProperty(spec, metadataText, async (s, m) => {
          const parent = {
            apiVersion: `${composition.parent.group}/${composition.parent.versions[0]}`,
            kind: composition.parent.kind,
            metadata: { name: 'p', namespace: 'ns', generation: 1, labels: '@@labels@@', annotations: '@@annotations@@' },
            spec: s,
          };
          const body = JSON.stringify(syncRequest(composition, { parent }))
            .replace('"@@labels@@"', () => m.labels ?? 'null')
            .replace('"@@annotations@@"', () => m.annotations ?? 'null');
          const res = await fetch(`${base}/hooks/${composition.name}/sync`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
          const text = await res.text();
          expect(res.status, text).toBeLessThan(500);
          if (res.status === 400) expect(text).toMatch(/^parent\.metadata\.(labels|annotations)\b.*: /);
          if (res.status !== 200) return;
          const answer = JSON.parse(text) as { children: { kind: string; metadata: { name: string; labels?: unknown; annotations?: unknown } }[] };
          for (const child of answer.children) {
            expect(labelProblems(child)).toEqual([]);
            expect(annotationProblems(child)).toEqual([]);
          }
        }),
        { numRuns: RUNS },
      );
    });
  }
});
