/**
 * The attackers of test/soak/connections.ts, in a process of their own so that their TLS
 * handshakes do not slow down the client being measured: IDLE idle connections (plain: TCP
 * that sends nothing; mutual TLS: a valid client certificate, then nothing), SILENT raw TCP
 * connections that never start a handshake or a request, DRIPPING ones that send a byte a
 * second. Each reconnects when the server closes it (idle ones after a second, the others
 * after 100 ms). Stops after the seconds it is given, or when its parent goes.
 *
 *   node --import tsx test/soak/connection-attackers.ts <port> <plain|mtls> <certificate dir> <seconds>
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';

const [portArg = '', modeArg = 'plain', certDir = '', secondsArg = '60'] = process.argv.slice(2);
const port = Number(portArg);
const MODE = modeArg === 'mtls' ? 'mtls' : 'plain';
const IDLE = 1000;
const SILENT = 300;
const DRIPPING = 100;
const read = (f: string) => readFileSync(path.join(certDir, f));
const certs = { ca: read('ca.crt'), client: { cert: read('client.crt'), key: read('client.key') } };

let stopping = false;
const open = new Set<net.Socket>();
const stats = { idle: 0, silent: 0, dripping: 0, reconnects: 0 };

/** An attacker of `kind`: opens its socket, does its thing, and starts again when the server closes it. */
function attacker(kind: 'idle' | 'silent' | 'dripping'): void {
  if (stopping) return;
  const secureIdle = kind === 'idle' && MODE === 'mtls';
  const socket: net.Socket = secureIdle
    ? tls.connect({ port, host: '127.0.0.1', ca: certs.ca, cert: certs.client.cert, key: certs.client.key })
    : net.connect(port, '127.0.0.1');
  open.add(socket);
  stats[kind]++;
  let drip: NodeJS.Timeout | undefined;
  socket.on('error', () => {});
  socket.on(secureIdle ? 'secureConnect' : 'connect', () => {
    if (kind !== 'dripping') return;
    const text = MODE === 'mtls' ? '\u0016\u0003\u0001\u0002\u0000\u0001' : 'POST /hooks/trustyai/sync HTTP/1.1\r\nHost: x\r\n';
    let i = 0;
    drip = setInterval(() => socket.writable && socket.write(text[i++ % text.length] as string), 1000);
  });
  socket.once('close', () => {
    clearInterval(drip);
    open.delete(socket);
    stats.reconnects++;
    setTimeout(() => attacker(kind), kind === 'idle' ? 1000 : 100);
  });
}

const kinds = [...Array<'idle'>(IDLE).fill('idle'), ...Array<'silent'>(SILENT).fill('silent'), ...Array<'dripping'>(DRIPPING).fill('dripping')];
for (let i = 0; i < kinds.length; i++) {
  attacker(kinds[i] as 'idle' | 'silent' | 'dripping');
  if (i % 50 === 49) await new Promise((r) => setTimeout(r, 20));
}
process.send?.('ready');
const stop = () => {
  stopping = true;
  for (const s of open) s.destroy();
  console.log(`attackers (${MODE}): ${stats.idle} idle, ${stats.silent} silent, ${stats.dripping} dripping connections opened; ${open.size} open at the end`);
  process.exit(0);
};
setTimeout(stop, Number(secondsArg) * 1000);
process.on('disconnect', stop);
