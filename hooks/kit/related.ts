import type { RelatedRule } from './composition.js';
import { HookContractError } from './protocol.js';

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
