/**
 * One server under load, in its own process so that it has an event loop (and a core) of
 * its own: `ours` (the app, as `modelhooks serve` builds it, at log level warn) or
 * `floor` (bare node:http that reads the body, JSON.parses it and writes a fixed answer of
 * the size of ours for that hook path: the least any Node hook server can do).
 *
 * IPC: tells the parent its port; answers `stats` with its CPU (process.cpuUsage()), the
 * requests it has served and its memory; takes `{ answers }` (the floor's fixed answers by
 * path); runs the V8 sampling profiler between `profile-start` and `{ profileTo }` (writes the
 * .cpuprofile, answers the top self-time functions, mapped to the .ts sources when run with
 * --enable-source-maps); exits on `exit` or when the parent goes.
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import { builtinCompositions } from '../hooks/compositions.js';
import { loadConfig } from '../hooks/server/config.js';
import { createApp } from '../hooks/server/app.js';
import { expressObjects } from '../hooks/server/listen.js';
import { type CpuProfile, type SelfTime, sourceMapLocate, topSelfTime } from './cpuprofile.js';

export type ServerKind = 'ours' | 'floor';
export interface ServerStats {
  cpuUs: number;
  served: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  /** Memory outside the V8 heap: Buffers (the answer cache's bodies) and the like. */
  external: number;
}
export type ToParent = { port: number } | { stats: ServerStats } | { answersSet: true } | { profiling: true } | { profile: { file: string; top: SelfTime[] } };
export type ToChild = 'stats' | 'exit' | 'profile-start' | { answers: Record<string, string> } | { profileTo: string; root: string };

let served = 0;
const answers = new Map<string, string>();

function floor(): http.Server {
  return http.createServer((req, res) => {
    served++;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const text = answers.get(req.url ?? '') ?? '{}';
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
}

function ours(): http.Server {
  const app = createApp({ compositions: builtinCompositions, config: loadConfig({ MODELHOOKS_LOG_LEVEL: 'warn' }) });
  // Made as hooks/server/listen.ts makes it (the app's prototypes on each request from the start).
  return http.createServer(expressObjects(app), (req, res) => {
    served++;
    app(req, res);
  });
}

const kind = process.argv[2] as ServerKind;
if (kind !== 'ours' && kind !== 'floor') throw new Error(`bench/server.ts: unknown kind ${String(kind)}`);
if (!process.send) throw new Error('bench/server.ts runs as a child of bench/run.ts (IPC)');
const send = (message: ToParent) => process.send?.(message);

const server = kind === 'ours' ? ours() : floor();
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  send({ port: address.port });
});
let session: Session | undefined;

async function startProfile(): Promise<void> {
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  send({ profiling: true });
}

async function stopProfile(file: string, root: string): Promise<void> {
  if (!session) throw new Error('no profile running');
  const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
  session.disconnect();
  writeFileSync(file, JSON.stringify(profile));
  send({ profile: { file, top: topSelfTime(profile, 10, sourceMapLocate(root)) } });
}

process.on('message', (message: ToChild) => {
  if (message === 'stats') {
    const cpu = process.cpuUsage();
    const mem = process.memoryUsage();
    send({ stats: { cpuUs: cpu.user + cpu.system, served, rss: mem.rss, heapUsed: mem.heapUsed, heapTotal: mem.heapTotal, external: mem.external } });
  } else if (message === 'exit') {
    process.exit(0);
  } else if (message === 'profile-start') {
    void startProfile();
  } else if (typeof message === 'object' && 'profileTo' in message) {
    void stopProfile(message.profileTo, message.root);
  } else if (typeof message === 'object' && 'answers' in message) {
    for (const [path, text] of Object.entries(message.answers)) answers.set(path, text);
    send({ answersSet: true });
  }
});
process.on('disconnect', () => process.exit(0));
