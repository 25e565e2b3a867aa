import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kube, type KubeInfo } from './kube.js';

/** A throwaway etcd + kube-apiserver on loopback; nothing else (no controllers, no nodes). */
export interface Cluster {
  info: KubeInfo;
  dir: string;
  stop(): Promise<void>;
}

/**
 * `apiserverArgs` are appended to kube-apiserver's flags (a repeated flag: the last one wins);
 * the live tier (test/live) passes a larger service range, and `keepDir` to remove the dir itself.
 */
export async function startCluster(binDir: string, opts: { apiserverArgs?: string[]; prefix?: string; keepDir?: boolean } = {}): Promise<Cluster> {
  const dir = mkdtempSync(path.join(tmpdir(), opts.prefix ?? 'modelhooks-e2e-'));
  const procs: ChildProcess[] = [];
  // Last resort when the runner dies without teardown: no orphaned servers left behind.
  // E2E_KEEP_TMP=1 keeps the certificates and the etcd / kube-apiserver logs for a post-mortem.
  const removeDir = () => opts.keepDir || process.env.E2E_KEEP_TMP || rmSync(dir, { recursive: true, force: true });
  const killAll = () => {
    procs.forEach((p) => p.exitCode === null && p.kill('SIGKILL'));
    removeDir();
  };
  process.once('exit', killAll);

  const stop = async () => {
    process.removeListener('exit', killAll);
    for (const p of procs.reverse()) await terminate(p);
    removeDir();
  };

  try {
    const [etcdClient, etcdPeer, apiPort] = [await freePort(), await freePort(), await freePort()];
    procs.push(
      spawnLogged(dir, 'etcd', path.join(binDir, 'etcd'), [
        '--name=e2e',
        `--data-dir=${path.join(dir, 'etcd-data')}`,
        `--listen-client-urls=http://127.0.0.1:${etcdClient}`,
        `--advertise-client-urls=http://127.0.0.1:${etcdClient}`,
        `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
        `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
        `--initial-cluster=e2e=http://127.0.0.1:${etcdPeer}`,
        '--unsafe-no-fsync', // the data is thrown away; fsync only slows the tier down
        '--log-level=warn',
      ]),
    );

    const token = randomBytes(24).toString('hex');
    const files = writeCredentials(dir, token);
    procs.push(
      spawnLogged(dir, 'kube-apiserver', path.join(binDir, 'kube-apiserver'), [
        `--etcd-servers=http://127.0.0.1:${etcdClient}`,
        '--bind-address=127.0.0.1',
        // Only written into the kubernetes Service's Endpoints, which refuse loopback addresses;
        // nothing connects to it (TEST-NET-1, RFC 5737).
        '--advertise-address=192.0.2.1',
        `--secure-port=${apiPort}`,
        `--tls-cert-file=${files.cert}`,
        `--tls-private-key-file=${files.key}`,
        `--token-auth-file=${files.tokens}`,
        '--authorization-mode=AlwaysAllow',
        `--service-account-key-file=${files.saPub}`,
        `--service-account-signing-key-file=${files.saKey}`,
        '--service-account-issuer=https://kubernetes.default.svc',
        '--service-cluster-ip-range=10.0.0.0/24',
        '--allow-privileged=true',
        ...(opts.apiserverArgs ?? []),
      ]),
    );

    const info: KubeInfo = { url: `https://127.0.0.1:${apiPort}`, token, ca: readFileSync(files.ca, 'utf8'), dir };
    await waitReady(new Kube(info), procs, dir);
    return { info, dir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A CA and a serving cert for 127.0.0.1 (openssl), a token file, a service-account key pair. */
function writeCredentials(dir: string, token: string) {
  const f = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=modelhooks-e2e-ca', '-keyout', 'ca.key', '-out', 'ca.crt');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=kube-apiserver', '-keyout', 'server.key', '-out', 'server.csr');
  writeFileSync(f('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
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
    'server.crt',
  );

  const sa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(f('sa.key'), sa.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(f('sa.pub'), sa.publicKey.export({ type: 'spki', format: 'pem' }));
  // system:masters so that the tier also works if someone switches to RBAC.
  writeFileSync(f('tokens.csv'), `${token},e2e-admin,e2e-admin,"system:masters"\n`);
  return { ca: f('ca.crt'), cert: f('server.crt'), key: f('server.key'), tokens: f('tokens.csv'), saKey: f('sa.key'), saPub: f('sa.pub') };
}

export function spawnLogged(dir: string, name: string, bin: string, args: string[]): ChildProcess {
  const log = openSync(path.join(dir, `${name}.log`), 'a');
  const child = spawn(bin, args, { stdio: ['ignore', log, log] });
  child.on('error', () => undefined); // reported by waitReady through exitCode / the log
  return child;
}

async function waitReady(kube: Kube, procs: ChildProcess[], dir: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  let last = '';
  while (Date.now() < deadline) {
    const dead = procs.find((p) => p.exitCode !== null || p.signalCode !== null);
    if (dead) throw new Error(`${dead.spawnfile} exited early:\n${logTail(dir, path.basename(dead.spawnfile))}`);
    try {
      const res = await kube.request('GET', '/readyz');
      if (res.status === 200) return;
      last = `readyz ${res.status}: ${res.text.slice(0, 2000)}`;
    } catch (error) {
      last = String(error);
    }
    await sleep(250);
  }
  throw new Error(`kube-apiserver not ready after 180s (${last})\n${logTail(dir, 'kube-apiserver')}`);
}

export function logTail(dir: string, name: string): string {
  try {
    return readFileSync(path.join(dir, `${name}.log`), 'utf8')
      .split('\n')
      .slice(-40)
      .join('\n');
  } catch {
    return '(no log)';
  }
}

export async function terminate(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return;
  const exited = new Promise((resolve) => p.once('exit', resolve));
  p.kill('SIGTERM');
  const timer = setTimeout(() => p.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
