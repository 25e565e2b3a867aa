import { setTimeout as sleep } from 'node:timers/promises';
import type { Kube, KubeObject } from '../../e2e/support/kube.js';

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export type Obj = KubeObject & { metadata: KubeObject['metadata'] & { uid?: string; resourceVersion?: string; generation?: number } };

export function conditionOf(obj: KubeObject | undefined, type: string): Condition | undefined {
  const conditions = (obj?.status as { conditions?: Condition[] } | undefined)?.conditions;
  return Array.isArray(conditions) ? conditions.find((c) => c.type === type) : undefined;
}

/**
 * Polls `check` (every 250 ms) until it returns a value, at most `boundMs` after `since` (the
 * user's action, default now). Returns the value and the milliseconds since `since`; on timeout
 * the error names what was awaited, the bound and the last thing seen (`check` may return
 * `{ pending: description }` to say what it saw).
 */
export async function within<T>(
  what: string,
  boundMs: number,
  check: () => Promise<T | { pending: string } | undefined>,
  since = Date.now(),
): Promise<{ value: T; ms: number }> {
  let last = '';
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && !(typeof value === 'object' && value !== null && 'pending' in value)) return { value: value as T, ms: Date.now() - since };
      if (value && typeof value === 'object' && 'pending' in value) last = String(value.pending);
    } catch (error) {
      last = String(error);
    }
    if (Date.now() - since > boundMs) throw new Error(`${what}: not within ${boundMs / 1000}s of the action (last seen: ${last || 'nothing'})`);
    await sleep(250);
  }
}

/** GET or undefined when absent. */
export async function getOrNone(kube: Kube, apiVersion: string, kind: string, name: string, namespace?: string): Promise<Obj | undefined> {
  try {
    return (await kube.get(apiVersion, kind, name, namespace)) as Obj;
  } catch (error) {
    if (String(error).includes(': 404 ')) return undefined;
    throw error;
  }
}

/** The parent once its Ready condition is True (within `boundMs` of `since`). */
export async function readyWithin(kube: Kube, parent: Pick<KubeObject, 'apiVersion' | 'kind' | 'metadata'>, boundMs: number, since = Date.now()) {
  const { name, namespace } = parent.metadata;
  return within(
    `${parent.kind} ${namespace}/${name} Ready=True`,
    boundMs,
    async () => {
      const obj = await getOrNone(kube, parent.apiVersion, parent.kind, name, namespace);
      const ready = conditionOf(obj, 'Ready');
      if (ready?.status === 'True') return obj as Obj;
      return {
        pending: obj
          ? `Ready=${ready?.status} ${ready?.reason ?? ''}: ${ready?.message ?? ''}; conditions ${JSON.stringify((obj.status as { conditions?: unknown })?.conditions ?? [])}`
          : 'absent',
      };
    },
    since,
  );
}

/** The kinds our CompositeControllers own, as REST collections (apiVersion, plural). */
export const CHILD_COLLECTIONS: Array<{ apiVersion: string; kind: string; plural: string }> = [
  { apiVersion: 'apps/v1', kind: 'Deployment', plural: 'deployments' },
  { apiVersion: 'v1', kind: 'Service', plural: 'services' },
  { apiVersion: 'v1', kind: 'PersistentVolumeClaim', plural: 'persistentvolumeclaims' },
  { apiVersion: 'v1', kind: 'ConfigMap', plural: 'configmaps' },
  { apiVersion: 'batch/v1', kind: 'Job', plural: 'jobs' },
  { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', plural: 'horizontalpodautoscalers' },
  { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', plural: 'ingresses' },
];

export function collectionPath(apiVersion: string, plural: string, namespace?: string): string {
  const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  return `${base}${namespace ? `/namespaces/${namespace}` : ''}/${plural}`;
}

/** Every object of the child kinds in `namespace` whose controller is `parentUid`. */
export async function childrenOf(kube: Kube, namespace: string, parentUid: string): Promise<Obj[]> {
  const out: Obj[] = [];
  for (const c of CHILD_COLLECTIONS) {
    const list = await kube.call<{ items: Obj[] }>('GET', collectionPath(c.apiVersion, c.plural, namespace));
    for (const item of list.items) {
      const owners = (item.metadata.ownerReferences ?? []) as Array<{ uid: string; controller?: boolean }>;
      if (owners.some((o) => o.uid === parentUid && o.controller)) out.push({ ...item, apiVersion: c.apiVersion, kind: c.kind });
    }
  }
  return out;
}

/** `Kind/name → uid` of a parent's children. */
export async function childUids(kube: Kube, namespace: string, parentUid: string): Promise<Record<string, string>> {
  const children = await childrenOf(kube, namespace, parentUid);
  return Object.fromEntries(children.map((c) => [`${c.kind}/${c.metadata.name}`, c.metadata.uid ?? '']).sort());
}
