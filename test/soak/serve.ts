/**
 * The real `modelhooks serve` for a soak script (run with tsx, as CI does): started with the
 * given node flags on the command line and environment, waited for on /healthz, and the
 * script's exit — its code, or 1 (the server killed) when it throws.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { freePort } from '../support/free-port.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface SoakServer {
  port: string;
  /** The server's exit code once it has exited, undefined while it runs. */
  exited(): number | null | undefined;
  /** SIGTERM, then waits for the exit (nothing if it has exited already). */
  stop(): Promise<void>;
}

const healthy = (port: string) =>
  new Promise<boolean>((resolve) => {
    http.get({ host: '127.0.0.1', port, path: '/healthz' }, (res) => resolve(res.resume().statusCode === 200)).on('error', () => resolve(false));
  });

async function start(child: ChildProcess, port: string, healthPort = port): Promise<SoakServer> {
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  const server: SoakServer = {
    port,
    exited: () => exited,
    stop: async () => {
      if (exited !== undefined) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
  for (let i = 0; i < 200; i++) {
    if (await healthy(healthPort)) return server;
    if (exited !== undefined) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not start');
}

/** Starts the server, runs `main` against it and exits with its code. */
export function runSoak(o: { nodeFlags: string[]; env: NodeJS.ProcessEnv; healthPort?: string }, main: (server: SoakServer) => Promise<number>): void {
  let child: ChildProcess | undefined;
  const run = async () => {
    const port = String(await freePort());
    child = spawn(process.execPath, [...o.nodeFlags, '--import', 'tsx', 'hooks/cli/main.ts', 'serve', '--port', port], {
      cwd: ROOT,
      env: { ...process.env, MODELHOOKS_HOST: '127.0.0.1', MODELHOOKS_LOG_LEVEL: 'warn', MODELHOOKS_DRAIN_SECONDS: '0', ...o.env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    return main(await start(child, port, o.healthPort));
  };
  run().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      child?.kill('SIGKILL');
      process.exit(1);
    },
  );
}

/** One request to the soak's server (JSON when it has a body), its status and text. */
export function request(port: string, method: string, urlPath: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const gauge = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);

/** The server's peak RSS, heap used and answer cache bytes so far, raised by each `sample()` of its /metrics. */
export function memoryPeaks(port: string): { peak: { rss: number; heap: number; cache: number }; sample(): Promise<void> } {
  const peak = { rss: 0, heap: 0, cache: 0 };
  const sample = async () => {
    const text = (await request(port, 'GET', '/metrics')).text;
    peak.rss = Math.max(peak.rss, gauge(text, 'process_resident_memory_bytes'));
    peak.heap = Math.max(peak.heap, gauge(text, 'nodejs_heap_size_used_bytes'));
    peak.cache = Math.max(peak.cache, gauge(text, 'modelhooks_answer_cache_bytes'));
  };
  return { peak, sample };
}
