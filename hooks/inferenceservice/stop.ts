import { condition, findCondition, type Cond, type Parent } from '../kit/index.js';
import type { Input } from './sync-input.js';
import { componentsOf, type ComponentName, type InferenceServiceSpec } from './spec.js';

/** KServe's stop annotation (pkg/constants StopAnnotationKey): "true" (any case) stops serving. */
export const STOP_ANNOTATION = 'serving.kserve.io/stop';
/** The condition KServe writes beside Ready (v1beta1.Stopped); it does not block Ready itself. */
export const STOPPED = 'Stopped';
/** KServe's StoppedISVCReason, set on every component condition and IngressReady while stopped. */
export const STOPPED_REASON = 'Stopped';

/** As KServe's GetForceStopRuntime: the annotation's value compared case-insensitively with "true". */
export function isStopped(parent: Parent<unknown>): boolean {
  return parent.metadata.annotations?.[STOP_ANNOTATION]?.toLowerCase() === 'true';
}

const STOPPED_MESSAGE = `annotation ${STOP_ANNOTATION} is "true": the Deployments, Services, HPAs and the Ingress or HTTPRoutes are deleted; PVCs, Secrets and the model are untouched. Remove the annotation to serve again`;

/** Stopped=True, written while the annotation says stop. */
export const stoppedCondition = (): Cond => condition.true(STOPPED, STOPPED_REASON, STOPPED_MESSAGE);

/**
 * Stopped=False once an InferenceService has been stopped and started again. KServe writes
 * Stopped=False on every InferenceService; modelhooks only on those the annotation has
 * touched, so a service never stopped keeps the status it always had.
 */
export function resumedCondition(input: Input): Cond | undefined {
  const annotated = input.parent.metadata.annotations?.[STOP_ANNOTATION] !== undefined;
  if (!annotated && !findCondition(input.parent.status.conditions, STOPPED)) return undefined;
  return condition.false(STOPPED, 'Serving', `annotation ${STOP_ANNOTATION} is not "true": the InferenceService serves`);
}

/**
 * The conditions of a stopped InferenceService, as KServe v0.20's reconcilers leave them:
 * each component's Ready False (reason Stopped), IngressReady False (reason Stopped) and
 * Stopped True. Ready follows from them.
 */
export function stoppedConditions(spec: InferenceServiceSpec, readyType: Record<ComponentName, string>, ingressReady: string): Cond[] {
  const components = componentsOf(spec).map((c) => condition.false(readyType[c], STOPPED_REASON, `${c} stopped by annotation ${STOP_ANNOTATION}`));
  return [
    ...components,
    condition.false(ingressReady, STOPPED_REASON, `the way in is deleted while annotation ${STOP_ANNOTATION} is "true"`),
    stoppedCondition(),
  ];
}
