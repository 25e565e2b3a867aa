/** What the figures were measured on: git revision, Node version, CPU model. */
import { execFileSync } from 'node:child_process';
import os from 'node:os';

export function revision(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return dirty ? `${sha}-dirty` : sha;
  } catch {
    return 'unknown';
  }
}

export const cpuModel = () => os.cpus()[0]?.model.trim() ?? 'unknown';
export const cores = () => os.availableParallelism();
export const load1m = () => Number((os.loadavg()[0] as number).toFixed(2));
