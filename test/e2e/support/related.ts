import type { RelatedRule } from '../../../hooks/kit/index.js';
import type { KubeObject } from './kube.js';

/**
 * What Metacontroller would pass as `related` for these customize rules, picked from a set
 * of candidate objects (the built-in objects shipped next to an example, e.g. its ConfigMap).
 */
export async function selectRelated(
  rules: RelatedRule[],
  candidates: KubeObject[],
  kindOf: (apiVersion: string, resource: string) => Promise<string | undefined>,
): Promise<KubeObject[]> {
  const picked = new Set<KubeObject>();
  for (const rule of rules) {
    const kind = await kindOf(rule.apiVersion, rule.resource);
    for (const obj of candidates) {
      const labels = (obj.metadata.labels ?? {}) as Record<string, string>;
      if (obj.apiVersion !== rule.apiVersion || obj.kind !== kind) continue;
      if (rule.namespace && obj.metadata.namespace !== rule.namespace) continue;
      if (rule.names && !rule.names.includes(obj.metadata.name)) continue;
      if (!Object.entries(rule.labelSelector?.matchLabels ?? {}).every(([key, v]) => labels[key] === v)) continue;
      picked.add(obj);
    }
  }
  return [...picked];
}
