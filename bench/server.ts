/**
 * One server under load, in its own process so that it has an event loop (and a core) of
 * its own: `ours` (the express app, as `modelhooks serve` builds it, at log level warn) or
 * `floor` (bare node:http that reads the body, JSON.parse and JSON.stringify of it: the least
 * any Node server can do with the request). Tells the parent its port over IPC, answers
 * `cpu` with its process.cpuUsage(), and exits when the parent goes.
 */
import http from 'node:http';
import { builtinCompositions } from '../hooks/compositions.js';
import { loadConfig } from '../hooks/config.js';
import { createApp } from '../hooks/server.js';

export type ServerKind = 'ours' | 'floor';
export type ToParent = { port: number } | { cpu: NodeJS.CpuUsage };

function floor(): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const text = JSON.stringify(body);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
}

function ours(): http.Server {
  const app = createApp({ compositions: builtinCompositions, config: loadConfig({ MODELHOOKS_LOG_LEVEL: 'warn' }) });
  return http.createServer(app);
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
process.on('message', (message) => {
  if (message === 'cpu') send({ cpu: process.cpuUsage() });
});
process.on('disconnect', () => process.exit(0));
