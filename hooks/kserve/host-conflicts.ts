/**
 * Hosts two parents claim: an Ingress or HTTPRoute of the parent's namespace, not controlled by
 * this parent, that already routes one of its hosts. Only the parent's namespace is visible (a
 * hook must not read other tenants' objects), so a collision across namespaces is not seen:
 * README, "Running modelhooks for many teams", says which template avoids it.
 *
 * What is asked for does not grow with the namespace's other parents: each Ingress and
 * HTTPRoute a composition emits carries one label per host it routes, keyed by a hash of the
 * host's source — the name the domain template renders it from, which customize knows from the
 * parent alone, while the domain and template may come from the Namespace, which customize
 * cannot see (all parents of a namespace share them). Customize asks for the objects carrying
 * one of the parent's host labels (one `Exists` rule per host), and for every Ingress and
 * HTTPRoute not managed by modelhooks (users' own, another controller's): those carry no label
 * and may route any host. So a parent's request holds its own routes, those of parents whose
 * host sources equal one of its own, and the namespace's foreign ones; a route's change wakes
 * only those parents, plus, for a foreign one, every parent of the namespace.
 */
import type { RelatedRule } from '../kit/composition.js';
import { condition, type Cond } from '../kit/status/conditions.js';
import { shortHash } from '../kit/children/hash.js';
import { MANAGED_BY } from '../kit/children/labels.js';
import type { ObjectIndex } from '../kit/observed.js';
import { isRecord, type KubeObject, type Parent } from '../kit/types.js';

export const HOST_CONFLICT = 'HostConflict';
/** How many conflicts a message names; the rest are counted. */
export const NAMED_CONFLICTS = 3;
export const INGRESS = { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', resource: 'ingresses' } as const;
export const HTTP_ROUTE = { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', resource: 'httproutes' } as const;
export const HOST_LABEL_PREFIX = 'host.modelhooks.dev/';
const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';

/** The label of one host source: `host.modelhooks.dev/<16 hex of its SHA-256>` (a valid label key). */
export const hostLabelKey = (source: string): string => `${HOST_LABEL_PREFIX}${shortHash(source, 16)}`;

/** The labels an Ingress or HTTPRoute routing hosts rendered from these sources carries. */
export function hostLabels(sources: readonly string[]): Record<string, string> {
  return Object.fromEntries(sources.map((s) => [hostLabelKey(s), 'true']));
}

/**
 * The Ingresses (and, where the controller declares them, HTTPRoutes) that may route one of the
 * parent's hosts: those labelled with one of its host sources, and every one not managed by
 * modelhooks. No sources (a cluster-local parent): nothing.
 */
export function hostRules(namespace: string, sources: readonly string[], withRoutes: boolean): RelatedRule[] {
  if (sources.length === 0) return [];
  const kinds = withRoutes ? [INGRESS, HTTP_ROUTE] : [INGRESS];
  const keys = [...new Set(sources.map(hostLabelKey))].sort();
  return kinds.flatMap((k) => [
    {
      apiVersion: k.apiVersion,
      resource: k.resource,
      namespace,
      labelSelector: { matchExpressions: [{ key: MANAGED_BY_LABEL, operator: 'NotIn' as const, values: [MANAGED_BY] }] },
    },
    ...keys.map((key) => ({
      apiVersion: k.apiVersion,
      resource: k.resource,
      namespace,
      labelSelector: { matchExpressions: [{ key, operator: 'Exists' as const }] },
    })),
  ]);
}

export interface HostConflict {
  host: string;
  /** `Ingress/name` or `HTTPRoute/name` that routes it. */
  holder: string;
  /** `Kind/name` of the holder's controller, or `no owner`. */
  owner: string;
}

function hostsOf(obj: KubeObject): string[] {
  const spec = isRecord(obj.spec) ? obj.spec : {};
  if (obj.kind === INGRESS.kind)
    return (Array.isArray(spec.rules) ? spec.rules : []).flatMap((r) => (isRecord(r) && typeof r.host === 'string' ? [r.host] : []));
  return (Array.isArray(spec.hostnames) ? spec.hostnames : []).filter((h): h is string => typeof h === 'string');
}

/** The hosts of `wanted` that an object of the namespace not controlled by `parent` routes. */
export function hostConflicts(parent: Parent<unknown>, wanted: readonly string[], related: ObjectIndex): HostConflict[] {
  const hosts = new Set(wanted.map((h) => h.toLowerCase()));
  const holders = [...related.list(INGRESS.apiVersion, INGRESS.kind), ...related.list(HTTP_ROUTE.apiVersion, HTTP_ROUTE.kind)];
  const conflicts: HostConflict[] = [];
  for (const obj of holders) {
    const controller = obj.metadata.ownerReferences?.find((r) => r.controller === true);
    if (controller && controller.uid === parent.metadata.uid) continue;
    for (const host of hostsOf(obj)) {
      if (!hosts.has(host.toLowerCase())) continue;
      conflicts.push({ host, holder: `${obj.kind}/${obj.metadata.name}`, owner: controller ? `${controller.kind}/${controller.name}` : 'no owner' });
    }
  }
  return conflicts;
}

/**
 * `type` (e.g. IngressReady) False/HostConflict naming the first few conflicts and counting the
 * rest (a message stays short however many objects claim a host), or undefined without any: an
 * override for the condition tree (ReadyInputs.overrides), which makes Ready False with it
 * unless Ready is already False for another reason.
 */
export function hostConflictCondition(type: string, conflicts: readonly HostConflict[]): Cond | undefined {
  if (conflicts.length === 0) return undefined;
  const named = conflicts.slice(0, NAMED_CONFLICTS).map((c) => `host ${c.host} is already routed by ${c.holder} (owner: ${c.owner})`);
  const rest = conflicts.length - named.length;
  const message = `${named.join('; ')}${rest > 0 ? ` (and ${rest} more)` : ''}`;
  return condition.false(type, HOST_CONFLICT, `${message}: another parent of this namespace claims it; change a name or the domain template`);
}
