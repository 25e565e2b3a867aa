import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import { listen, type Listeners } from '../../hooks/server/listen.js';
import { createMetrics } from '../../hooks/server/metrics.js';
import { createApp, createHealthApp } from '../../hooks/server/app.js';
import { syncRequest } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';
import { certificates } from '../support/certificates.js';
import { freePort } from '../support/free-port.js';

interface Answer {
  status: number;
  text: string;
}

function post(options: https.RequestOptions, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: '127.0.0.1', method: 'POST', path: '/hooks/trustyai/sync', ...options, headers: { 'content-type': 'application/json', ...options.headers } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += String(d)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function get(url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let text = '';
        res.on('data', (d) => (text += String(d)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      })
      .on('error', reject);
  });
}

describe('TLS with client certificates, a bearer token and a plain metrics port', () => {
  let dir: string;
  let certs: ReturnType<typeof certificates>;
  let running: Listeners;
  let ports: { main: number; metrics: number; webhook: number };
  const state = { draining: false };
  const body = JSON.stringify(
    syncRequest(trustyai, {
      parent: {
        apiVersion: 'trustyai.opendatahub.io/v1',
        kind: 'TrustyAIService',
        metadata: { name: 'svc', namespace: 'team-a' },
        spec: { storage: { format: 'PVC' }, metrics: { schedule: '5s' } },
      },
    }),
  );

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'modelhooks-tls-'));
    certs = certificates(dir);
    writeFileSync(certs.file('token'), 'the-token\n');
    ports = { main: await freePort(), metrics: await freePort(), webhook: await freePort() };
    const config = loadConfig({
      PORT: String(ports.main),
      MODELHOOKS_METRICS_PORT: String(ports.metrics),
      MODELHOOKS_WEBHOOK_PORT: String(ports.webhook),
      MODELHOOKS_HOST: '127.0.0.1',
      MODELHOOKS_TLS_CERT_FILE: certs.file('server.crt'),
      MODELHOOKS_TLS_KEY_FILE: certs.file('server.key'),
      MODELHOOKS_CLIENT_CA_FILE: certs.file('ca.crt'),
      MODELHOOKS_TOKEN_FILE: certs.file('token'),
      MODELHOOKS_DRAIN_SECONDS: '0',
    });
    const logger = pino({ level: 'silent' });
    const metrics = createMetrics();
    const app = createApp({ compositions: builtinCompositions, config, logger, metrics, state });
    running = await listen(app, createHealthApp(metrics, state), config, logger, state, 50);
  });
  afterAll(async () => {
    await running?.shutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  const trusted = () => ({ port: ports.main, ca: certs.ca, ...certs.client, headers: { authorization: 'Bearer the-token' } });

  it('answers a client with a certificate from the client CA and the token', async () => {
    const res = await post(trusted(), body);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).children.length).toBeGreaterThan(0);
  });

  it('refuses the handshake without a client certificate, or with one from another CA', async () => {
    // The server's alert arrives on the first read (TLS 1.3); a reset if the socket closes first.
    const refused = /alert (certificate required|unknown ca)|ECONNRESET|socket hang up/;
    await expect(post({ port: ports.main, ca: certs.ca, headers: { authorization: 'Bearer the-token' } }, body)).rejects.toThrow(refused);
    await expect(post({ port: ports.main, ca: certs.ca, ...certs.stranger, headers: { authorization: 'Bearer the-token' } }, body)).rejects.toThrow(refused);
  });

  it('answers 401 to a certified client with a wrong or missing token', async () => {
    for (const authorization of ['Bearer not-the-token', 'Bearer the-token-and-more', 'Basic dGhlLXRva2Vu', undefined]) {
      const res = await post({ ...trusted(), headers: authorization ? { authorization } : {} }, body);
      expect(res.status, String(authorization)).toBe(401);
    }
  });

  it('serves /metrics, /healthz and /readyz in plain HTTP on the metrics port, and no hook there', async () => {
    expect((await get(`http://127.0.0.1:${ports.metrics}/healthz`)).text).toBe('ok');
    expect((await get(`http://127.0.0.1:${ports.metrics}/readyz`)).status).toBe(200);
    expect((await get(`http://127.0.0.1:${ports.metrics}/metrics`)).text).toContain(
      'modelhooks_hook_requests_total{composition="trustyai",hook="sync",outcome="unauthorized"}',
    );
    const hook = await new Promise<number>((resolve, reject) => {
      http
        .request({ host: '127.0.0.1', port: ports.metrics, method: 'POST', path: '/hooks/trustyai/sync' }, (res) => resolve(res.statusCode ?? 0))
        .on('error', reject)
        .end(body);
    });
    expect(hook).toBe(404);
  });

  it('serves the pod webhook alone on MODELHOOKS_WEBHOOK_PORT, over HTTPS without a client certificate (the API server presents none)', async () => {
    const review = JSON.stringify({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: { uid: 'u', namespace: 'ns', object: { metadata: {}, spec: { containers: [] } } },
    });
    const res = await post({ port: ports.webhook, ca: certs.ca, path: '/mutate-pods' }, review);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u', allowed: true } });
    expect((await post({ port: ports.webhook, ca: certs.ca }, body)).status).toBe(404);
  });

  it('sets the timeouts; the slots are shared by hooks/server/connections.ts, not refused by Node', () => {
    expect([running.main.requestTimeout, running.main.headersTimeout, running.main.keepAliveTimeout, running.main.maxConnections]).toEqual([
      30_000,
      10_000,
      95_000,
      undefined,
    ]);
    expect(running.connections().refused).toBe(0);
    expect(running.health?.headersTimeout).toBe(10_000);
  });

  it('re-reads a renewed server certificate', async () => {
    const subject = () =>
      new Promise<string>((resolve, reject) => {
        const req = https.request({ host: '127.0.0.1', port: ports.main, path: '/healthz', ca: certs.ca, ...certs.client, agent: false }, (res) => {
          resolve(String((res.socket as import('node:tls').TLSSocket).getPeerCertificate().subject.CN));
          res.resume();
        });
        req.on('error', reject);
        req.end();
      });
    expect(await subject()).toBe('server');
    execFileSync(
      'openssl',
      ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=renewed', '-keyout', 'renewed.key', '-out', 'renewed.csr'],
      { cwd: dir, stdio: 'pipe' },
    );
    execFileSync(
      'openssl',
      [
        'x509',
        '-req',
        '-in',
        'renewed.csr',
        '-CA',
        'ca.crt',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-days',
        '2',
        '-extfile',
        'server.ext',
        '-out',
        'renewed.crt',
      ],
      { cwd: dir, stdio: 'pipe' },
    );
    writeFileSync(certs.file('server.key'), readFileSync(certs.file('renewed.key')));
    writeFileSync(certs.file('server.crt'), readFileSync(certs.file('renewed.crt')));
    let seen = '';
    for (let i = 0; i < 50 && seen !== 'renewed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      seen = await subject();
    }
    expect(seen).toBe('renewed');
  });
});
