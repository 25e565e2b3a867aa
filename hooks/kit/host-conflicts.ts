/**
 * Hosts two parents claim: an Ingress or HTTPRoute of the parent's namespace, not controlled by
 * this parent, that already routes one of its hosts. Only the parent's namespace is visible (a
 * hook must not read other tenants' objects), so a collision across namespaces is not seen:
 * README, "Running modelhooks for many teams", says which template avoids it.
 */
import type { RelatedRule } from './composition.js';
import { condition, findCondition, previousConditions, READY, stampConditions, withReady, type Cond, type StampInput } from './conditions.js';
import type { ObjectIndex } from './observed.js';
import { isRecord, type KubeObject, type Parent } from './types.js';

export const HOST_CONFLICT = 'HostConflict';
export const INGRESS = { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', resource: 'ingresses' } as const;
export const HTTP_ROUTE = { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', resource: 'httproutes' } as const;

/** Every Ingress (and, where the controller declares them, HTTPRoute) of the parent's namespace. */
export function hostRules(namespace: string, withRoutes: boolean): RelatedRule[] {
  const rules: RelatedRule[] = [{ apiVersion: INGRESS.apiVersion, resource: INGRESS.resource, namespace }];
  if (withRoutes) rules.push({ apiVersion: HTTP_ROUTE.apiVersion, resource: HTTP_ROUTE.resource, namespace });
  return rules;
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
  if (obj.kind === INGRESS.kind) return (Array.isArray(spec.rules) ? spec.rules : []).flatMap((r) => (isRecord(r) && typeof r.host === 'string' ? [r.host] : []));
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
 * `status` with `type` (e.g. IngressReady) False/HostConflict naming every conflict, and Ready
 * with it unless Ready is already False for another reason.
 */
export function withHostConflicts(status: Record<string, unknown>, type: string, conflicts: HostConflict[], input: StampInput): Record<string, unknown> {
  if (conflicts.length === 0) return status;
  const message = conflicts.map((c) => `host ${c.host} is already routed by ${c.holder} (owner: ${c.owner})`).join('; ');
  const cond: Cond = condition.false(type, HOST_CONFLICT, `${message}: another parent of this namespace claims it; change a name or the domain template`);
  const [stamped] = stampConditions([cond], previousConditions(input.parent.status), input.now, input.parent.metadata.generation);
  const conditions = previousConditions(status);
  const replaced = conditions.some((c) => c.type === type) ? conditions.map((c) => (c.type === type ? stamped : c)) : [...conditions, stamped];
  const out = { ...status, conditions: replaced };
  if (findCondition<{ type?: string; status?: string }>(conditions, READY)?.status === 'False') return out;
  return withReady(out, condition.false(READY, HOST_CONFLICT, cond.message), input);
}
