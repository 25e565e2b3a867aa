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
  return runBuildScript<BuildResult>(script, tools);
}

/**
 * Runs a tier's build script (this one, test/live/build.sh, test/oracle/build.sh): stderr passes
 * through (a cold build takes many minutes and should say so); its last stdout line is its JSON summary.
 */
export function runBuildScript<T>(file: string, args: string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [file, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${path.relative(path.join(path.dirname(file), '..', '..'), file)} failed (exit ${code})`));
      resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as T);
    });
  });
}
