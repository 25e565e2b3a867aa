/**
 * Sockets that cannot lock a client out: the real `modelhooks serve`, with the Deployment's
 * node flags and connection settings, holds 1,000 idle connections (plain: TCP connections that
 * send nothing; mutual TLS: connections with a valid client certificate that send nothing after
 * their handshake), 300 that never start a TLS handshake (raw TCP, sending nothing) and 100 that
 * send one byte a second; every attacker reconnects when the server closes it (they run in a
 * process of their own, test/soak/connection-attackers.ts, so that their handshakes do not slow
 * down the client measured here). Meanwhile
 * a real client (a new connection per request, as a client whose keep-alive connection was
 * closed makes) posts a sync request every 250 ms, retrying a refused or reset connection after
 * 100 ms. It fails unless every one of the client's requests is answered 200 within
 * MAX_SECONDS. Loopback only; it stops by itself after DURATION_SECONDS.
 *
 *   npx tsx test/soak/connections.ts plain   (about 40 s; run by .ci/run)
 *   npx tsx test/soak/connections.ts mtls
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { shippedNodeFlags } from '../../bench/node-flags.js';
import { syncRequest } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';
import { certificates } from '../support/certificates.js';
import { freePort } from '../support/free-port.js';
import { ROOT, runSoak, type SoakServer } from './serve.js';

const MODE = process.argv[2] === 'mtls' ? 'mtls' : 'plain';
const IDLE = 1000;
const SILENT = 300;
const DRIPPING = 100;
const DURATION_SECONDS = Number(process.env.CONN_SOAK_SECONDS ?? 20);
const MAX_SECONDS = 5;

const dir = mkdtempSync(path.join(tmpdir(), 'modelhooks-conn-soak-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const certs = certificates(dir);
const body = JSON.stringify(
  syncRequest(trustyai, {
    parent: {
      apiVersion: 'trustyai.opendatahub.io/v1',
      kind: 'TrustyAIService',
      metadata: { name: 's', namespace: 'ns' },
      spec: { storage: { format: 'PVC' }, metrics: { schedule: '5s' } },
    },
  }),
);

function post(port: number): Promise<number> {
  const client = MODE === 'mtls' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/hooks/trustyai/sync',
        agent: false,
        headers: { 'content-type': 'application/json', connection: 'close' },
        ...(MODE === 'mtls' ? { ca: certs.ca, cert: certs.client.cert, key: certs.client.key } : {}),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.setTimeout(MAX_SECONDS * 1000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

/** One request of the real client, retried on a refused or reset connection: its status and seconds. */
async function served(port: number): Promise<{ status: number; seconds: number; attempts: number }> {
  const started = Date.now();
  let attempts = 0;
  for (;;) {
    attempts++;
    const status = await post(port).catch(() => 0);
    const seconds = (Date.now() - started) / 1000;
    if (status !== 0 || seconds > MAX_SECONDS) return { status, seconds, attempts };
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main(server: SoakServer): Promise<number> {
  const port = Number(server.port);
  // The attackers arrive first, in a process of their own.
  const attackers = fork(path.join(import.meta.dirname, 'connection-attackers.ts'), [String(port), MODE, dir, String(DURATION_SECONDS + 30)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise((r) => attackers.once('message', r));
  await new Promise((r) => setTimeout(r, 1000));
  const results: { status: number; seconds: number; attempts: number }[] = [];
  const until = Date.now() + DURATION_SECONDS * 1000;
  while (Date.now() < until) {
    results.push(await served(port));
    await new Promise((r) => setTimeout(r, 250));
  }
  const attackersDone = new Promise((r) => attackers.once('exit', r));
  attackers.disconnect();
  await attackersDone;
  const ok = results.filter((r) => r.status === 200 && r.seconds <= MAX_SECONDS);
  const seconds = results.map((r) => r.seconds).sort((a, b) => a - b);
  const p = (q: number) => (seconds[Math.min(seconds.length - 1, Math.floor(q * seconds.length))] ?? NaN).toFixed(3);
  console.log(
    `connections (${MODE}): ${ok.length}/${results.length} requests of the real client answered 200 within ${MAX_SECONDS} s ` +
      `(median ${p(0.5)} s, p99 ${p(0.99)} s, max ${p(1)} s, at most ${Math.max(...results.map((r) => r.attempts))} attempts) ` +
      `among ${IDLE} idle, ${SILENT} silent and ${DRIPPING} dripping attackers`,
  );
  const died = server.exited() !== undefined;
  await server.stop();
  const passed = !died && results.length > 0 && ok.length === results.length;
  console.log(`connections (${MODE}): ${passed ? 'passed' : 'FAILED'}`);
  return passed ? 0 : 1;
}

const healthPort = MODE === 'mtls' ? String(await freePort()) : undefined;
runSoak(
  {
    // The Deployment's node flags and connection settings (hooks/server/config.ts defaults, as deploy/base sets them).
    nodeFlags: shippedNodeFlags(ROOT),
    env:
      MODE === 'mtls'
        ? {
            MODELHOOKS_TLS_CERT_FILE: certs.file('server.crt'),
            MODELHOOKS_TLS_KEY_FILE: certs.file('server.key'),
            MODELHOOKS_CLIENT_CA_FILE: certs.file('ca.crt'),
            MODELHOOKS_METRICS_PORT: healthPort,
          }
        : {},
    ...(healthPort ? { healthPort } : {}),
  },
  main,
);
