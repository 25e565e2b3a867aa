import { readdirSync } from 'node:fs';
import { beforeEach, inject } from 'vitest';
import { logTail } from '../../e2e/support/cluster.js';
import { Kube, type KubeInfo } from '../../e2e/support/kube.js';

declare module 'vitest' {
  export interface ProvidedContext {
    kube: KubeInfo;
    live: { dir: string; hookUrl: string; control: string };
  }
}

export function kube(): Kube {
  return new Kube(inject('kube'));
}

export function live() {
  return inject('live');
}

/** Stops or starts the hook server (it runs in the global setup's process). */
export async function hookServer(action: 'stop' | 'start'): Promise<void> {
  const res = await fetch(`${live().control}/hooks/${action}`, { method: 'POST' });
  if (!res.ok) throw new Error(`hook server ${action}: ${res.status} ${await res.text()}`);
}

/** The tail of every process's log (etcd, kube-apiserver, kube-controller-manager, metacontroller, hooks, fake kubelet). */
export function logs(lines = 40): string {
  const dir = live().dir;
  return readdirSync(dir)
    .filter((f) => f.endsWith('.log') && f !== 'counts.log')
    .map((f) => `--- ${f} (last ${lines} lines)\n${logTail(dir, f.slice(0, -4)).split('\n').slice(-lines).join('\n')}`)
    .join('\n');
}

/** Call at the top of a file: a failed test prints the processes' logs. */
export function printLogsOnFailure(lines = 40): void {
  beforeEach(({ onTestFailed }) => onTestFailed(() => console.log(`\n${logs(lines)}\n(LIVE_KEEP_TMP=1 keeps ${live().dir})`)));
}
