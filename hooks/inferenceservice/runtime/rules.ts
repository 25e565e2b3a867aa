import type { RelatedRule } from '../../kit/index.js';
import { CLUSTER_SERVING_RUNTIME, SERVING_RUNTIME } from './selection.js';

/**
 * The customize rules for serving runtimes: every ServingRuntime of the parent's namespace
 * (a namespace without names lists them all: Metacontroller's `selectByNamespaceAndNames`),
 * and every ClusterServingRuntime — a cluster-scoped rule with neither names nor namespace
 * and an empty label selector is `selectByLabels` with `labels.Everything()`
 * (metacontroller pkg/controller/common/customize/manager.go, determineSelectionType,
 * toSelector, GetRelatedObjects; v4.17.2).
 */
export function runtimeRules(namespace: string | undefined): RelatedRule[] {
  return [
    { apiVersion: SERVING_RUNTIME.apiVersion, resource: SERVING_RUNTIME.resource, ...(namespace ? { namespace } : {}) },
    { apiVersion: CLUSTER_SERVING_RUNTIME.apiVersion, resource: CLUSTER_SERVING_RUNTIME.resource, labelSelector: {} },
  ];
}

/** KServe's status.servingRuntimeName or status.clusterServingRuntimeName (inference_service_status.go), whichever names the runtime. */
export function runtimeStatus(runtime: { name: string; statusField: 'servingRuntimeName' | 'clusterServingRuntimeName' } | undefined): Record<string, string> {
  return runtime ? { [runtime.statusField]: runtime.name } : {};
}
