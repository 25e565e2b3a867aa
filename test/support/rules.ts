import type { RelatedRule } from '../../hooks/kit/index.js';

/** Resources the kit asks for by child name (conflict detection); ConfigMaps are asked for by compositions only. */
const CHILD_NAME_RESOURCES = new Set(['deployments', 'services', 'persistentvolumeclaims', 'jobs', 'horizontalpodautoscalers', 'ingresses', 'httproutes', 'routes', 'servicemonitors']);

/** A customize answer without the kit's child-name rules: what the composition itself asks for. */
export const compositionRules = (rules: RelatedRule[]): RelatedRule[] => rules.filter((r) => !CHILD_NAME_RESOURCES.has(r.resource));
