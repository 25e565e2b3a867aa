import { z } from 'zod';
import {
  condition,
  conditionsSchema,
  deploymentReadiness,
  deploymentWorkloadReadiness,
  fromReadiness,
  httpRouteReadiness,
  IMMUTABLE_FIELD,
  podsOf,
  readyConditions,
  refusedCondition,
  type Cond,
  type KubeObject,
  type Refusal,
  type SyncInput,
} from '../kit/index.js';
import { HOST_CONFLICT, hostConflictCondition, type HostConflict } from '../kserve/host-conflicts.js';
import type { InferenceGraphConfig } from './config.js';
import type { Exposure } from './exposure.js';
import { STOPPED } from '../inferenceservice/stop.js';
import { resumedCondition } from './stop.js';
import type { ResolvedGraph, StepProblem } from './graph.js';
import { internalUrl, selectorFor } from './names.js';
import type { InferenceGraphSpec } from './spec.js';

export const INFERENCE_SERVICES_READY = 'InferenceServicesReady';
export const ROUTER_READY = 'RouterReady';
export const INGRESS_READY = 'IngressReady';
export const INFERENCE_SERVICE_NOT_FOUND = 'InferenceServiceNotFound';
export const INFERENCE_SERVICE_NOT_READY = 'InferenceServiceNotReady';

/**
 * Ready ← the steps' InferenceServices, the router, the way in. KServe's raw graph has Ready
 * alone, True once the router Deployment is Available (raw_ig.go PropagateRawStatus); its
 * controller refuses to go on while a step's InferenceService is missing or has no address
 * (controller.go). The steps' readiness is a condition of its own here, and Ready waits for it.
 */
export const conditionTree = readyConditions(
  [
    {
      type: INFERENCE_SERVICES_READY,
      means: "every InferenceService a step names exists in the graph's namespace and is Ready",
      reasons: { missing: INFERENCE_SERVICE_NOT_FOUND, notReady: INFERENCE_SERVICE_NOT_READY },
    },
    { type: ROUTER_READY, means: 'Deployment <n> (the router) rolled out and available', reasons: { immutable: IMMUTABLE_FIELD } },
    {
      type: INGRESS_READY,
      means: 'the Ingress or HTTPRoute routes the graph host (or the graph is cluster-local); False when another parent routes it',
      reasons: { conflict: HOST_CONFLICT },
    },
  ],
  { informational: [{ type: STOPPED, means: 'annotation serving.kserve.io/stop is "true" (written once the annotation was ever set)' }] },
);

/** KServe's InferenceGraphStatus: url, conditions (and observedGeneration, set by Metacontroller). */
export const inferencegraphStatus = z.looseObject({
  url: z.string().optional().describe("The graph's URL, once the router is available."),
  conditions: conditionsSchema.optional(),
});

/** Which steps' InferenceServices are missing or not Ready, each by name. */
export function stepsCondition(spec: InferenceGraphSpec, graph: ResolvedGraph, namespace: string, routerRuns: boolean): Cond {
  const note = graph.complete ? '' : routerRuns ? ': the router keeps running the graph it was given' : ': the router is created once every step has a URL';
  const missing = graph.problems.filter((p) => p.why === 'missing');
  if (missing.length > 0) {
    const names = missing.map((p) => p.service).join(', ');
    return condition.false(INFERENCE_SERVICES_READY, INFERENCE_SERVICE_NOT_FOUND, `InferenceService ${names} not found in namespace ${namespace}${note}`);
  }
  if (graph.problems.length > 0) {
    return condition.false(INFERENCE_SERVICES_READY, INFERENCE_SERVICE_NOT_READY, `${graph.problems.map(describe).join('; ')}${note}`);
  }
  const count = Object.values(spec.nodes)
    .flatMap((n) => n.steps ?? [])
    .filter((s) => s.serviceName).length;
  return condition.true(
    INFERENCE_SERVICES_READY,
    'InferenceServicesReady',
    count > 0 ? 'every InferenceService of the graph is Ready' : 'the graph names no InferenceService',
  );
}

function describe(p: StepProblem): string {
  if (p.why === 'no-address') return `InferenceService ${p.service} has no status.address.url yet`;
  return `InferenceService ${p.service} is not Ready${p.detail ? ` (${p.detail})` : ''}`;
}

export function exposureCondition(exposure: Exposure, observed: KubeObject | undefined): Cond {
  if (exposure.kind === 'none') {
    return exposure.why === 'cluster-local'
      ? condition.true(INGRESS_READY, 'ClusterLocal', 'networking.kserve.io/visibility is cluster-local: served inside the cluster only')
      : condition.false(INGRESS_READY, 'InvalidHost', `the domain template gives a host that is not a valid DNS name (${exposure.host})`);
  }
  if (exposure.kind === 'httproute') return fromReadiness(INGRESS_READY, httpRouteReadiness(observed));
  return observed
    ? condition.true(INGRESS_READY, 'IngressCreated', `Ingress ${observed.metadata.name} exists`)
    : condition.unknown(INGRESS_READY, 'IngressNotFound', 'the Ingress has not been created yet');
}

export interface Observed {
  deployment: KubeObject | undefined;
  exposure: KubeObject | undefined;
}

/** `conflicts`: the graph's host routed by another parent of the namespace, IngressReady and Ready False/HostConflict. */
export function statusFrom(
  input: SyncInput<InferenceGraphSpec, InferenceGraphConfig>,
  steps: Cond,
  exposure: Exposure,
  observed: Observed,
  refused: Refusal[],
  conflicts: readonly HostConflict[] = [],
): Record<string, unknown> {
  const { parent } = input;
  const pods = observed.deployment ? podsOf(input.related, selectorFor(parent)) : [];
  const router =
    refusedCondition(ROUTER_READY, refused) ??
    fromReadiness(ROUTER_READY, deploymentWorkloadReadiness(deploymentReadiness(observed.deployment), observed.deployment, pods));
  const resumed = resumedCondition(input);
  const decided = [steps, router, exposureCondition(exposure, observed.exposure), ...(resumed ? [resumed] : [])];
  const conflict = hostConflictCondition(INGRESS_READY, conflicts);
  const { conditions } = conditionTree.summarise(input, decided, { overrides: conflict ? [conflict] : [] });
  // raw_ig.go PropagateRawStatus: the URL once the router is available.
  const url = exposure.kind === 'none' ? internalUrl(parent) : `${input.config.ingress.urlScheme}://${exposure.host}`;
  return router.status === 'True' ? { url, conditions } : { conditions };
}
