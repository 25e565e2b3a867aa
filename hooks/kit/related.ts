import type { LabelSelector, RelatedRule } from './composition.js';
import { isRecord } from './types.js';
import { HookContractError } from './errors.js';

/**
 * The customize rule that asks Metacontroller for the pods of a parent's workloads: those
 * carrying `selectorLabels`, in the parent's namespace. A label given several values (`app:
 * [a, b]`) selects the pods of several workloads with one rule (`In`): Metacontroller runs
 * every rule of every parent on every event of every kind it watches for related objects
 * (customize/manager.go findRelatedParents), so one rule for all of a parent's workloads costs
 * a third of three.
 *
 * The namespace is required: since Metacontroller v4.15 a v2 hook's label-selector rule
 * without one lists every namespace (pkg/controller/common/customize/manager.go,
 * `selectByLabels`), while `namespace` + `labelSelector` lists only that namespace
 * (`selectByNamespaceAndLabels`). Older Metacontroller rejected that combination.
 * Breaking either rule is a bug in the hook (HookContractError: a 500, never a deletion).
 */
export function podsRuleFor(namespace: string | undefined, selectorLabels: Record<string, string | string[]>): RelatedRule {
  if (!namespace) throw new HookContractError('podsRuleFor: a namespace is required, or Metacontroller would list the pods of every namespace');
  const entries = Object.entries(selectorLabels);
  if (entries.length === 0 || entries.some(([, v]) => Array.isArray(v) && v.length === 0)) {
    throw new HookContractError('podsRuleFor: selector labels are required, or Metacontroller would list every pod of the namespace');
  }
  const single = entries.filter((e): e is [string, string] => typeof e[1] === 'string');
  const several = entries.filter((e): e is [string, string[]] => Array.isArray(e[1]));
  const labelSelector: LabelSelector = {};
  if (single.length > 0) labelSelector.matchLabels = Object.fromEntries(single);
  if (several.length > 0)
    labelSelector.matchExpressions = several.map(([key, values]) => ({ key, operator: 'In' as const, values: [...new Set(values)].sort() }));
  return { apiVersion: 'v1', resource: 'pods', namespace, labelSelector };
}

/**
 * Whether the parent has converged on its current spec: Metacontroller wrote the status of a
 * sync of this generation (`status.observedGeneration`, which it sets) and that status says
 * Ready=True. Customize may then ask for less — e.g. no longer for the objects that could hold
 * a child's name, since every child exists — knowing that Metacontroller keeps the answer per
 * uid and generation for 20 minutes (customize/manager.go newResponseCache): a new parent is
 * asked about before its first status, so the full answer lasts through its convergence, and
 * the smaller one takes effect at the first customize after 20 minutes of readiness.
 */
export function isConverged(parent: { metadata: { generation?: number }; status?: unknown }): boolean {
  const status = isRecord(parent.status) ? parent.status : {};
  const generation = parent.metadata.generation;
  if (generation === undefined || status.observedGeneration !== generation) return false;
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  return conditions.some((c) => isRecord(c) && c.type === 'Ready' && c.status === 'True');
}

/**
 * Resources without a namespace that a composition may ask for. Every other resource is taken
 * to be namespaced: add a cluster-scoped one here before a composition asks for it.
 */
const CLUSTER_SCOPED: ReadonlyArray<{ resource: string; kind: string }> = [
  { resource: 'namespaces', kind: 'Namespace' },
  { resource: 'storageclasses', kind: 'StorageClass' },
  { resource: 'clusterservingruntimes', kind: 'ClusterServingRuntime' },
];
export const CLUSTER_SCOPED_RESOURCES: ReadonlySet<string> = new Set(CLUSTER_SCOPED.map((t) => t.resource));
/** The kinds of those resources: Metacontroller keys such objects by `name` alone. */
export const CLUSTER_SCOPED_KINDS: ReadonlySet<string> = new Set(CLUSTER_SCOPED.map((t) => t.kind));

/**
 * A customize answer checked against the parent's namespace. A v2 rule without `namespace`
 * selects every namespace (Metacontroller pkg/controller/common/customize/manager.go,
 * `selectByNamespaceAndNames` with an empty namespace), so every rule of a namespaced
 * resource must name the parent's namespace. A rule without one, one naming another
 * namespace, or a namespace on a cluster-scoped resource is a bug in the hook
 * (HookContractError: a 500, never a deletion, and never a rule sent on).
 */
export function scopeRules(rules: RelatedRule[], namespace: string, composition: string): RelatedRule[] {
  for (const rule of rules) {
    const id = `${composition}: the related rule for ${rule.resource} (${rule.apiVersion})`;
    if (CLUSTER_SCOPED_RESOURCES.has(rule.resource)) {
      if (rule.namespace !== undefined) throw new HookContractError(`${id} names namespace ${rule.namespace}, but ${rule.resource} are cluster-scoped`);
      continue;
    }
    if (rule.namespace === undefined || rule.namespace === '') {
      throw new HookContractError(`${id} names no namespace: Metacontroller would select ${rule.resource} of every namespace; name the parent's, ${namespace}`);
    }
    if (rule.namespace !== namespace) throw new HookContractError(`${id} names namespace ${rule.namespace}, outside the parent's namespace ${namespace}`);
  }
  return rules;
}
