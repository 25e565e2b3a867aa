import { setTimeout as sleep } from 'node:timers/promises';
import type { Kube, KubeObject } from '../../e2e/support/kube.js';
import { listAndWatch, type Watch, type WatchEvent } from './watch.js';

export const NODE_NAME = 'live-node';
const NODE_IP = '10.1.0.1';

type Obj = WatchEvent['object'];
const spec = (o: Obj) => (o.spec ?? {}) as Record<string, unknown>;
const status = (o: Obj) => (o.status ?? {}) as Record<string, unknown>;

/**
 * A stand-in for the kubelet, the scheduler and a volume provisioner, with no container runtime:
 * registers one Ready Node; binds every pending Pod to it and reports it Running and Ready with
 * a pod IP (a Job's Pod: Succeeded, exit code 0); finishes the deletion of Pods (as a kubelet does
 * once their containers stopped); reports PersistentVolumeClaims Bound with the size they ask for.
 * Writes happen at most once per object state, so at steady state it writes nothing.
 */
export async function startFakeKubelet(kube: Kube, log: (line: string) => void): Promise<{ stop(): void }> {
  await kube.call('POST', '/api/v1/nodes', {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: NODE_NAME, labels: { 'kubernetes.io/hostname': NODE_NAME, 'kubernetes.io/os': 'linux' } },
  });
  const now = new Date().toISOString();
  const ready = (type: string) => ({ type, status: 'True', lastHeartbeatTime: now, lastTransitionTime: now, reason: 'Fake', message: 'fake kubelet' });
  await kube.call(
    'PATCH',
    `/api/v1/nodes/${NODE_NAME}/status`,
    {
      status: {
        conditions: [ready('Ready'), { ...ready('MemoryPressure'), status: 'False' }, { ...ready('DiskPressure'), status: 'False' }],
        addresses: [
          { type: 'InternalIP', address: NODE_IP },
          { type: 'Hostname', address: NODE_NAME },
        ],
        capacity: { cpu: '64', memory: '256Gi', pods: '5000' },
        allocatable: { cpu: '64', memory: '256Gi', pods: '5000' },
      },
    },
    'application/merge-patch+json',
  );

  let nextIp = 1;
  const done = new Set<string>(); // uid/step already written: a watch may deliver the same state twice
  /**
   * One write per object state, retried (a busy API server may refuse or cut a request) until it
   * lands: nothing else would retry it, as the object may not change again. 404 (gone) and 409
   * (already bound) mean there is nothing left to do.
   */
  const once = (key: string, method: string, urlPath: string, body: unknown, contentType?: string) => {
    if (done.has(key)) return;
    done.add(key);
    void (async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          const res = await kube.request(method, urlPath, body, contentType);
          if ((res.status >= 200 && res.status < 300) || res.status === 404 || res.status === 409) return;
          throw new Error(`${res.status} ${res.text.slice(0, 200)}`);
        } catch (e) {
          log(`fake kubelet: ${key} (attempt ${attempt}): ${String(e)}`);
          if (attempt >= 20) return done.delete(key);
          await sleep(Math.min(250 * attempt, 2_000));
        }
      }
    })();
  };

  const onPod = ({ type, object: pod }: WatchEvent) => {
    if (type === 'DELETED') return;
    const { name, namespace, uid } = pod.metadata;
    const base = `/api/v1/namespaces/${namespace}/pods/${name}`;
    if (pod.metadata.deletionTimestamp) {
      once(`${uid}/delete`, 'DELETE', base, { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid } });
      return;
    }
    if (!spec(pod).nodeName) {
      once(`${uid}/bind`, 'POST', `${base}/binding`, {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name },
        target: { apiVersion: 'v1', kind: 'Node', name: NODE_NAME },
      });
      return;
    }
    if (spec(pod).nodeName !== NODE_NAME || status(pod).podIP) return;
    const n = nextIp++;
    once(`${uid}/run`, 'PATCH', `${base}/status`, { status: podStatus(pod, `10.244.${n >> 8}.${n & 255}`) }, 'application/merge-patch+json');
  };

  const onClaim = ({ type, object: pvc }: WatchEvent) => {
    if (type === 'DELETED' || pvc.metadata.deletionTimestamp || status(pvc).phase === 'Bound') return;
    const { name, namespace, uid } = pvc.metadata;
    const requests = ((spec(pvc).resources as { requests?: Record<string, string> } | undefined)?.requests ?? {}) as Record<string, string>;
    once(
      `${uid}/bound`,
      'PATCH',
      `/api/v1/namespaces/${namespace}/persistentvolumeclaims/${name}/status`,
      { status: { phase: 'Bound', accessModes: spec(pvc).accessModes ?? ['ReadWriteOnce'], capacity: { storage: requests.storage ?? '1Gi' } } },
      'application/merge-patch+json',
    );
  };

  const watches: Watch[] = [listAndWatch(kube, '/api/v1/pods', onPod), listAndWatch(kube, '/api/v1/persistentvolumeclaims', onClaim)];
  await Promise.all(watches.map((w) => w.synced));
  return { stop: () => watches.forEach((w) => w.stop()) };
}

/** Running and Ready (Succeeded for a Job's Pod), every container started, as the kubelet reports it. */
function podStatus(pod: Obj, ip: string): Record<string, unknown> {
  const t = new Date().toISOString();
  const s = spec(pod) as { containers?: Array<{ name: string; image: string }>; initContainers?: Array<{ name: string; image: string }> };
  const isJob = (pod.metadata.ownerReferences as Array<{ kind: string }> | undefined)?.some((o) => o.kind === 'Job') ?? false;
  const cond = (type: string, value = true) => ({ type, status: value ? 'True' : 'False', lastTransitionTime: t });
  const terminated = { terminated: { exitCode: 0, reason: 'Completed', startedAt: t, finishedAt: t } };
  const container = (c: { name: string; image: string }, state: Record<string, unknown>, ready: boolean) => ({
    name: c.name,
    image: c.image,
    imageID: '',
    containerID: `fake://${pod.metadata.uid}/${c.name}`,
    ready,
    started: !('terminated' in state),
    restartCount: 0,
    state,
  });
  return {
    phase: isJob ? 'Succeeded' : 'Running',
    conditions: [cond('PodScheduled'), cond('Initialized'), cond('ContainersReady', !isJob), cond('Ready', !isJob)],
    hostIP: NODE_IP,
    hostIPs: [{ ip: NODE_IP }],
    podIP: ip,
    podIPs: [{ ip }],
    startTime: t,
    initContainerStatuses: (s.initContainers ?? []).map((c) => container(c, terminated, true)),
    containerStatuses: (s.containers ?? []).map((c) => container(c, isJob ? terminated : { running: { startedAt: t } }, !isJob)),
  };
}

export type { KubeObject };
