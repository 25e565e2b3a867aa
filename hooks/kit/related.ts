import type { RelatedRule } from './composition.js';
import { HookContractError } from './errors.js';

/**
 * The customize rule that asks Metacontroller for the pods of a parent's workloads: those
 * carrying `selectorLabels`, in the parent's namespace.
 *
 * The namespace is required: since Metacontroller v4.15 a v2 hook's label-selector rule
 * without one lists every namespace (pkg/controller/common/customize/manager.go,
 * `selectByLabels`), while `namespace` + `labelSelector` lists only that namespace
 * (`selectByNamespaceAndLabels`). Older Metacontroller rejected that combination.
 * Breaking either rule is a bug in the hook (HookContractError: a 500, never a deletion).
 */
export function podsRuleFor(namespace: string | undefined, selectorLabels: Record<string, string>): RelatedRule {
  if (!namespace) throw new HookContractError('podsRuleFor: a namespace is required, or Metacontroller would list the pods of every namespace');
  if (Object.keys(selectorLabels).length === 0) {
    throw new HookContractError('podsRuleFor: selector labels are required, or Metacontroller would list every pod of the namespace');
  }
  return { apiVersion: 'v1', resource: 'pods', namespace, labelSelector: { matchLabels: { ...selectorLabels } } };
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
