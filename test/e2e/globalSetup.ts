import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildBinaries } from './support/build.js';
import { startCluster } from './support/cluster.js';
import './support/context.js';

/** Builds (or reuses) the binaries, starts etcd + kube-apiserver, prints a summary at the end. */
export default async function setup(project: TestProject) {
  const build = await buildBinaries();
  const started = Date.now();
  const cluster = await startCluster(build.binDir);
  const startSeconds = (Date.now() - started) / 1000;
  project.provide('kube', cluster.info);
  project.provide('binDir', build.binDir);

  return async () => {
    const counts = readCounts(cluster.dir);
    await cluster.stop();
    const version = (bin: string, ...args: string[]) => execFileSync(path.join(build.binDir, bin), args, { encoding: 'utf8' }).trim().split('\n')[0];
    console.log(
      [
        '',
        'e2e summary',
        `  kube-apiserver: ${version('kube-apiserver', '--version')}`,
        `  etcd:           ${version('etcd', '--version')}`,
        `  kustomize:      ${version('kustomize', 'version')}`,
        `  binaries:       ${build.cached ? `cached (built in ${build.builtSeconds}s)` : `built in ${build.seconds}s`}, ${build.binDir}`,
        `  cluster start:  ${startSeconds.toFixed(1)}s`,
        `  objects:        ${counts.dryRun ?? 0} dry-run, ${counts.created ?? 0} created`,
        '',
      ].join('\n'),
    );
  };
}

function readCounts(dir: string): Record<string, number> {
  const counts: Record<string, number> = {};
  try {
    for (const line of readFileSync(path.join(dir, 'counts.log'), 'utf8').split('\n')) {
      if (line) counts[line] = (counts[line] ?? 0) + 1;
    }
  } catch {
    // no object was written
  }
  return counts;
}
