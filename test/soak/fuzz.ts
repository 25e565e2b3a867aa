/**
 * ≥ 20,000 hostile hook requests (test/support/fuzz.ts: every composition, sync, customize and
 * finalize) through the real request path, createApp over HTTP on loopback: no answer may be a
 * 5xx and no answered child may be one the API server refuses (the offline validator: the
 * Kubernetes OpenAPI and CRDs, apimachinery's checks, the label and pod-name rules). Prints the
 * tally, the InvalidSpec answers by who named the problem (a spec field, or the engine's last
 * check on a child), and examples; exits 1 on any 5xx or invalid child.
 *
 *   npx tsx test/soak/fuzz.ts                 (20,000 requests, seed 32; about 3–6 minutes on 2 cores)
 *   FUZZ_REQUESTS=2000 FUZZ_SEED=7 npx tsx test/soak/fuzz.ts
 */
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import fc from 'fast-check';
import { pino } from 'pino';
import { builtinCompositions } from '../../hooks/compositions.js';
import { createApp } from '../../hooks/server/app.js';
import { loadConfig } from '../../hooks/server/config.js';
import { type FuzzCase, fuzzCase, newTally, record } from '../support/fuzz.js';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 20_000);
const SEED = Number(process.env.FUZZ_SEED ?? 32);
const BATCH = 250;
const CONCURRENCY = 8;
/** A bound on the whole run: a hang is a failure too. */
const DEADLINE_MS = Number(process.env.FUZZ_DEADLINE_MS ?? 15 * 60_000);

const app = createApp({ compositions: builtinCompositions, config: loadConfig({ MODELHOOKS_CACHE_ENTRIES: '0' }), logger: pino({ level: 'silent' }) });
const server = app.listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const port = (server.address() as AddressInfo).port;
// No keep-alive: between batches (generated in between) the server's keep-alive timeout would close idle sockets under a request.
const agent = new http.Agent({ keepAlive: false, maxSockets: CONCURRENCY });

function post(c: FuzzCase): Promise<{ status: number; text: string }> {
  const body = Buffer.from(JSON.stringify(c.body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/hooks/${c.composition}/${c.hook}`,
        headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const tally = newTally();
const started = Date.now();
for (let done = 0, batch = 0; done < REQUESTS; batch++) {
  if (Date.now() - started > DEADLINE_MS) {
    console.error(`fuzz: deadline of ${DEADLINE_MS / 1000} s reached after ${done} requests`);
    process.exitCode = 1;
    break;
  }
  const cases = fc.sample(fuzzCase, { numRuns: Math.min(BATCH, REQUESTS - done), seed: SEED * 100_003 + batch });
  for (let i = 0; i < cases.length; i += CONCURRENCY) {
    const slice = cases.slice(i, i + CONCURRENCY);
    const answers = await Promise.all(slice.map(post));
    slice.forEach((c, j) => {
      const a = answers[j] as { status: number; text: string };
      record(tally, c, a.status, a.text);
    });
  }
  done += cases.length;
  if (batch % 20 === 19)
    console.log(
      `fuzz: ${done} requests, ${tally.serverErrors.length} 5xx, ${tally.invalidChildren} invalid children (${Math.round((Date.now() - started) / 1000)} s)`,
    );
}
server.close();
agent.destroy();

console.log(
  JSON.stringify(
    {
      seed: SEED,
      requests: tally.requests,
      seconds: Math.round((Date.now() - started) / 1000),
      byStatus: tally.byStatus,
      serverErrors: tally.serverErrors.length,
      answersWithInvalidChildren: tally.answersWithInvalidChildren,
      invalidChildren: tally.invalidChildren,
      invalidSpec: tally.invalidSpec,
    },
    null,
    2,
  ),
);
for (const e of tally.serverErrors.slice(0, 10)) console.log(`5xx ${e.composition}/${e.hook}: ${e.text}`);
for (const e of tally.examples.slice(0, 15)) console.log(`invalid child: ${e}`);
for (const e of tally.childExamples.slice(0, 10)) console.log(`InvalidSpec from the engine's child check: ${e}`);
if (tally.serverErrors.length > 0 || tally.invalidChildren > 0) process.exitCode = 1;
