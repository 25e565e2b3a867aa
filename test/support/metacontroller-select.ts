import type { KubeObject, LabelSelector, RelatedRule } from '../../hooks/kit/index.js';

/*
 * What Metacontroller v4.17.2 hands a parent for its customize rules, as its code selects
 * them (pkg/controller/common/customize/manager.go GetRelatedObjects, determineSelectionType):
 * `namespace` + `labelSelector` lists that namespace by the selector; `namespace` and/or
 * `names` lists the namespace (every one without `namespace`) and keeps the named objects;
 * `labelSelector` alone lists every namespace; the results of all rules are merged by object.
 * The selector is Kubernetes' (apimachinery labels.Selector via LabelSelectorAsSelector):
 * every term must hold; In and Exists need the key; NotIn and DoesNotExist also match an
 * object without it.
 */

/** The plural resource of the kinds the tests ask for. */
const RESOURCES: Record<string, string> = {
  Secret: 'secrets',
  ServiceAccount: 'serviceaccounts',
  Ingress: 'ingresses',
  HTTPRoute: 'httproutes',
  Namespace: 'namespaces',
  ConfigMap: 'configmaps',
  Pod: 'pods',
  TrustyAIService: 'trustyaiservices',
  ServingRuntime: 'servingruntimes',
  ClusterServingRuntime: 'clusterservingruntimes',
  InferenceService: 'inferenceservices',
  Deployment: 'deployments',
  Service: 'services',
  HorizontalPodAutoscaler: 'horizontalpodautoscalers',
};

export function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  const have = labels ?? {};
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (have[k] !== v) return false;
  for (const term of selector.matchExpressions ?? []) {
    const present = Object.hasOwn(have, term.key);
    const values = term.values ?? [];
    const holds =
      term.operator === 'In'
        ? present && values.includes(have[term.key] as string)
        : term.operator === 'NotIn'
          ? !present || !values.includes(have[term.key] as string)
          : term.operator === 'Exists'
            ? present
            : !present;
    if (!holds) return false;
  }
  return true;
}

/** Whether one rule selects `obj`. */
export function ruleSelects(rule: RelatedRule, obj: KubeObject): boolean {
  if (rule.apiVersion !== obj.apiVersion || RESOURCES[obj.kind] !== rule.resource) return false;
  const namespaceOk = !rule.namespace || obj.metadata.namespace === rule.namespace;
  if (rule.labelSelector) return namespaceOk && selectorMatches(rule.labelSelector, obj.metadata.labels);
  return namespaceOk && (!rule.names || rule.names.length === 0 || rule.names.includes(obj.metadata.name));
}

/** The objects of `cluster` the rules select, each once. */
export function selectRelated(rules: RelatedRule[], cluster: KubeObject[]): KubeObject[] {
  return cluster.filter((obj) => rules.some((r) => ruleSelects(r, obj)));
}

/** Whether a change to `obj` wakes a parent whose cached rules these are (findRelatedParents / matchesRelatedRule). */
export const wakes = (rules: RelatedRule[], obj: KubeObject): boolean => rules.some((r) => ruleSelects(r, obj));
