import type { Kube } from '../../e2e/support/kube.js';
import { CHILD_COLLECTIONS, collectionPath } from './wait.js';
import { listAndWatch, type Watch, type WatchEvent } from './watch.js';

/** The parents' collections (CompositeControllers of compositions/base). */
export const PARENT_COLLECTIONS = [
  { apiVersion: 'serving.kserve.io/v1beta1', kind: 'InferenceService', plural: 'inferenceservices' },
  { apiVersion: 'trustyai.opendatahub.io/v1', kind: 'TrustyAIService', plural: 'trustyaiservices' },
  { apiVersion: 'servapi.dev-state.com/v1alpha1', kind: 'Tfserv', plural: 'tfservs' },
  { apiVersion: 'oda.tmforum.org.oda.tmforum.org/v1beta1', kind: 'MLModel', plural: 'mlmodels' },
];

export interface Change {
  at: number;
  type: WatchEvent['type'];
  kind: string;
  name: string;
  uid: string;
  resourceVersion: string;
  /** Top-level paths (two levels deep) whose value changed, `metadata.managedFields` and `resourceVersion` aside. */
  changed: string[];
  /** The managedFields entries whose time changed: who wrote, how, which subresource. */
  writers: string[];
}

type Obj = WatchEvent['object'];
type Managed = { manager?: string; operation?: string; subresource?: string; time?: string };

/**
 * Watches a namespace's children and parents as Metacontroller's informers do and records
 * every event after `synced` with what changed and who wrote it (managedFields).
 */
export function recordChanges(kube: Kube, namespace: string): { synced: Promise<void>; changes: Change[]; since(t: number): Change[]; stop(): void } {
  const last = new Map<string, Obj>();
  const changes: Change[] = [];
  let live = false;
  const watches: Watch[] = [...CHILD_COLLECTIONS, ...PARENT_COLLECTIONS].map((c) =>
    listAndWatch(kube, collectionPath(c.apiVersion, c.plural, namespace), ({ type, object }) => {
      const uid = object.metadata.uid ?? '';
      const before = last.get(uid);
      if (type === 'DELETED') last.delete(uid);
      else last.set(uid, object);
      if (!live || (type === 'MODIFIED' && before?.metadata.resourceVersion === object.metadata.resourceVersion)) return;
      changes.push({
        at: Date.now(),
        type,
        kind: c.kind,
        name: object.metadata.name,
        uid,
        resourceVersion: object.metadata.resourceVersion ?? '',
        changed: before ? changedPaths(before, object) : [],
        writers: writers(before, object),
      });
    }),
  );
  const synced = Promise.all(watches.map((w) => w.synced)).then(() => {
    live = true;
  });
  return { synced, changes, since: (t) => changes.filter((c) => c.at >= t), stop: () => watches.forEach((w) => w.stop()) };
}

function writers(before: Obj | undefined, after: Obj): string[] {
  const was = new Set(((before?.metadata.managedFields ?? []) as Managed[]).map((m) => JSON.stringify([m.manager, m.operation, m.subresource, m.time])));
  return ((after.metadata.managedFields ?? []) as Managed[])
    .filter((m) => !was.has(JSON.stringify([m.manager, m.operation, m.subresource, m.time])))
    .map((m) => `${m.manager}/${m.operation}${m.subresource ? `/${m.subresource}` : ''}`);
}

function changedPaths(a: unknown, b: unknown, prefix = '', depth = 0): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (depth >= 3 || !isObj(a) || !isObj(b)) return [prefix || '(root)'];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  const skip = new Set(['metadata.managedFields', 'metadata.resourceVersion']);
  return [...keys].flatMap((k) => {
    const p = prefix ? `${prefix}.${k}` : k;
    return skip.has(p) ? [] : changedPaths(a[k], b[k], p, depth + 1);
  });
}
