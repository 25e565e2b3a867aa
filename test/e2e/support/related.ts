import type { AnyComposition, RelatedRule } from '../../../hooks/kit/index.js';
import { syncRequest } from '../../../hooks/testing/index.js';
import { postHook } from './hook-post.js';
import { type Kube, KubeError, type KubeObject } from './kube.js';
import { selectorMatches } from '../../support/metacontroller-select.js';

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
      if (!selectorMatches(rule.labelSelector, labels)) continue;
      picked.add(obj);
    }
  }
  return [...picked];
}

/**
 * What Metacontroller fetches for a parent's customize rules that name their objects: the
 * customize answer from the real hook server, then each named object read back from the API
 * server in the rule's namespace (none for a cluster-scoped kind). Label-selector rules list
 * the rule's namespace by the selector (the InferenceService's Secrets; there are no pods: the
 * tier runs no kubelet). A missing object is skipped.
 */
export async function relatedByName(k: Kube, app: Parameters<typeof postHook>[0], composition: AnyComposition, parent: KubeObject): Promise<KubeObject[]> {
  const customize = await postHook(app, `/hooks/${composition.name}/customize`, syncRequest(composition, { parent }));
  const found: KubeObject[] = [];
  for (const rule of customize.relatedResources as RelatedRule[]) {
    const kind = await k.kindOf(rule.apiVersion, rule.resource);
    if (!kind) continue;
    if (rule.labelSelector && rule.namespace && rule.resource !== 'pods') {
      const prefix = rule.apiVersion.includes('/') ? `/apis/${rule.apiVersion}` : `/api/${rule.apiVersion}`;
      const list = await k.call<{ items: KubeObject[] }>(
        'GET',
        `${prefix}/namespaces/${rule.namespace}/${rule.resource}?labelSelector=${encodeURIComponent(labelSelectorQuery(rule.labelSelector))}`,
      );
      found.push(...list.items.map((o) => ({ ...o, apiVersion: rule.apiVersion, kind })));
      continue;
    }
    for (const name of rule.names ?? []) {
      try {
        found.push(await k.get(rule.apiVersion, kind, name, rule.namespace));
      } catch (e) {
        if (!(e instanceof KubeError && e.status === 404)) throw e;
      }
    }
  }
  return found;
}

/** A related rule's label selector as the API server's `labelSelector` query parameter takes it. */
export function labelSelectorQuery(selector: NonNullable<RelatedRule['labelSelector']>): string {
  return [
    ...Object.entries(selector.matchLabels ?? {}).map(([key, v]) => `${key}=${v}`),
    ...(selector.matchExpressions ?? []).map((t) =>
      t.operator === 'Exists' ? t.key : t.operator === 'DoesNotExist' ? `!${t.key}` : `${t.key} ${t.operator.toLowerCase()} (${(t.values ?? []).join(',')})`,
    ),
  ].join(',');
}
