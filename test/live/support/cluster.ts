import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { openSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseAllDocuments } from 'yaml';
import { freePort, logTail, spawnLogged, startCluster, terminate } from '../../e2e/support/cluster.js';
import { fromRoot, objectsIn, readObjects } from '../../e2e/support/files.js';
import { installCrd, type Crd } from '../../e2e/support/install.js';
import { Kube, type KubeInfo, type KubeObject } from '../../e2e/support/kube.js';
import { startFakeKubelet } from './kubelet.js';

/** kube-controller-manager's controllers the examples and scenarios need (and no more: 2 cores). */
export const CONTROLLERS = [
  'deployment-controller',
  'replicaset-controller',
  'garbage-collector-controller',
  'namespace-controller',
  'serviceaccount-controller',
  'job-controller',
  'horizontal-pod-autoscaler-controller',
  'persistentvolumeclaim-protection-controller',
];

/** The flags docs/install.md § Metacontroller recommends, and a short discovery interval (CRDs appear late). */
export const METACONTROLLER_FLAGS = ['--client-go-qps=50', '--client-go-burst=100', '--discovery-interval=2s'];

export interface LiveOptions {
  /** Directory holding kube-apiserver, etcd, kustomize, kube-controller-manager and metacontroller. */
  binDir: string;
  /** Metacontroller's source (its CRDs are applied from manifests/production). */
  metacontrollerSrc: string;
  /** Extra environment of the hook server (MODELHOOKS_* variables). */
  hookEnv?: Record<string, string>;
  /** Metacontroller's --zap-log-level (default `info`; 4 logs every child event, 5 every update's diff). */
  metacontrollerLogLevel?: string;
  /** Keep the temp dir (logs, certificates) after stop. */
  keep?: boolean;
}

export interface HookServer {
  url: string;
  port: number;
  /** SIGTERM (the server drains as in a pod) and wait for the exit. */
  stop(): Promise<void>;
  /** Start it again on the same port (nothing when it runs); resolves once /readyz answers 200. */
  start(): Promise<void>;
  running(): boolean;
}

export interface LiveCluster {
  info: KubeInfo;
  dir: string;
  hooks: HookServer;
  /** The tail of one process's log (etcd, kube-apiserver, kube-controller-manager, metacontroller, hooks). */
  logTail(name: string, lines?: number): string;
  /** Every log's tail, for a failure report. */
  logs(lines?: number): string;
  stop(): Promise<void>;
}

/**
 * etcd + kube-apiserver (as the e2e tier starts them), kube-controller-manager, a fake kubelet,
 * Metacontroller built from source, the project's CRDs and CompositeControllers (kustomize build
 * of compositions/base, as docs/install.md installs them) pointed at a hook server on 127.0.0.1
 * started as `npm start` starts it. For the live tests and for a `bench --live`.
 */
export async function startLiveCluster(opts: LiveOptions): Promise<LiveCluster> {
  const cluster = await startCluster(opts.binDir, {
    prefix: 'modelhooks-live-',
    keepDir: true,
    // Room for many Services (the default /24 holds 254).
    apiserverArgs: ['--service-cluster-ip-range=10.96.0.0/16'],
  });
  const { dir, info } = cluster;
  const procs: ChildProcess[] = [];
  let kubeletStop = () => undefined as void;
  let hooks: HookServer | undefined;
  const logNames = () =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.log'))
      .map((f) => f.slice(0, -4));
  const tail = (name: string, lines = 60) => logTail(dir, name).split('\n').slice(-lines).join('\n');
  const stop = async () => {
    kubeletStop();
    await hooks?.stop();
    // Clients of the API server: stopped together, before it.
    await Promise.all(procs.map((p) => terminate(p)));
    await cluster.stop();
    if (!opts.keep) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const kube = new Kube(info);
    const kubeconfig = writeKubeconfig(dir, info);
    const [kcmHealth, mcMetrics, mcHealth] = [await freePort(), await freePort(), await freePort()];
    // The CRDs before kube-controller-manager: its garbage collector finds the resources to watch
    // by discovery when it starts and again only every 30 s (kube-controller-manager v1.35 cmd/kube-controller-manager/app/core.go, syncPeriod), and until
    // then a deleted InferenceService's children wait in its retry backoff (seen: > 30 s).
    for (const crd of readObjects(path.join(opts.metacontrollerSrc, 'manifests/production/metacontroller-crds-v1.yaml'))) {
      await installCrd(kube, crd as Crd);
    }
    for (const { obj } of objectsIn(fromRoot('crds'))) if (obj.kind === 'CustomResourceDefinition') await installCrd(kube, obj as Crd);
    procs.push(
      spawnLogged(dir, 'kube-controller-manager', path.join(opts.binDir, 'kube-controller-manager'), [
        `--kubeconfig=${kubeconfig}`,
        `--controllers=${CONTROLLERS.join(',')}`,
        '--leader-elect=false',
        '--bind-address=127.0.0.1',
        `--secure-port=${kcmHealth}`,
        '--authentication-skip-lookup=true',
        `--service-account-private-key-file=${path.join(dir, 'sa.key')}`,
        `--root-ca-file=${path.join(dir, 'ca.crt')}`,
        '--concurrent-gc-syncs=5',
        '--v=1',
      ]),
    );
    const kubelet = await startFakeKubelet(kube, (line) => writeFileSync(path.join(dir, 'fake-kubelet.log'), `${line}\n`, { flag: 'a' }));
    kubeletStop = kubelet.stop;

    hooks = hookServer(dir, await freePort(), opts.hookEnv ?? {});
    await hooks.start();
    for (const cc of compositeControllers(opts.binDir, hooks.url)) await kube.apply(cc);

    procs.push(
      spawnLogged(dir, 'metacontroller', path.join(opts.binDir, 'metacontroller'), [
        `--kubeconfig=${kubeconfig}`,
        ...METACONTROLLER_FLAGS,
        `--metrics-address=127.0.0.1:${mcMetrics}`,
        `--health-probe-bind-address=127.0.0.1:${mcHealth}`,
        `--zap-log-level=${opts.metacontrollerLogLevel ?? 'info'}`,
      ]),
    );
    await waitFor(
      async () => (await fetch(`http://127.0.0.1:${mcHealth}/readyz`).catch(() => undefined))?.ok === true,
      60_000,
      () => {
        const dead = procs.find((p) => p.exitCode !== null);
        return dead ? `${dead.spawnfile} exited:\n${tail(path.basename(dead.spawnfile))}` : '';
      },
    );
    await waitForDefaultServiceAccount(kube);
    return {
      info,
      dir,
      hooks,
      logTail: tail,
      logs: (lines = 40) =>
        logNames()
          .map((n) => `--- ${n}.log (last ${lines} lines)\n${tail(n, lines)}`)
          .join('\n'),
      stop,
    };
  } catch (error) {
    const logs = logNames()
      .map((n) => `--- ${n}.log\n${tail(n, 30)}`)
      .join('\n');
    await stop();
    throw new Error(`${String(error)}\n${logs}`);
  }
}

/** The CompositeControllers of compositions/base as kustomize builds them, every hook URL on `hookUrl`. */
export function compositeControllers(binDir: string, hookUrl: string): KubeObject[] {
  const yaml = execFileSync(path.join(binDir, 'kustomize'), ['build', fromRoot('compositions/base')], { encoding: 'utf8' });
  const docs = parseAllDocuments(yaml).map((d) => d.toJS() as KubeObject);
  const out = docs.map((cc) => JSON.parse(JSON.stringify(cc).replaceAll('http://modelhooks.modelhooks-system.svc', hookUrl)) as KubeObject);
  const left = JSON.stringify(out).match(/https?:\/\/modelhooks\.[^"]*/);
  if (left) throw new Error(`a hook URL was not redirected: ${left[0]}`);
  return out;
}

/** A kubeconfig for a client on the host (the token of the API server's token file), written into `dir`. */
export function writeKubeconfig(dir: string, info: KubeInfo): string {
  const file = path.join(dir, 'kubeconfig');
  writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'live', cluster: { server: info.url, 'certificate-authority': path.join(dir, 'ca.crt') } }],
      users: [{ name: 'live', user: { token: info.token } }],
      contexts: [{ name: 'live', context: { cluster: 'live', user: 'live' } }],
      'current-context': 'live',
    }),
  );
  return file;
}

/** The hook server as `npm start` runs it (`tsx hooks/cli/main.ts serve`), on loopback. */
function hookServer(dir: string, port: number, env: Record<string, string>): HookServer {
  let proc: ChildProcess | undefined;
  const url = `http://127.0.0.1:${port}`;
  const server: HookServer = {
    url,
    port,
    running: () => proc !== undefined && proc.exitCode === null && proc.signalCode === null,
    async start() {
      // A second server on the same port would fail to bind while /readyz still answers from the first.
      if (server.running()) return;
      const log = openSync(path.join(dir, 'hooks.log'), 'a');
      proc = spawn(fromRoot('node_modules/.bin/tsx'), ['hooks/cli/main.ts', 'serve'], {
        cwd: fromRoot(),
        env: { ...process.env, PORT: String(port), MODELHOOKS_HOST: '127.0.0.1', MODELHOOKS_DRAIN_SECONDS: '0', ...env },
        stdio: ['ignore', log, log],
      });
      const p = proc;
      await waitFor(
        async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.ok === true,
        60_000,
        () => (p.exitCode !== null ? `hook server exited:\n${logTail(dir, 'hooks')}` : ''),
      );
    },
    async stop() {
      if (proc) await terminate(proc);
    },
  };
  return server;
}

async function waitForDefaultServiceAccount(kube: Kube): Promise<void> {
  await waitFor(async () => (await kube.request('GET', '/api/v1/namespaces/default/serviceaccounts/default')).status === 200, 60_000);
}

/** Polls `check` every 200 ms; `fatal` returning a message stops early (a process died). */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, fatal: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const dead = fatal();
    if (dead) throw new Error(dead);
    if (await check().catch(() => false)) return;
    await sleep(200);
  }
  throw new Error(`not ready after ${timeoutMs} ms`);
}
