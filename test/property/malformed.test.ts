import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import { createApp } from '../../hooks/server/app.js';
import { syncRequest } from '../../hooks/testing/index.js';
import { specArbitraries } from '../support/arbitraries.js';

const RUNS = 1000;
let base = '';
let close: () => void = () => {};

beforeAll(async () => {
  const app = createApp({ compositions: builtinCompositions, config: loadConfig({ MODELHOOKS_CACHE_ENTRIES: '0' }), logger: pino({ level: 'silent' }) });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

const post = (path: string, body: string) => fetch(`${base}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

/** A valid request with one random part replaced by random JSON: the shapes a buggy client sends. */
function mutated(composition: (typeof builtinCompositions)[number]) {
  const spec = specArbitraries[composition.name] ?? fc.constant({});
  const valid = spec.map((s) =>
    syncRequest(composition, {
      parent: {
        apiVersion: `${composition.parent.group}/${composition.parent.versions[0]}`,
        kind: composition.parent.kind,
        metadata: { name: 'p', namespace: 'ns' },
        spec: s,
      },
    }),
  );
  const paths = [
    ['parent'],
    ['parent', 'metadata'],
    ['parent', 'metadata', 'name'],
    ['parent', 'spec'],
    ['parent', 'status'],
    ['children'],
    ['related'],
    ['controller'],
    ['parent', 'spec', 'storage'],
    ['parent', 'spec', 'predictor'],
    ['finalizing'],
  ];
  return fc.tuple(valid, fc.constantFrom(...paths), fc.jsonValue()).map(([req, path, value]) => {
    const copy = structuredClone(req) as Record<string, unknown>;
    let at: Record<string, unknown> = copy;
    for (const key of path.slice(0, -1)) {
      if (typeof at[key] !== 'object' || at[key] === null) at[key] = {};
      at = at[key] as Record<string, unknown>;
    }
    at[path.at(-1) as string] = value;
    return JSON.stringify(copy);
  });
}

describe(`${RUNS} malformed bodies per composition never get a 5xx`, () => {
  for (const composition of builtinCompositions) {
    it(`${composition.name}: mutated requests and random bytes`, async () => {
      const bodies = fc.oneof(
        mutated(composition),
        fc.json(),
        fc.string(),
        fc.jsonValue().map((v) => JSON.stringify({ parent: v })),
      );
      await fc.assert(
        fc.asyncProperty(bodies, fc.constantFrom('sync', 'customize', 'finalize'), async (body, hook) => {
          const res = await post(`/hooks/${composition.name}/${hook}`, body);
          const text = await res.text();
          expect(res.status, text).toBeLessThan(500);
          if (res.status === 400) expect(text).toMatch(/^(body|parent|children|related|controller|finalizing)\b.*: /);
        }),
        { numRuns: RUNS },
      );
    });
  }
});
