import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { syncRequest } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';
import { freePort } from '../support/free-port.js';

const root = path.resolve(import.meta.dirname, '../..');
/** Long enough for five /readyz probes 200 ms apart to fit on a loaded machine. */
const DRAIN_SECONDS = 4;
/**
 * Clients stop starting requests this long before the drain ends. A connection the kernel
 * accepts in the instant the listener closes is reset by the kernel, not by us; on a cluster no
 * request arrives then, because the endpoint left the Service when /readyz began to fail.
 */
const MARGIN_MS = 300;

interface Outcome {
  startedAt: number;
  status?: number;
  connection?: string;
  error?: string;
}

function post(agent: http.Agent, port: string, body: string): Promise<Omit<Outcome, 'startedAt'>> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        agent,
        method: 'POST',
        path: '/hooks/trustyai/sync',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: String(res.headers.connection) }));
        res.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
      },
    );
    req.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
    req.end(body);
  });
}

describe('shutdown under keep-alive load (the real `modelhooks serve`)', () => {
  it("on SIGTERM: /readyz fails at once, answers close their connections, no request started before the drain's last moments fails, exit 0", async () => {
    const port = String(await freePort());
    const child = spawn(process.execPath, ['--import', 'tsx', 'hooks/cli/main.ts', 'serve', '--port', port], {
      cwd: root,
      env: { ...process.env, MODELHOOKS_LOG_LEVEL: 'info', MODELHOOKS_HOST: '127.0.0.1', MODELHOOKS_DRAIN_SECONDS: String(DRAIN_SECONDS) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let logs = '';
    child.stdout.on('data', (d) => (logs += String(d)));
    child.stderr.on('data', (d) => (logs += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Starting under tsx takes seconds, more on a loaded 2-core machine (it once took over 15 s there): wait up to 60 s.
    for (let i = 0; i < 600 && !logs.includes('serving hooks') && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 100));
    expect(logs).toContain('serving hooks');

    const parent = {
      apiVersion: 'trustyai.opendatahub.io/v1',
      kind: 'TrustyAIService',
      metadata: { name: 'svc', namespace: 'team-a' },
      spec: { storage: { format: 'PVC' }, metrics: { schedule: '5s' } },
    };
    const body = JSON.stringify(syncRequest(trustyai, { parent }));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const outcomes: Outcome[] = [];
    let sigtermAt = Number.POSITIVE_INFINITY;
    let drainEnd = Number.POSITIVE_INFINITY;
    const worker = async () => {
      while (Date.now() < drainEnd - MARGIN_MS) {
        const startedAt = Date.now();
        outcomes.push({ startedAt, ...(await post(agent, port, body)) });
      }
    };
    const workers = Array.from({ length: 8 }, worker);

    // Keep-alive traffic under way before SIGTERM: wait for it rather than a fixed time (a loaded machine is slow to warm up).
    for (let i = 0; i < 300 && outcomes.length < 40; i++) await new Promise((r) => setTimeout(r, 100));
    sigtermAt = Date.now();
    drainEnd = sigtermAt + DRAIN_SECONDS * 1000;
    child.kill('SIGTERM');
    const readiness: { at: number; status: number }[] = [];
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const status = await new Promise<number>((resolve) => {
        http
          .get({ host: '127.0.0.1', port, path: '/readyz', agent: false }, (res) => (res.resume(), resolve(res.statusCode ?? 0)))
          .on('error', () => resolve(0));
      });
      readiness.push({ at: Date.now(), status });
    }
    await Promise.all(workers);
    expect(await exited).toBe(0);
    agent.destroy();

    const before = outcomes.filter((o) => o.startedAt < sigtermAt);
    const during = outcomes.filter((o) => o.startedAt >= sigtermAt + 200 && o.startedAt < drainEnd);
    const failed = outcomes.filter((o) => o.error !== undefined || o.status !== 200).map((o) => ({ ...o, msAfterSigterm: o.startedAt - sigtermAt }));
    expect(failed, 'failed requests').toEqual([]);
    expect(before.length).toBeGreaterThan(20);
    expect(during.length).toBeGreaterThan(20);
    expect(before.some((o) => o.connection === 'keep-alive')).toBe(true);
    expect(during.every((o) => o.connection === 'close')).toBe(true);
    expect(readiness.map((r) => r.status)).toEqual([503, 503, 503, 503, 503]);
    expect(logs).toContain('draining');
    expect(logs).toContain('"msg":"stopped"');
    // After the drain the listener is closed.
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });
});
