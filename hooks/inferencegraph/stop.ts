import { condition, conditionsFor, findCondition, READY, type Cond, type SyncInput, type SyncOutput } from '../kit/index.js';
import { isStopped, STOP_ANNOTATION, STOPPED, STOPPED_REASON } from '../inferenceservice/stop.js';
import type { InferenceGraphConfig } from './config.js';
import { serviceFor } from './service.js';
import type { InferenceGraphSpec } from './spec.js';

export { isStopped };

type Input = SyncInput<InferenceGraphSpec, InferenceGraphConfig>;

/**
 * `serving.kserve.io/stop: "true"` on a graph (controller.go Reconcile, KServe v0.20.0): the
 * raw reconcilers delete the router Deployment and its HPA (deployment_reconciler.go,
 * hpa_reconciler.go check GetForceStopRuntime); the Service stays, as KServe's service
 * reconciler does not look. The Ingress or HTTPRoute (modelhooks' own) goes with the router.
 * Status: Stopped True, Ready False (reason Stopped), no url.
 */
export function stoppedAnswer(input: Input): SyncOutput {
  const ready = condition.false(
    READY,
    STOPPED_REASON,
    `annotation ${STOP_ANNOTATION} is "true": the router Deployment, its HPA and the Ingress or HTTPRoute are deleted; remove the annotation to serve again`,
  );
  const stopped = condition.true(STOPPED, STOPPED_REASON, `the graph is stopped by annotation ${STOP_ANNOTATION}`);
  return { status: { conditions: conditionsFor(input, [ready, stopped]) }, children: [serviceFor(input.parent)] };
}

/**
 * Stopped=False once a graph was stopped and serves again (KServe writes it on every graph;
 * here, as for InferenceServices, only where the annotation is or was).
 */
export function resumedCondition(input: Input): Cond | undefined {
  const annotated = input.parent.metadata.annotations?.[STOP_ANNOTATION] !== undefined;
  if (!annotated && !findCondition(input.parent.status.conditions, STOPPED)) return undefined;
  return condition.false(STOPPED, 'Serving', `annotation ${STOP_ANNOTATION} is not "true": the graph serves`);
}
