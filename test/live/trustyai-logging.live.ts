import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'vitest';
import { fromRoot, readObjects } from '../e2e/support/files.js';
import type { KubeObject } from '../e2e/support/kube.js';
import { kube, printLogsOnFailure } from './support/context.js';
import { getOrNone, within, type Obj } from './support/wait.js';

/*
 * TrustyAIService ↔ InferenceService payload logging through the real Metacontroller: the
 * predictor's agent gets `--log-url` (hooks/inferenceservice/pod/trustyai-logger.ts), and that URL
 * must reach what the TrustyAI pod of this install serves: the URL's port, through the
 * TrustyAIService's Service, must land on a container port the TrustyAI Deployment declares,
 * named for the URL's scheme (`https` is served only with TLS material mounted, `http` plain;
 * hooks/trustyai/deployment.ts). Both creation orders; bound 15 s after the second object.
 */
const BOUND_MS = 15_000;
const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

type Container = { name: string; args?: string[]; ports?: Array<{ name?: string; containerPort: number }> };
const containersOf = (d: Obj | undefined) => (d?.spec as { template?: { spec?: { containers?: Container[] } } } | undefined)?.template?.spec?.containers ?? [];

function logUrlOf(d: Obj | undefined): string | undefined {
  for (const c of containersOf(d)) {
    const i = c.args?.indexOf('--log-url') ?? -1;
    if (i >= 0) return c.args?.[i + 1];
  }
  return undefined;
}

const tas = (namespace: string): KubeObject => {
  const obj = readObjects(fromRoot('examples/trustyai.yaml'))[0] as KubeObject;
  return { ...obj, metadata: { ...obj.metadata, namespace } };
};
const isvc = (namespace: string): KubeObject => {
  const obj = readObjects(fromRoot('examples/inferenceservice.yaml'))[0] as KubeObject;
  return { ...obj, metadata: { ...obj.metadata, namespace } };
};

printLogsOnFailure(20);

describe('payload logging to the TrustyAIService of the namespace', () => {
  const k = kube();

  it.concurrent.each([
    ['TrustyAIService first', 'tas-first'],
    ['InferenceService first', 'isvc-first'],
  ])('%s: the log URL reaches the port the TrustyAI pod serves, with its scheme', async (_label, order) => {
    const ns = `live-tas-${order}`;
    await k.ensureNamespace(ns);
    const [first, second] = order === 'tas-first' ? [tas(ns), isvc(ns)] : [isvc(ns), tas(ns)];
    await k.apply(first);
    await sleep(2_000);
    const since = Date.now();
    await k.apply(second);
    const name = isvc(ns).metadata.name;
    const tasName = tas(ns).metadata.name;

    // 1. The predictor logs somewhere.
    const { value: url, ms } = await within(
      `Deployment ${ns}/${name}-predictor with --log-url`,
      BOUND_MS,
      async () => {
        const d = await getOrNone(k, 'apps/v1', 'Deployment', `${name}-predictor`, ns);
        return logUrlOf(d) ?? { pending: d ? 'Deployment without --log-url' : 'no Deployment' };
      },
      since,
    );
    console.log(`${order}: --log-url ${url} ${(ms / 1000).toFixed(1)}s after the second apply`);

    // 2. …to the TrustyAIService's Service in this namespace, on a port that Service has…
    const u = new URL(url);
    const [svcName, svcNs, ...rest] = u.hostname.split('.');
    if (svcNs !== ns || rest.join('.') !== 'svc.cluster.local') throw new Error(`log URL ${url} is not a Service of namespace ${ns}`);
    const port = u.port ? Number(u.port) : DEFAULT_PORTS[u.protocol];
    const { value: svc } = await within(
      `Service ${ns}/${svcName}`,
      BOUND_MS,
      async () => (await getOrNone(k, 'v1', 'Service', svcName ?? '', ns)) ?? { pending: 'absent' },
      since,
    );
    const svcPorts = (svc.spec as { ports: Array<{ port: number; targetPort?: number | string }>; selector?: Record<string, string> }).ports;
    const svcPort = svcPorts.find((p) => p.port === port);
    if (!svcPort) throw new Error(`log URL ${url}: Service ${svcName} has no port ${port} (ports ${JSON.stringify(svcPorts)})`);

    // 3. …whose target is a container port of the TrustyAI pod, served in the URL's scheme.
    const { value: deployment } = await within(
      `TrustyAI Deployment ${ns}/${tasName}`,
      BOUND_MS,
      async () => (await getOrNone(k, 'apps/v1', 'Deployment', tasName, ns)) ?? { pending: 'absent' },
      since,
    );
    const target = svcPort.targetPort ?? port;
    const served = containersOf(deployment).flatMap((c) => (c.ports ?? []).map((p) => ({ container: c.name, ...p })));
    const hit = served.find((p) => (typeof target === 'number' ? p.containerPort === target : p.name === target));
    if (!hit) {
      throw new Error(
        `log URL ${url} → Service ${svcName} port ${port} → target ${target}: no container of the TrustyAI pod serves it (it serves ${served.map((p) => `${p.container}:${p.name}/${p.containerPort}`).join(', ')})`,
      );
    }
    const scheme = u.protocol.slice(0, -1);
    if (hit.name !== scheme) throw new Error(`log URL ${url}: the TrustyAI pod serves port ${hit.containerPort} as ${hit.name}, not ${scheme}`);
  });
});
