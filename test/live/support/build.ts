import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBuildScript } from '../../e2e/support/build.js';

export interface LiveBuild {
  binDir: string;
  cached: boolean;
  seconds: number;
  metacontrollerSrc: string;
}

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'build.sh');

/** Runs test/live/build.sh (test/e2e/build.sh, then kube-controller-manager and Metacontroller; cached). */
export function buildLiveBinaries(): Promise<LiveBuild> {
  return runBuildScript<LiveBuild>(script);
}
