import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { buildLiveBinaries } from './support/build.js';
import { startLiveCluster } from './support/cluster.js';
import './support/context.js';

/**
 * Builds (or reuses) the binaries and starts the live cluster once for every file. The hook
 * server belongs to this process; tests stop and start it through a small control server on
 * loopback (POST /hooks/stop, /hooks/start).
 */
export default async function setup(project: TestProject) {
  const build = await buildLiveBinaries();
  const started = Date.now();
  const live = await startLiveCluster({
    binDir: build.binDir,
    metacontrollerSrc: build.metacontrollerSrc,
    metacontrollerLogLevel: process.env.LIVE_METACONTROLLER_LOG_LEVEL,
    keep: Boolean(process.env.LIVE_KEEP_TMP),
    // One log line per hook request with its parent: credentials.live.ts counts a parent's syncs.
    hookEnv: { MODELHOOKS_LOG_LEVEL: process.env.MODELHOOKS_LOG_LEVEL ?? 'debug' },
  });
  const startSeconds = (Date.now() - started) / 1000;

  const control = createServer((req, res) => {
    const action = req.method === 'POST' ? { '/hooks/stop': live.hooks.stop, '/hooks/start': live.hooks.start }[req.url ?? ''] : undefined;
    if (!action) return res.writeHead(404).end();
    action().then(
      () => res.writeHead(204).end(),
      (e: unknown) => res.writeHead(500).end(String(e)),
    );
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));

  project.provide('kube', live.info);
  project.provide('live', {
    dir: live.dir,
    hookUrl: live.hooks.url,
    control: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
  });

  return async () => {
    control.close();
    control.closeAllConnections(); // the workers' keep-alive connections would hold the process open
    await live.stop();
    console.log(
      [
        '',
        'live summary',
        `  binaries:       ${build.cached ? 'cached' : `built in ${build.seconds}s`}, ${build.binDir}`,
        `  metacontroller: built from ${build.metacontrollerSrc}`,
        `  cluster start:  ${startSeconds.toFixed(1)}s (etcd, kube-apiserver, kube-controller-manager, fake kubelet, Metacontroller, hook server)`,
        `  logs:           ${process.env.LIVE_KEEP_TMP ? `kept in ${live.dir}` : 'removed (LIVE_KEEP_TMP=1 keeps them)'}`,
        '',
      ].join('\n'),
    );
  };
}
