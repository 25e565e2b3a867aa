/**
 * The load generator (runs in the bench process) and the handle on a server child. N keep-alive
 * connections each send their next request as soon as the previous answer arrives. On 2 cores
 * the generator and the server compete for CPU: req/s and latency suffer from it, the server's
 * CPU per request (measured inside the child) much less.
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import http from 'node:http';
import type { SelfTime } from './cpuprofile.js';
import type { Measurement } from './report.js';
import type { ServerKind, ServerStats, ToChild, ToParent } from './server.js';

const REQUEST_TIMEOUT_MS = 10_000;
const MAX_SAMPLES = 1 << 21;

export class ServerChild {
  private constructor(
    readonly kind: ServerKind,
    readonly child: ChildProcess,
    readonly port: number,
  ) {}

  /** `script`: the transpiled bench/server.js (bench/compile.ts), run on plain node. */
  static start(script: string, kind: ServerKind, options: { execArgv?: string[]; core?: number; env?: NodeJS.ProcessEnv } = {}): Promise<ServerChild> {
    const child = fork(script, [kind], {
      execArgv: options.execArgv ?? [],
      env: options.env ?? process.env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    process.on('exit', () => child.kill());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${kind} server did not start within 60 s`)), 60_000);
      child.once('exit', (code) => reject(new Error(`${kind} server exited (${code}) before listening`)));
      child.once('message', (m: ToParent) => {
        clearTimeout(timer);
        if (!('port' in m)) return reject(new Error(`${kind} server: unexpected first message`));
        if (options.core !== undefined) pin(child.pid as number, options.core);
        resolve(new ServerChild(kind, child, m.port));
      });
    });
  }

  private ask<T>(message: ToChild, pick: (m: ToParent) => T | undefined): Promise<T> {
    return new Promise((resolve) => {
      const onMessage = (m: ToParent) => {
        const value = pick(m);
        if (value === undefined) return;
        this.child.off('message', onMessage);
        resolve(value);
      };
      this.child.on('message', onMessage);
      this.child.send(message);
    });
  }

  stats(): Promise<ServerStats> {
    return this.ask('stats', (m) => ('stats' in m ? m.stats : undefined));
  }

  setAnswers(answers: Record<string, string>): Promise<true> {
    return this.ask({ answers }, (m) => ('answersSet' in m ? true : undefined));
  }

  startProfile(): Promise<true> {
    return this.ask('profile-start', (m) => ('profiling' in m ? true : undefined));
  }

  /** Stops the profiler, which writes `file`; the top self-time functions, paths relative to `root`. */
  stopProfile(file: string, root: string): Promise<{ file: string; top: SelfTime[] }> {
    return this.ask({ profileTo: file, root }, (m) => ('profile' in m ? m.profile : undefined));
  }

  /** Asks the child to exit and waits for it. */
  stop(): Promise<void> {
    if (this.child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.send('exit');
    });
  }
}

/** Pins every thread of a process to one core (`taskset -a -cp`). */
export function pin(pid: number, core: number): void {
  execFileSync('taskset', ['-a', '-cp', String(core), String(pid)], { stdio: 'ignore' });
}

export interface Shot {
  path: string;
  body: Buffer;
  headers?: Record<string, string>;
  /** The status that counts as success. */
  expect: number;
}

export function post(
  agent: http.Agent,
  port: number,
  shot: Shot,
  keepBody = false,
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: shot.path,
        headers: { 'content-type': 'application/json', 'content-length': shot.body.length, ...shot.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => keepBody && chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: keepBody ? Buffer.concat(chunks).toString('utf8') : '', headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(shot.body);
  });
}

let sequence = 1;

/** `concurrency` connections sending `next(i)` until `more()` says stop; `each` sees every answer. */
async function drive(
  port: number,
  concurrency: number,
  next: (i: number) => Shot,
  more: () => boolean,
  each: (sentMs: number, doneMs: number, ok: boolean) => void,
): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const worker = async () => {
    while (more()) {
      const shot = next(sequence++);
      const sent = performance.now();
      let ok = false;
      try {
        ok = (await post(agent, port, shot)).status === shot.expect;
      } catch {
        ok = false;
      }
      each(sent, performance.now(), ok);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
}

export interface LoadOptions {
  concurrency: number;
  warmupS: number;
  durationS: number;
  /** Measure on past durationS (up to 10× it, or 10 s) until this many answers arrived: a busy machine still gives figures. */
  minRequests: number;
}

/**
 * Warm-up, then measures the requests sent in the window: their latencies (client), and the
 * server's CPU ÷ the requests it served between two snapshots taken inside the child.
 */
export async function measure(target: ServerChild, next: (i: number) => Shot, o: LoadOptions): Promise<Measurement> {
  const latencies = new Float64Array(MAX_SAMPLES);
  let samples = 0;
  let requests = 0;
  let errors = 0;
  const t0 = performance.now();
  const measureFrom = t0 + o.warmupS * 1000;
  const measureTo = measureFrom + o.durationS * 1000;
  const hardStop = measureFrom + Math.max(10 * o.durationS, 10) * 1000;
  let clientBefore = process.cpuUsage();
  const atStart = new Promise<ServerStats>((resolve) =>
    setTimeout(() => {
      clientBefore = process.cpuUsage();
      void target.stats().then(resolve);
    }, o.warmupS * 1000),
  );
  let lastDone = measureFrom;
  await drive(
    target.port,
    o.concurrency,
    next,
    () => {
      const now = performance.now();
      return now < measureTo || (requests < o.minRequests && now < hardStop);
    },
    (sent, done, ok) => {
      if (sent < measureFrom) return;
      if (!ok) errors++;
      requests++;
      lastDone = Math.max(lastDone, done);
      if (samples < MAX_SAMPLES) latencies[samples++] = done - sent;
    },
  );
  const client = process.cpuUsage(clientBefore);
  const before = await atStart;
  const after = await target.stats();
  const sorted = latencies.subarray(0, samples).sort();
  const at = (q: number) => (samples === 0 ? NaN : (sorted[Math.min(samples - 1, Math.floor(q * samples))] as number));
  const served = after.served - before.served;
  const windowS = (lastDone - measureFrom) / 1000;
  return {
    requests,
    errors,
    rps: windowS > 0 ? requests / windowS : NaN,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    serverCpuUsPerRequest: served > 0 ? (after.cpuUs - before.cpuUs) / served : NaN,
    clientCpuUsPerRequest: requests > 0 ? (client.user + client.system) / requests : NaN,
    rssMb: after.rss / 2 ** 20,
  };
}

/** Exactly `count` requests; returns the errors. */
export async function soak(target: ServerChild, next: (i: number) => Shot, count: number, concurrency: number): Promise<number> {
  let issued = 0;
  let errors = 0;
  await drive(
    target.port,
    concurrency,
    (i) => (issued++, next(i)),
    () => issued < count,
    (_s, _d, ok) => void (ok || errors++),
  );
  return errors;
}
