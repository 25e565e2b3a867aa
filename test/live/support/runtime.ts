import { type ChildProcess, spawn } from 'node:child_process';
import type { Kube, KubeObject } from '../../e2e/support/kube.js';
import { listAndWatch, type Watch, type WatchEvent } from './watch.js';

/**
 * A container runtime behind the fake kubelet (support/kubelet.ts), for the pods of one
 * namespace: once the fake kubelet has reported a pod Running (bound, with a pod IP), each of
 * its containers' command and args runs as a host process. What stays simulated, and how:
 *
 * - The image: `image(container)` says what the container runs on the host (e.g. the host's
 *   `node` and this checkout for the hook server's image), its command and args otherwise
 *   unchanged, with the container's env (`value`s) and the overrides `image` gives.
 * - The network: a container port listens on a host port (`image` chooses it); an
 *   `http(s)://<service>.<namespace>.svc[:port]` in a command or arg is rewritten to it as DNS
 *   and kube-proxy would route it: the Service, its port and targetPort (by number or name),
 *   the Running pods its selector matches, and the container port of one of them. Any step that
 *   fails leaves the URL as it was, which the host cannot resolve: the process fails.
 * - Exit: a pod with restartPolicy Never is reported Succeeded or Failed with the process's exit
 *   code, as the kubelet reports it; other pods' processes run until the pod is deleted.
 */
export interface HostImage {
  command: string[];
  args: string[];
  env?: Record<string, string>;
  cwd: string;
  /** containerPort → the host port the process listens on for it. */
  ports?: Record<number, number>;
}

type Container = { name: string; image: string; command?: string[]; args?: string[]; env?: { name: string; value?: string }[] };
type Pod = KubeObject & {
  metadata: KubeObject['metadata'] & { uid?: string; labels?: Record<string, string>; deletionTimestamp?: string };
  spec: { containers: Container[]; restartPolicy?: string; nodeName?: string };
  status?: { phase?: string; podIP?: string };
};

export interface Run {
  pod: string;
  container: string;
  argv: string[];
  exitCode?: number | null;
  output: string;
}

export interface HostRuntime {
  /** Every process started, in order, with its output and exit code once it exited. */
  runs: Run[];
  /** The host address of a container port of a pod this runtime runs. */
  address(pod: string, containerPort: number): string | undefined;
  stop(): void;
}

export async function startHostRuntime(
  kube: Kube,
  namespace: string,
  image: (container: Container, pod: Pod) => HostImage,
  log: (line: string) => void = () => undefined,
): Promise<HostRuntime> {
  const started = new Set<string>();
  const processes = new Map<string, ChildProcess[]>();
  const ports = new Map<string, Record<number, number>>(); // pod name → containerPort → host port
  const runs: Run[] = [];

  /** Where a Service URL goes: the host port of a Running pod's container port behind it (kube-proxy's choice, made here by the first pod). */
  async function resolve(url: string): Promise<string> {
    const m = /^(https?):\/\/([a-z0-9-]+)\.([a-z0-9-]+)\.svc(?:\.cluster\.local)?(?::(\d+))?(\/.*)?$/.exec(url);
    if (!m) return url;
    const [, scheme, name, ns, portText, rest] = m as unknown as [string, string, string, string, string | undefined, string | undefined];
    const service = (await kube.get('v1', 'Service', name, ns).catch(() => undefined)) as
      | { spec: { selector?: Record<string, string>; ports: { port: number; targetPort?: number | string }[] } }
      | undefined;
    const port = Number(portText ?? (scheme === 'https' ? 443 : 80));
    const servicePort = service?.spec.ports.find((p) => p.port === port);
    if (!service?.spec.selector || !servicePort) return log(`runtime: ${url}: no Service ${ns}/${name} with port ${port}`), url;
    const selector = Object.entries(service.spec.selector)
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const pods = await kube.call<{ items: Pod[] }>('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(selector)}`);
    for (const pod of pods.items.filter((p) => p.status?.phase === 'Running' && !p.metadata.deletionTimestamp)) {
      const target = servicePort.targetPort ?? servicePort.port;
      const containerPort =
        typeof target === 'number'
          ? target
          : pod.spec.containers.flatMap((c) => (c as { ports?: { name?: string; containerPort: number }[] }).ports ?? []).find((p) => p.name === target)
              ?.containerPort;
      const hostPort = containerPort === undefined ? undefined : ports.get(pod.metadata.name)?.[containerPort];
      if (hostPort !== undefined) return `${scheme}://127.0.0.1:${hostPort}${rest ?? ''}`;
    }
    log(`runtime: ${url}: no Running pod behind Service ${ns}/${name} port ${port} that this runtime runs`);
    return url;
  }

  const report = (pod: Pod, container: Container, exitCode: number) => {
    const t = new Date().toISOString();
    const phase = exitCode === 0 ? 'Succeeded' : 'Failed';
    const status = {
      phase,
      conditions: [
        { type: 'Ready', status: 'False', lastTransitionTime: t, reason: 'PodCompleted' },
        { type: 'ContainersReady', status: 'False', lastTransitionTime: t, reason: 'PodCompleted' },
      ],
      containerStatuses: [
        {
          name: container.name,
          image: container.image,
          imageID: '',
          containerID: `host://${pod.metadata.uid}/${container.name}`,
          ready: false,
          started: false,
          restartCount: 0,
          state: { terminated: { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: t, finishedAt: t } },
        },
      ],
    };
    kube
      .call('PATCH', `/api/v1/namespaces/${namespace}/pods/${pod.metadata.name}/status`, { status }, 'application/merge-patch+json')
      .catch((e: unknown) => log(`runtime: reporting ${pod.metadata.name} ${phase}: ${String(e)}`));
  };

  async function run(pod: Pod): Promise<void> {
    const children: ChildProcess[] = [];
    processes.set(pod.metadata.name, children);
    for (const container of pod.spec.containers) {
      const host = image(container, pod);
      ports.set(pod.metadata.name, { ...ports.get(pod.metadata.name), ...host.ports });
      const argv = await Promise.all([...host.command, ...host.args].map(resolve));
      const env = Object.fromEntries((container.env ?? []).filter((e) => e.value !== undefined).map((e) => [e.name, e.value as string]));
      const record: Run = { pod: pod.metadata.name, container: container.name, argv, output: '' };
      runs.push(record);
      log(`runtime: ${pod.metadata.name}/${container.name}: ${argv.join(' ')}`);
      const child = spawn(argv[0] as string, argv.slice(1), {
        cwd: host.cwd,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, ...host.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      child.stdout?.on('data', (d) => (record.output += String(d)));
      child.stderr?.on('data', (d) => (record.output += String(d)));
      child.on('error', (e) => {
        record.output += String(e);
        if (pod.spec.restartPolicy === 'Never') report(pod, container, 127);
      });
      child.on('exit', (code, signal) => {
        record.exitCode = code;
        log(`runtime: ${pod.metadata.name}/${container.name} exited ${code ?? signal}: ${record.output.slice(-300)}`);
        if (pod.spec.restartPolicy === 'Never') report(pod, container, code ?? 137);
      });
    }
  }

  const onPod = ({ type, object }: WatchEvent) => {
    const pod = object as Pod;
    const key = pod.metadata.uid ?? pod.metadata.name;
    if (type === 'DELETED' || pod.metadata.deletionTimestamp) {
      for (const child of processes.get(pod.metadata.name) ?? []) child.kill('SIGKILL');
      processes.delete(pod.metadata.name);
      ports.delete(pod.metadata.name);
      return;
    }
    // After the fake kubelet reported it Running: a report of ours is never overwritten by its.
    if (started.has(key) || pod.status?.phase !== 'Running' || !pod.status.podIP) return;
    started.add(key);
    run(pod).catch((e: unknown) => log(`runtime: ${pod.metadata.name}: ${String(e)}`));
  };
  const watch: Watch = listAndWatch(kube, `/api/v1/namespaces/${namespace}/pods`, onPod);
  await watch.synced;
  return {
    runs,
    address: (pod, containerPort) => {
      const port = ports.get(pod)?.[containerPort];
      return port === undefined ? undefined : `127.0.0.1:${port}`;
    },
    stop() {
      watch.stop();
      for (const children of processes.values()) for (const child of children) child.kill('SIGKILL');
    },
  };
}
