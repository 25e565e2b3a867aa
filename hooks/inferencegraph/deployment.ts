import type { V1Container, V1Deployment, V1PodSpec, V1Probe, V1ResourceRequirements } from '@kubernetes/client-node';
import { childMeta, restrictedContainer, restrictedPod, type Parent } from '../kit/index.js';
import { ROUTER_DEFAULTS } from './config.js';
import { annotationsFor } from './metadata.js';
import { deploymentName, labelsFor, ROUTER_PORT, selectorFor } from './names.js';
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
 * KServe sets no liveness probe on the router. One is added here (every Deployment of
 * modelhooks has one): the port only, so a router that answers slowly is never restarted.
 */
const ROUTER_LIVENESS: V1Probe = { tcpSocket: { port: ROUTER_PORT }, periodSeconds: 10, failureThreshold: 3 };

/**
 * Deployment `<n>`: one container, named after the graph, running the router with the
 * graph as `--graph-json` (raw_ig.go createInferenceGraphPodSpec; deployment_reconciler.go
 * createRawDefaultDeployment for the selector and replicas).
 */
export function deploymentFor(parent: Parent<InferenceGraphSpec>, image: string, graph: string): V1Deployment {
  const labels = labelsFor(parent, 'router');
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
        metadata: Object.keys(annotations).length > 0 ? { labels, annotations } : { labels },
        spec: podSpecFor(parent, image, graph),
      },
    },
  };
}

function podSpecFor(parent: Parent<InferenceGraphSpec>, image: string, graph: string): V1PodSpec {
  const spec = parent.spec;
  const container: V1Container = {
    name: deploymentName(parent),
    image,
    imagePullPolicy: ROUTER_DEFAULTS.imagePullPolicy,
    args: ['--graph-json', graph],
    resources: resourcesFor(spec),
    readinessProbe: ROUTER_READINESS,
    livenessProbe: ROUTER_LIVENESS,
    securityContext: restrictedContainer({ privileged: false, runAsNonRoot: true, readOnlyRootFilesystem: true }),
  };
  return {
    // The router never calls the API server (raw_ig.go: AutomountServiceAccountToken false).
    automountServiceAccountToken: false,
    securityContext: restrictedPod(),
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
