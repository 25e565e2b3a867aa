import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface LiveBuild {
  binDir: string;
  cached: boolean;
  seconds: number;
  metacontrollerSrc: string;
}

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'build.sh');

/** Runs test/live/build.sh (test/e2e/build.sh, then kube-controller-manager and Metacontroller; cached). */
export function buildLiveBinaries(): Promise<LiveBuild> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`test/live/build.sh failed (exit ${code})`));
      resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as LiveBuild);
    });
  });
}
