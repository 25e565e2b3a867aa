import type { RelatedRule } from '../../hooks/kit/index.js';

/** Resources the kit asks for by child name (conflict detection); ConfigMaps are asked for by compositions only. */
const CHILD_NAME_RESOURCES = new Set([
  'deployments',
  'services',
  'persistentvolumeclaims',
  'jobs',
  'horizontalpodautoscalers',
  'ingresses',
  'httproutes',
  'routes',
  'servicemonitors',
]);

/**
 * A customize answer without the kit's child-name rules, its rule for the parent's Namespace
 * and the rules for the workloads' pods (tested in test/workload-blockers.test.ts): what the
 * composition itself asks for to build its children.
 */
export const compositionRules = (rules: RelatedRule[]): RelatedRule[] =>
  rules.filter((r) => !CHILD_NAME_RESOURCES.has(r.resource) && r.resource !== 'namespaces' && r.resource !== 'pods');

/** The rule the kit adds to every customize answer: the parent's own Namespace, by name. */
export const namespaceRuleOf = (namespace: string): RelatedRule => ({ apiVersion: 'v1', resource: 'namespaces', names: [namespace] });
