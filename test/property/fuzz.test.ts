import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { createApp } from '../../hooks/server/app.js';
import { loadConfig } from '../../hooks/server/config.js';
import { fuzzCase, newTally, record } from '../support/fuzz.js';

// Issue 32, small: hostile requests (test/support/fuzz.ts) through createApp over HTTP; the
// soak test/soak/fuzz.ts sends 20,000 of them. No 5xx, no child the API server would refuse.
const RUNS = 150;
let base = '';
let close = () => {};
beforeAll(async () => {
  const app = createApp({ compositions: builtinCompositions, config: loadConfig({ MODELHOOKS_CACHE_ENTRIES: '0' }), logger: pino({ level: 'silent' }) });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

describe(`${RUNS} hostile requests across every composition and hook`, () => {
  it('get no 5xx and no child the API server would refuse; refused fields are named', { timeout: 180_000 }, async () => {
    const tally = newTally();
    await fc.assert(
      fc.asyncProperty(fuzzCase, async (c) => {
        const res = await fetch(`${base}/hooks/${c.composition}/${c.hook}`, {
          method: 'POST',
          body: JSON.stringify(c.body),
          headers: { 'content-type': 'application/json' },
        });
        const verdict = record(tally, c, res.status, await res.text());
        expect(verdict.serverError, `${c.composition}/${c.hook}`).toBe(false);
        expect(verdict.invalidChildren).toEqual([]);
      }),
      { numRuns: RUNS, seed: 32 },
    );
    // The cases reach the checks: some answers are InvalidSpec, most are not.
    expect(tally.invalidSpec.spec).toBeGreaterThan(RUNS / 10);
    expect(tally.byStatus[200]).toBe(RUNS);
  });
});
