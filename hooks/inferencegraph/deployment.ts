import type { V1Container, V1Deployment, V1PodSpec, V1Probe, V1ResourceRequirements } from '@kubernetes/client-node';
import { childMeta, restrictedContainer, restrictedPod, type Parent } from '../kit/index.js';
import { ROUTER_DEFAULTS } from './config.js';
import { annotationsFor } from './metadata.js';
import { deploymentName, labelsFor, ROUTER_PORT, routerPodLabels, selectorFor } from './names.js';
import { scalingOf } from './hpa.js';
import type { InferenceGraphSpec } from './spec.js';

/** constants.GetRouterReadinessProbe (pkg/constants/constants.go). */
export const ROUTER_READINESS: V1Probe = {
  httpGet: { path: '/readyz', port: ROUTER_PORT, scheme: 'HTTP' },
  initialDelaySeconds: 5,
  timeoutSeconds: 2,
  periodSeconds: 5,
  successThreshold: 1,
  failureThreshold: 3,
};

/**
 * Deployment `<n>`: one container, named after the graph, running the router with the
 * graph as `--graph-json` (raw_ig.go createInferenceGraphPodSpec; deployment_reconciler.go
 * createRawDefaultDeployment for the selector and replicas).
 */
export function deploymentFor(parent: Parent<InferenceGraphSpec>, image: string, graph: string, restricted = false): V1Deployment {
  const labels = labelsFor(parent, 'router');
  // The pods carry KServe's labels only (the graph's, serving.kserve.io/inferencegraph, app): a Deployment KServe made is not rolled.
  const podLabels = routerPodLabels(parent);
  const annotations = annotationsFor(parent);
  const scaling = scalingOf(parent);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: childMeta(parent, deploymentName(parent), labels, annotations),
    spec: {
      // Only without an autoscaler does KServe set replicas (to minReplicas); an HPA owns them otherwise.
      ...(scaling.autoscaler === 'none' ? { replicas: scaling.min } : {}),
      selector: { matchLabels: selectorFor(parent) },
      template: {
        // The pod template is componentMeta with its name (deployment_reconciler.go createRawDefaultDeployment).
        metadata: { name: deploymentName(parent), labels: podLabels, ...(Object.keys(annotations).length > 0 ? { annotations } : {}) },
        spec: podSpecFor(parent, image, graph, restricted),
      },
    },
  };
}

function podSpecFor(parent: Parent<InferenceGraphSpec>, image: string, graph: string, restricted: boolean): V1PodSpec {
  const spec = parent.spec;
  const container: V1Container = {
    name: deploymentName(parent),
    image,
    imagePullPolicy: ROUTER_DEFAULTS.imagePullPolicy,
    args: ['--graph-json', graph],
    resources: resourcesFor(spec),
    // KServe sets no liveness probe on the router (raw_ig.go createInferenceGraphPodSpec), so none here.
    readinessProbe: ROUTER_READINESS,
    securityContext: restrictedContainer({ privileged: false, runAsNonRoot: true, readOnlyRootFilesystem: true }),
  };
  return {
    // The router never calls the API server (raw_ig.go: AutomountServiceAccountToken false).
    automountServiceAccountToken: false,
    // setDefaultPodSpec's empty context (deployment_reconciler.go); the restricted pod fields (seccomp) only
    // where the Namespace enforces restricted (MODELHOOKS_POD_SECURITY): the container's context is restricted already.
    securityContext: restricted ? restrictedPod() : {},
    containers: [container],
    ...(spec.affinity ? { affinity: spec.affinity } : {}),
    ...(spec.tolerations?.length ? { tolerations: spec.tolerations } : {}),
    ...(spec.nodeSelector && Object.keys(spec.nodeSelector).length > 0 ? { nodeSelector: spec.nodeSelector } : {}),
    ...(spec.nodeName ? { nodeName: spec.nodeName } : {}),
    ...(spec.serviceAccountName ? { serviceAccountName: spec.serviceAccountName } : {}),
  } as V1PodSpec;
}

/** knative_reconciler.go constructResourceRequirements: the spec's resources, or all four router defaults. */
export function resourcesFor(spec: InferenceGraphSpec): V1ResourceRequirements {
  const r = spec.resources;
  if (r && (r.limits || r.requests || r.claims)) {
    return { ...(r.limits ? { limits: r.limits } : {}), ...(r.requests ? { requests: r.requests } : {}) };
  }
  return {
    limits: { cpu: ROUTER_DEFAULTS.cpuLimit, memory: ROUTER_DEFAULTS.memoryLimit },
    requests: { cpu: ROUTER_DEFAULTS.cpuRequest, memory: ROUTER_DEFAULTS.memoryRequest },
  };
}
