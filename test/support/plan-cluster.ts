/**
 * A cluster, simulated without a server, for plan's tests and bench: parents synced until they
 * settle, their children created and replaced as Metacontroller's dynamic apply leaves them
 * (last-applied annotation, controller-uid label, controller ownerReference), with what an API
 * server adds (uid, resourceVersion, creationTimestamp, Deployment defaults, a Ready status).
 * Independent of plan's own code: related objects are every object of the parent's namespace
 * that nothing owns, the cluster-scoped ones and the kserve namespace's (a superset of what the
 * rules select, children aside), and an update replaces the object with the desired one plus
 * the server's fields.
 */
import { builtinCompositions } from '../../hooks/compositions.js';
import { compositeControllerFor } from '../../hooks/engine/manifests.js';
import { runOverWire } from '../../hooks/engine/run.js';
import type { AnyComposition } from '../../hooks/kit/composition.js';
import type { CompositionConfigs } from '../../hooks/kit/config.js';
import type { KubeObject } from '../../hooks/kit/types.js';

const LAST_APPLIED = 'metacontroller.k8s.io/last-applied-configuration';

export interface SimulateOptions {
  now?: string;
  config?: CompositionConfigs;
  compositions?: AnyComposition[];
  /** Sync rounds (each parent once per round); children and status settle in three or four (an InferenceService's Ingress waits for its ready predictor). */
  rounds?: number;
}

const keyOf = (o: KubeObject) => `${o.apiVersion}/${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** Parents (given a uid and generation 1 when without) and other objects, synced: every object of the simulated cluster. */
export function simulateCluster(parents: KubeObject[], others: KubeObject[], options: SimulateOptions = {}): KubeObject[] {
  const compositions = options.compositions ?? builtinCompositions;
  const now = options.now ?? '2026-01-01T00:00:00Z';
  let counter = 0;
  const cluster = new Map<string, KubeObject>();
  for (const o of others) cluster.set(keyOf(o), o);
  const ps = parents.map((p) => {
    const ns = p.metadata.namespace ?? 'default';
    const parent: KubeObject = {
      ...p,
      metadata: { generation: 1, ...p.metadata, namespace: ns, uid: p.metadata.uid ?? `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}` },
    };
    cluster.set(keyOf(parent), parent);
    return parent;
  });
  const byNamespace = () => {
    const map = new Map<string, KubeObject[]>();
    for (const o of cluster.values()) {
      const ns = o.metadata.namespace ?? '';
      const list = map.get(ns);
      if (list) list.push(o);
      else map.set(ns, [o]);
    }
    return map;
  };
  for (let round = 0; round < (options.rounds ?? 4); round++) {
    const index = byNamespace();
    for (const start of ps) {
      const parent = cluster.get(keyOf(start)) as KubeObject;
      const composition = compositions.find((c) => parent.apiVersion.startsWith(`${c.parent.group}/`) && c.parent.kind === parent.kind);
      if (!composition) throw new Error(`no composition for ${parent.kind}`);
      const uid = parent.metadata.uid as string;
      const ns = parent.metadata.namespace as string;
      const mine = (index.get(ns) ?? []).filter((o) => o.metadata.ownerReferences?.some((r) => r.uid === uid));
      const related = [...(index.get(ns) ?? []), ...(index.get('') ?? []), ...(ns === 'kserve' ? [] : (index.get('kserve') ?? []))].filter(
        (o) => !o.metadata.ownerReferences,
      );
      const controller = compositeControllerFor(composition, 'default', { hookBaseUrl: 'http://sim' });
      const answer = runOverWire(
        composition,
        'sync',
        { parent, observed: mine, related, controller },
        { now, ...(options.config ? { config: options.config } : {}) },
      );
      const desired = (answer.children as KubeObject[]).map((d) => ({
        ...d,
        metadata: { ...d.metadata, labels: { ...d.metadata.labels, 'controller-uid': uid } },
      }));
      const wanted = new Set(desired.map(keyOf));
      for (const o of mine) if (!wanted.has(keyOf(o))) cluster.delete(keyOf(o));
      for (const d of desired) cluster.set(keyOf(d), served(d, cluster.get(keyOf(d)), parent, ++counter));
      cluster.set(keyOf(parent), { ...parent, status: { ...(answer.status as object), observedGeneration: parent.metadata.generation } });
    }
  }
  return [...cluster.values()];
}

/** The object as the API server keeps it after Metacontroller's create or update. */
function served(desired: KubeObject, existing: KubeObject | undefined, parent: KubeObject, n: number): KubeObject {
  const meta = {
    ...desired.metadata,
    annotations: { ...desired.metadata.annotations, [LAST_APPLIED]: JSON.stringify(desired) },
    ownerReferences: [
      {
        apiVersion: parent.apiVersion,
        kind: parent.kind,
        name: parent.metadata.name,
        uid: parent.metadata.uid as string,
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
    uid: (existing?.metadata.uid as string) ?? `child-${n}`,
    resourceVersion: String(n),
    creationTimestamp: (existing?.metadata.creationTimestamp as string) ?? '2026-01-01T00:00:00Z',
  };
  const obj: KubeObject = { ...desired, metadata: meta };
  if (desired.kind === 'Deployment') {
    const spec = desired.spec as Record<string, unknown>;
    const replicas = (spec.replicas as number | undefined) ?? 1;
    obj.spec = { progressDeadlineSeconds: 600, revisionHistoryLimit: 10, ...spec };
    obj.status = {
      observedGeneration: 1,
      replicas,
      readyReplicas: replicas,
      availableReplicas: replicas,
      updatedReplicas: replicas,
      conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' }],
    };
  }
  if (desired.kind === 'Service') obj.spec = { clusterIP: `10.0.0.${n % 250}`, ...(desired.spec as object) };
  return obj;
}
