import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBinaries } from '../e2e/support/build.js';
import { fromRoot } from '../e2e/support/files.js';
import { freePort } from '../support/free-port.js';
import { waitFor } from './support/cluster.js';
import { kube, printLogsOnFailure } from './support/context.js';
import { type HostRuntime, startHostRuntime } from './support/runtime.js';
import { helmEnv } from '../e2e/support/helm.js';

/**
 * `helm test` of charts/modelhooks, passing for real (issue 33): the chart's test pod runs its
 * command, `node -e "fetch(...)" http://<release>-modelhooks.<namespace>.svc:80/healthz`, and
 * the hook server it reaches is the release's own Deployment's container; helm reads the pod's
 * phase from the exit code. The e2e tier (no kubelet) can only show the test pod admitted.
 *
 * What is simulated (support/runtime.ts): the images (the host's node runs each container's
 * command and args; the server's `dist/hooks/cli/main.js` is this checkout's
 * `hooks/cli/main.ts` through tsx), the pod network (each container port listens on a host
 * port), and DNS with kube-proxy (the Service URL is routed through the Service's port,
 * targetPort and selector to a Running pod's container). The scheduler and the kubelet's status
 * are the fake kubelet's. The chart's CompositeControllers stay off (builtin.enabled=false):
 * the live tier's own serve the built-in compositions, and Metacontroller runs on the host,
 * where no Service name resolves.
 */
const ns = 'live-chart';
printLogsOnFailure();

const scratch = mkdtempSync(path.join(tmpdir(), 'modelhooks-live-chart-'));
const env = helmEnv(scratch);
let helmBin = '';
let runtime: HostRuntime | undefined;
/** helm, never blocking this process: the runtime (in this process) runs the pods helm waits for. */
const helm = async (...args: string[]) =>
  (await promisify(execFile)(helmBin, [...args, '--kubeconfig', path.join(scratch, 'kubeconfig'), '--namespace', ns], { encoding: 'utf8', env })).stdout;
/** helm's output, or its error output when it fails. */
const helmResult = async (...args: string[]) => {
  try {
    return { ok: true, out: await helm(...args) };
  } catch (e) {
    return { ok: false, out: `${String((e as { stdout?: unknown }).stdout)}${String((e as { stderr?: unknown }).stderr)}` };
  }
};

beforeAll(async () => {
  helmBin = path.join((await buildBinaries(['helm'])).binDir, 'helm');
  const { url, token, ca } = kube().info;
  writeFileSync(
    path.join(scratch, 'kubeconfig'),
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'live', cluster: { server: url, 'certificate-authority-data': Buffer.from(ca).toString('base64') } }],
      users: [{ name: 'live', user: { token } }],
      contexts: [{ name: 'live', context: { cluster: 'live', user: 'live' } }],
      'current-context': 'live',
    }),
    { mode: 0o600 },
  );
  await kube().ensureNamespace(ns);
  runtime = await startHostRuntime(
    kube(),
    ns,
    (container) => {
      const command = container.command ?? [];
      // The server's image: /app is this checkout, dist/ its source run by tsx; ports on free host ports.
      if (command.includes('dist/hooks/cli/main.js')) return serverImage(command, container.args ?? []);
      return { command, args: container.args ?? [], cwd: scratch };
    },
    (line) => console.log(line),
  );
}, 600_000);

let serverPorts: Record<number, number> = {};
function serverImage(command: string[], args: string[]) {
  return {
    command: command.flatMap((c) => (c === 'node' ? ['node', '--import', 'tsx'] : [c === 'dist/hooks/cli/main.js' ? 'hooks/cli/main.ts' : c])),
    args,
    cwd: fromRoot(),
    env: { PORT: String(serverPorts[8080]), MODELHOOKS_METRICS_PORT: String(serverPorts[9090]), MODELHOOKS_HOST: '127.0.0.1', MODELHOOKS_DRAIN_SECONDS: '0' },
    ports: serverPorts,
  };
}

afterAll(async () => {
  runtime?.stop();
  await helm('uninstall', 'hooks').catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

describe('charts/modelhooks: `helm test` through a running hook server (test/live/support/runtime.ts)', () => {
  const k = kube();

  it('installs one replica; its container serves /healthz on the host', async () => {
    serverPorts = { 8080: await freePort(), 9090: await freePort() };
    expect(await helm('install', 'hooks', fromRoot('charts/modelhooks'), '--set', 'builtin.enabled=false', '--set', 'replicas=1')).toContain(
      'STATUS: deployed',
    );
    // /healthz is on the metrics port (MODELHOOKS_METRICS_PORT), as the probes and the test pod call it.
    await waitFor(async () => (await fetch(`http://127.0.0.1:${serverPorts[9090]}/healthz`).catch(() => undefined))?.ok === true, 120_000);
    const server = runtime?.runs.find((r) => r.container === 'modelhooks');
    expect(server?.pod).toMatch(/^hooks-modelhooks-/);
    expect(server?.argv.slice(-2)).toEqual(['hooks/cli/main.ts', 'serve']);
  }, 180_000);

  it('helm test passes: its pod fetched /healthz through the Service and exited 0', async () => {
    const { ok, out } = await helmResult('test', 'hooks', '--timeout', '90s');
    expect(out).toMatch(/TEST SUITE:\s+hooks-modelhooks-test-healthz[\s\S]*Phase:\s+Succeeded/);
    expect(ok).toBe(true);
    const test = runtime?.runs.filter((r) => r.container === 'healthz').at(-1);
    expect(test?.argv.at(-1)).toBe(`http://127.0.0.1:${serverPorts[9090]}/healthz`);
    expect(test?.exitCode).toBe(0);
    expect(test?.output).toMatch(/^200 /);
  }, 120_000);

  it('helm test fails when the server does not answer: the same pod exits 1, no pass is made up', async () => {
    const server = runtime?.runs.find((r) => r.container === 'modelhooks');
    // Scale to zero: the pod goes, its process is killed, and the Service has no pod behind it.
    await k.call('PATCH', `/apis/apps/v1/namespaces/${ns}/deployments/hooks-modelhooks`, { spec: { replicas: 0 } }, 'application/merge-patch+json');
    await waitFor(async () => (await fetch(`http://127.0.0.1:${serverPorts[9090]}/healthz`).catch(() => undefined)) === undefined, 60_000);
    await waitFor(async () => server?.exitCode === null, 30_000); // killed by a signal, as the kubelet stops a container
    const { ok, out } = await helmResult('test', 'hooks', '--timeout', '90s');
    expect(out).toMatch(/Phase:\s+Failed|hooks-modelhooks-test-healthz failed/);
    expect(ok).toBe(false);
    const test = runtime?.runs.filter((r) => r.container === 'healthz').at(-1);
    expect(test?.exitCode).toBe(1);
  }, 180_000);
});
