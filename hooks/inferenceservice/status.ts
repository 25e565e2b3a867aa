import {
  condition,
  conditionsFor,
  deploymentReadiness,
  findCondition,
  httpRouteReadiness,
  isRecord,
  readyFrom,
  type ConditionInput,
  type KubeObject,
  type Readiness,
  type SyncInput,
} from '../kit/index.js';
import type { InferenceServiceSpec } from './spec.js';

/*
 * Ready                       derived (kro): True when every one below is True
 * ├── PredictorReady          the predictor Deployment, judged as KServe judges it
 * ├── CanaryPredictorReady    (while a canary runs) the -canary Deployment
 * ├── TransformerReady        (with a transformer)
 * ├── ExplainerReady          (with an explainer)
 * └── IngressReady            the Ingress or HTTPRoutes exist / are accepted; True when cluster-local
 * CanaryTrafficSplit          (while a canary runs; not part of Ready) whether traffic is really split
 */
export const PREDICTOR_READY = 'PredictorReady';
export const CANARY_READY = 'CanaryPredictorReady';
export const TRANSFORMER_READY = 'TransformerReady';
export const EXPLAINER_READY = 'ExplainerReady';
export const INGRESS_READY = 'IngressReady';
export const TRAFFIC_SPLIT = 'CanaryTrafficSplit';
/** Informational, like TRAFFIC_SPLIT: a bucket may be public, so it does not block Ready. */
export const STORAGE_SECRET_FOUND = 'StorageSecretFound';

type Cond = { type?: string; status?: string; reason?: string; message?: string };

/**
 * A component's readiness from its Deployment, in KServe's order (PropagateRawStatus):
 * Available=True → ready; Progressing=False with a message → failed; Progressing=True →
 * ready when NewReplicaSetAvailable, else rolling out; Available=False or
 * ReplicaFailure=True → failed. A Deployment not yet observed by its controller is pending.
 */
export function componentReadiness(d: KubeObject | undefined): Readiness {
  if (!d) return { status: 'Unknown', reason: 'DeploymentNotFound', message: 'the Deployment has not been created yet' };
  const s = isRecord(d.status) ? d.status : {};
  const name = d.metadata.name;
  if ((typeof s.observedGeneration === 'number' ? s.observedGeneration : 0) < (d.metadata.generation ?? 0)) {
    return { status: 'Unknown', reason: 'RolloutPending', message: `Deployment ${name} has not observed its latest spec` };
  }
  const of = (c: Cond | undefined, status: Readiness['status'], fallback: string): Readiness => ({ status, reason: c?.reason || fallback, message: c?.message ?? '' });
  const available = findCondition<Cond>(s.conditions, 'Available');
  const progressing = findCondition<Cond>(s.conditions, 'Progressing');
  const failure = findCondition<Cond>(s.conditions, 'ReplicaFailure');
  let r: Readiness = { status: 'Unknown', reason: 'DeploymentPending', message: `Deployment ${name} has reported no conditions yet` };
  if (available?.status === 'True') r = of(available, 'True', 'MinimumReplicasAvailable');
  if (progressing?.status === 'False' && progressing.message) r = of(progressing, 'False', 'ProgressDeadlineExceeded');
  if (progressing?.status === 'True') {
    if (progressing.reason === 'NewReplicaSetAvailable') r = of(progressing, 'True', 'NewReplicaSetAvailable');
    else if (available?.status !== 'True') r = of(progressing, 'Unknown', 'ReplicaSetUpdated');
  }
  if (available?.status === 'False') r = of(available, 'False', 'MinimumReplicasUnavailable');
  if (failure?.status === 'True') r = of(failure, 'False', 'ReplicaFailure');
  return r;
}

export const fromReadiness = (type: string, r: Readiness): ConditionInput => ({ type, ...r });

/** IngressReady as KServe sets it in raw mode: True once the Ingress exists. */
export function ingressCondition(ingress: KubeObject | undefined): ConditionInput {
  return ingress
    ? condition.true(INGRESS_READY, 'IngressCreated', `Ingress ${ingress.metadata.name} exists`)
    : condition.unknown(INGRESS_READY, 'IngressNotFound', 'the Ingress has not been created yet');
}

/** IngressReady with Gateway API: every HTTPRoute accepted by its gateway (the least ready wins). */
export function routesCondition(routes: Array<KubeObject | undefined>): ConditionInput {
  const states = routes.map(httpRouteReadiness);
  const worst = states.find((r) => r.status === 'False') ?? states.find((r) => r.status === 'Unknown');
  return worst ? fromReadiness(INGRESS_READY, worst) : condition.true(INGRESS_READY, 'HTTPRoutesAccepted', `${routes.length} HTTPRoutes accepted`);
}

export interface StatusParts {
  conditions: ConditionInput[];
  /** Informational conditions, not part of Ready. */
  notes?: ConditionInput[];
  url?: string;
  addressUrl: string;
  components: Record<string, Record<string, unknown>>;
  modelStatus?: Record<string, unknown>;
}

export function statusFrom(input: SyncInput<InferenceServiceSpec>, parts: StatusParts): Record<string, unknown> {
  const ready = readyFrom(parts.conditions, 'InferenceServiceReady', 'every component is ready');
  return {
    ...(parts.url ? { url: parts.url } : {}),
    address: { url: parts.addressUrl },
    components: parts.components,
    conditions: conditionsFor(input, [ready, ...parts.conditions, ...(parts.notes ?? [])]),
    deploymentMode: 'RawDeployment',
    ...(parts.modelStatus ? { modelStatus: parts.modelStatus } : {}),
  };
}

/** KServe's modelStatus, as far as a raw Deployment tells it. */
export function modelStatusFrom(predictor: ConditionInput, deployment?: KubeObject): Record<string, unknown> {
  if (predictor.reason === 'NoSupportingRuntime' || predictor.reason === 'RuntimeNotRecognized') {
    return { transitionStatus: 'InvalidSpec', lastFailureInfo: { reason: predictor.reason, message: predictor.message } };
  }
  if (predictor.status === 'True') return { transitionStatus: 'UpToDate', states: { activeModelState: 'Loaded', targetModelState: 'Loaded' } };
  // Only a rollout that gave up (deadline exceeded, pods refused) is a failed load: a new
  // Deployment is Available=False until its pods are ready, which KServe reports as Pending.
  if (predictor.status === 'False' && deploymentReadiness(deployment).status === 'False') {
    return { transitionStatus: 'BlockedByFailedLoad', states: { activeModelState: 'FailedToLoad', targetModelState: 'Loaded' }, lastFailureInfo: { reason: predictor.reason, message: predictor.message } };
  }
  return { transitionStatus: 'InProgress', states: { activeModelState: 'Pending', targetModelState: 'Loaded' } };
}
