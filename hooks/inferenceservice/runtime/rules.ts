import type { Parent, RelatedRule } from '../../kit/index.js';
import { modelOf, type InferenceServiceSpec } from '../spec.js';
import { CLUSTER_SERVING_RUNTIME, SERVING_RUNTIME } from './selection.js';

/**
 * The customize rules for serving runtimes, as little as the choice needs
 * (metacontroller pkg/controller/common/customize/manager.go, determineSelectionType,
 * toSelector, GetRelatedObjects; v4.17.2):
 *   - no model (the predictor's own containers, and no canary with a model): none;
 *   - every model names its runtime (`runtime`): those names, as a ServingRuntime of the
 *     namespace or a ClusterServingRuntime (KServe v0.20.0 utils.GetServingRuntime looks for
 *     the namespaced one first, then the cluster's, by name);
 *   - otherwise (a runtime chosen by model format): every ServingRuntime of the namespace (a
 *     namespace without names lists them all: `selectByNamespaceAndNames`) and every
 *     ClusterServingRuntime (a cluster-scoped rule with an empty label selector is
 *     `selectByLabels` with `labels.Everything()`).
 */
export function runtimeRules(parent: Parent<InferenceServiceSpec>): RelatedRule[] {
  const namespace = parent.metadata.namespace;
  const models = [parent.spec.predictor, ...(parent.spec.canary ?? []).map((c) => c.predictor)].flatMap((p) => {
    const model = p ? modelOf(p) : undefined;
    return model ? [model] : [];
  });
  if (models.length === 0) return [];
  const named = models.map((m) => m.runtime).filter((r): r is string => typeof r === 'string' && r !== '');
  if (named.length === models.length) {
    const names = [...new Set(named)].sort();
    return [
      { apiVersion: SERVING_RUNTIME.apiVersion, resource: SERVING_RUNTIME.resource, ...(namespace ? { namespace } : {}), names },
      { apiVersion: CLUSTER_SERVING_RUNTIME.apiVersion, resource: CLUSTER_SERVING_RUNTIME.resource, names },
    ];
  }
  return [
    { apiVersion: SERVING_RUNTIME.apiVersion, resource: SERVING_RUNTIME.resource, ...(namespace ? { namespace } : {}) },
    { apiVersion: CLUSTER_SERVING_RUNTIME.apiVersion, resource: CLUSTER_SERVING_RUNTIME.resource, labelSelector: {} },
  ];
}

/** KServe's status.servingRuntimeName or status.clusterServingRuntimeName (inference_service_status.go), whichever names the runtime. */
export function runtimeStatus(runtime: { name: string; statusField: 'servingRuntimeName' | 'clusterServingRuntimeName' } | undefined): Record<string, string> {
  return runtime ? { [runtime.statusField]: runtime.name } : {};
}
