import type { ChildProcess } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, logTail, spawnLogged, startCluster, terminate } from '../../e2e/support/cluster.js';
import { installCrd, referenceCrds } from '../../e2e/support/install.js';
import { runBuildScript } from '../../e2e/support/build.js';
import { Kube, type KubeInfo } from '../../e2e/support/kube.js';
import { CONTROLLERS, writeKubeconfig } from '../../live/support/cluster.js';
import { startFakeKubelet } from '../../live/support/kubelet.js';
import { installKServe, type KServeManager } from './kserve.js';

export interface OracleBuild {
  binDir: string;
  kserveManager: string;
  kserveModule: string;
  kserveVersion: string;
  cached: boolean;
  seconds: number;
}

const script = path.join(import.meta.dirname, '..', 'build.sh');

/** Runs test/oracle/build.sh (the live tier's binaries, then KServe's manager; cached). */
export function buildOracleBinaries(): Promise<OracleBuild> {
  return runBuildScript<OracleBuild>(script);
}

export interface OracleCluster {
  info: KubeInfo;
  kube: Kube;
  dir: string;
  kserve: KServeManager;
  /** Seconds from nothing to KServe's webhook server ready, and of KServe's manager alone. */
  startSeconds: number;
  logs(lines?: number): string;
  stop(): Promise<void>;
}

/**
 * etcd + kube-apiserver (the e2e tier's), kube-controller-manager (the live tier's
 * controllers: Deployments make ReplicaSets make Pods, which KServe's pod webhook mutates), the
 * live tier's fake kubelet (Pods Running and Ready, so KServe reaches Ready and makes its
 * Ingress), KServe installed (test/oracle/support/kserve.ts) and its manager running. No
 * Metacontroller: modelhooks' children are dry-run (see oracle.oracle.ts).
 */
export async function startOracleCluster(build: OracleBuild, keep = false): Promise<OracleCluster> {
  const t0 = Date.now();
  const cluster = await startCluster(build.binDir, {
    prefix: 'modelhooks-oracle-',
    keepDir: true,
    apiserverArgs: ['--service-cluster-ip-range=10.96.0.0/16'],
  });
  const { dir, info } = cluster;
  const kube = new Kube(info);
  const procs: ChildProcess[] = [];
  let kubeletStop = () => undefined as void;
  let kserve: KServeManager | undefined;
  const logs = (lines = 40) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.log'))
      .map((f) => `--- ${f} (last ${lines} lines)\n${logTail(dir, f.slice(0, -4)).split('\n').slice(-lines).join('\n')}`)
      .join('\n');
  const stop = async () => {
    kubeletStop();
    await kserve?.stop();
    await Promise.all(procs.map((p) => terminate(p)));
    await cluster.stop();
    if (!keep) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const kubeconfig = writeKubeconfig(dir, info);
    // Gateway API's HTTPRoute (vendored, test/vendor/crds): KServe watches HTTPRoutes when a group turns enableGatewayApi on.
    for (const crd of referenceCrds().filter((c) => c.spec.names.kind === 'HTTPRoute')) await installCrd(kube, crd);
    // KServe's CRDs before kube-controller-manager (its garbage collector discovers resources at start).
    kserve = await installKServe(kube, {
      moduleDir: build.kserveModule,
      version: build.kserveVersion,
      binary: build.kserveManager,
      dir,
      kubeconfig,
      beforeStart: async () => {
        procs.push(
          spawnLogged(dir, 'kube-controller-manager', path.join(build.binDir, 'kube-controller-manager'), [
            `--kubeconfig=${kubeconfig}`,
            `--controllers=${CONTROLLERS.join(',')}`,
            '--leader-elect=false',
            '--bind-address=127.0.0.1',
            `--secure-port=${await freePort()}`,
            '--authentication-skip-lookup=true',
            `--service-account-private-key-file=${path.join(dir, 'sa.key')}`,
            `--root-ca-file=${path.join(dir, 'ca.crt')}`,
            '--v=1',
          ]),
        );
        const kubelet = await startFakeKubelet(kube, (line) => writeFileSync(path.join(dir, 'fake-kubelet.log'), `${line}\n`, { flag: 'a' }));
        kubeletStop = kubelet.stop;
      },
    });
    return { info, kube, dir, kserve, startSeconds: (Date.now() - t0) / 1000, logs, stop };
  } catch (error) {
    const tails = logs(30);
    await stop();
    throw new Error(`${String(error)}\n${tails}`);
  }
}
