import { deploymentReadiness, isRecord, type Cond, type KubeObject } from '../../kit/index.js';
import { kserveLastFailureInfo, type KServeFailureInfo } from './failure-info.js';

/*
 * KServe v0.20's `status.modelStatus` (pkg/apis/serving/v1beta1/inference_service_status.go:
 * ModelStatus, UpdateModelRevisionStates, UpdateModelTransitionStatus, PropagateModelStatus),
 * from what a raw Deployment tells, and from the predictor's pods when they are observed.
 */

/** FailureInfoReason: the only values KServe writes to lastFailureInfo.reason. */
export const FAILURE_REASONS = [
  'ModelLoadFailed',
  'RuntimeUnhealthy',
  'RuntimeDisabled',
  'NoSupportingRuntime',
  'RuntimeNotRecognized',
  'InvalidPredictorSpec',
] as const;
type FailureReason = (typeof FAILURE_REASONS)[number];
const isFailureReason = (r: unknown): r is FailureReason => typeof r === 'string' && (FAILURE_REASONS as readonly string[]).includes(r);

type ModelState = 'Pending' | 'Standby' | 'Loading' | 'Loaded' | 'FailedToLoad';
const TRANSITION: Record<ModelState, string> = {
  Pending: 'InProgress',
  Standby: 'InProgress',
  Loading: 'InProgress',
  Loaded: 'UpToDate',
  FailedToLoad: 'BlockedByFailedLoad',
};

export interface ModelStatusInput {
  /** PredictorReady as decided this sync. */
  predictor: Cond;
  /** The InferenceService's Ready (KServe: `ss.IsReady()`). */
  ready: boolean;
  deployment?: KubeObject | undefined;
  /** The predictor's pods, when observed (label app: isvc.<predictor>); without them no Loading is told. */
  pods?: readonly KubeObject[] | undefined;
  /** The status written before: KServe keeps activeModelState and lastFailureInfo until it sets new ones. */
  previous?: unknown;
}

export function modelStatusFrom(i: ModelStatusInput): Record<string, unknown> {
  const prev = isRecord(i.previous) ? i.previous : {};
  const prevStates = isRecord(prev.states) ? prev.states : {};
  // ActiveModelState changes only on Loaded; `Pending` is the CRD's default for a new one.
  const active = typeof prevStates.activeModelState === 'string' && prevStates.activeModelState !== '' ? prevStates.activeModelState : 'Pending';
  // Never cleared by KServe; a reason outside its enum (written by older modelhooks) is dropped.
  const kept = isRecord(prev.lastFailureInfo) && isFailureReason(prev.lastFailureInfo.reason) ? prev.lastFailureInfo : undefined;
  const state = (target: ModelState, info?: KServeFailureInfo | Record<string, unknown>) => {
    const lastFailureInfo = info ?? kept;
    return {
      transitionStatus: TRANSITION[target],
      states: { activeModelState: target === 'Loaded' ? 'Loaded' : active, targetModelState: target },
      ...(lastFailureInfo ? { lastFailureInfo } : {}),
      copies: copiesOf(i),
    };
  };

  // UpdateModelTransitionStatus(InvalidSpec, …): the target becomes FailedToLoad.
  if (i.predictor.status === 'False' && (i.predictor.reason === 'NoSupportingRuntime' || i.predictor.reason === 'RuntimeNotRecognized')) {
    const { copies: _c, ...rest } = state('FailedToLoad', { reason: i.predictor.reason, message: i.predictor.message });
    return { ...rest, transitionStatus: 'InvalidSpec' };
  }
  if (i.pods !== undefined) return fromPods(i, i.pods, state);
  if (i.ready) return state('Loaded');
  // Without pods: a rollout that gave up is a runtime that did not come up (RuntimeUnhealthy);
  // a Deployment still rolling out is Pending, as KServe reports before a pod fails.
  if (i.predictor.status === 'False' && deploymentReadiness(i.deployment).status === 'False') {
    return state('FailedToLoad', { reason: 'RuntimeUnhealthy', message: i.predictor.message });
  }
  return state('Pending');
}

/** PropagateModelStatus in raw mode, from the newest pod. */
function fromPods(
  i: ModelStatusInput,
  pods: readonly KubeObject[],
  state: (t: ModelState, info?: KServeFailureInfo) => Record<string, unknown>,
): Record<string, unknown> {
  if (pods.length === 0) return state('Pending');
  const failure = kserveLastFailureInfo(pods, i.ready);
  const newest = [...pods].sort(
    (a, b) =>
      String(b.metadata.creationTimestamp ?? '').localeCompare(String(a.metadata.creationTimestamp ?? '')) || a.metadata.name.localeCompare(b.metadata.name),
  )[0];
  const init = isRecord(newest?.status) && Array.isArray(newest.status.initContainerStatuses) ? newest.status.initContainerStatuses : [];
  const storage = init.find((c): c is Record<string, unknown> => isRecord(c) && c.name === 'storage-initializer');
  // A running storage initializer is Loading (KServe requeues instead when it failed before).
  if (storage && isRecord(storage.state) && isRecord(storage.state.running)) return state('Loading');
  if (failure) return state('FailedToLoad', failure);
  if (i.ready) return state('Loaded');
  return state('Pending');
}

/** ModelCopies: KServe counts the ready, running pods as totalCopies (omitted at 0) and never sets failedCopies. */
function copiesOf(i: ModelStatusInput): Record<string, number> {
  const ready = i.pods
    ? i.pods.filter(
        (p) =>
          isRecord(p.status) &&
          p.status.phase === 'Running' &&
          Array.isArray(p.status.conditions) &&
          p.status.conditions.some((c) => isRecord(c) && c.type === 'Ready' && c.status === 'True'),
      ).length
    : isRecord(i.deployment?.status) && typeof i.deployment.status.readyReplicas === 'number'
      ? i.deployment.status.readyReplicas
      : 0;
  return { failedCopies: 0, ...(ready > 0 ? { totalCopies: ready } : {}) };
}
