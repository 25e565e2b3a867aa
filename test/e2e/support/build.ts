import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BuildResult {
  binDir: string;
  cached: boolean;
  /** This run. */
  seconds: number;
  /** What building the (possibly cached) binaries took. */
  builtSeconds: number;
}

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'build.sh');

/** Runs build.sh (a no-op when the binaries for the current go.mod/go.sum are cached); `tools`: extra ones, e.g. `helm`. */
export function buildBinaries(tools: string[] = []): Promise<BuildResult> {
  return new Promise((resolve, reject) => {
    // stderr passes through: a cold build takes many minutes and should say so.
    const child = spawn('bash', [script, ...tools], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`test/e2e/build.sh failed (exit ${code})`));
      const last = out.trim().split('\n').at(-1) ?? '';
      resolve(JSON.parse(last) as BuildResult);
    });
  });
}
