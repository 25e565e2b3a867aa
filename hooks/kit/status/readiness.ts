import { findCondition, type Readiness } from './conditions.js';
import { isRecord, type KubeObject } from '../types.js';

const unknown = (reason: string, message: string): Readiness => ({ status: 'Unknown', reason, message });
const no = (reason: string, message: string): Readiness => ({ status: 'False', reason, message });
const yes = (reason: string, message: string): Readiness => ({ status: 'True', reason, message });

function statusOf(obj: KubeObject | undefined): Record<string, unknown> {
  return obj && isRecord(obj.status) ? obj.status : {};
}

function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

/** A Deployment is ready when its rollout is complete and it is Available, as `kubectl rollout status` judges. */
export function deploymentReadiness(d: KubeObject | undefined): Readiness {
  if (!d) return unknown('DeploymentNotFound', 'the Deployment has not been created yet');
  const name = d.metadata.name;
  const s = statusOf(d);
  const generation = d.metadata.generation ?? 0;
  if (num(s.observedGeneration) < generation) return unknown('RolloutPending', `Deployment ${name} has not observed its latest spec`);
  const failure = findCondition(s.conditions, 'ReplicaFailure');
  if (failure?.status === 'True') return no(failure.reason ?? 'ReplicaFailure', failure.message ?? `Deployment ${name} cannot create pods`);
  const progressing = findCondition(s.conditions, 'Progressing');
  if (progressing?.status === 'False')
    return no(progressing.reason ?? 'ProgressDeadlineExceeded', progressing.message ?? `Deployment ${name} stopped progressing`);
  const spec = isRecord(d.spec) ? d.spec : {};
  const wanted = typeof spec.replicas === 'number' ? spec.replicas : 1;
  const updated = num(s.updatedReplicas);
  const available = num(s.availableReplicas);
  const total = num(s.replicas);
  if (updated < wanted || total > updated || available < updated) {
    return unknown('RolloutInProgress', `Deployment ${name}: ${available}/${wanted} replicas available, ${updated} updated`);
  }
  const availableCond = findCondition(s.conditions, 'Available');
  if (availableCond?.status === 'False')
    return no(availableCond.reason ?? 'MinimumReplicasUnavailable', availableCond.message ?? `Deployment ${name} is not available`);
  return yes('MinimumReplicasAvailable', `Deployment ${name}: ${available}/${wanted} replicas available`);
}

/** Where a Job stands (`jobState`). */
export type JobState = 'Succeeded' | 'Failed' | 'Running' | 'Missing';

/** The state of a Job from its Complete / Failed conditions (or counters on older clusters). */
export function jobState(job: KubeObject | undefined): { state: JobState; reason: string; message: string } {
  if (!job) return { state: 'Missing', reason: 'JobNotFound', message: 'the Job has not been created yet' };
  const s = statusOf(job);
  const failed = findCondition(s.conditions, 'Failed');
  if (failed?.status === 'True') return { state: 'Failed', reason: failed.reason ?? 'Failed', message: failed.message ?? '' };
  const complete = findCondition(s.conditions, 'Complete');
  if (complete?.status === 'True' || (num(s.succeeded) > 0 && !s.active)) {
    return { state: 'Succeeded', reason: 'Completed', message: `Job ${job.metadata.name} completed` };
  }
  return { state: 'Running', reason: 'JobRunning', message: `Job ${job.metadata.name} is running` };
}

/** A PersistentVolumeClaim is ready once Bound; Lost is a failure. */
export function pvcReadiness(pvc: KubeObject | undefined): Readiness {
  if (!pvc) return unknown('PVCNotFound', 'the PersistentVolumeClaim has not been created yet');
  const phase = statusOf(pvc).phase;
  const name = pvc.metadata.name;
  if (phase === 'Bound') return yes('PVCBound', `PersistentVolumeClaim ${name} is bound`);
  if (phase === 'Lost') return no('PVCLost', `PersistentVolumeClaim ${name} lost its volume`);
  return unknown('PVCPending', `PersistentVolumeClaim ${name} is waiting to be bound`);
}

/** An OpenShift Route is ready when a router admitted it. */
export function routeReadiness(route: KubeObject | undefined): Readiness {
  if (!route) return unknown('RouteNotFound', 'the Route has not been created yet');
  const ingress = statusOf(route).ingress;
  const entries = Array.isArray(ingress) ? ingress.filter(isRecord) : [];
  for (const entry of entries) {
    const admitted = findCondition(entry.conditions, 'Admitted');
    if (admitted?.status === 'True') return yes('RouteAdmitted', `Route ${route.metadata.name} admitted as ${String(entry.host ?? '')}`);
    if (admitted?.status === 'False') return no(admitted.reason ?? 'RouteNotAdmitted', admitted.message ?? '');
  }
  return unknown('RouteNotAdmitted', `Route ${route.metadata.name} has not been admitted by a router yet`);
}

/** An HTTPRoute is ready when every parent gateway Accepted it and resolved its refs. */
export function httpRouteReadiness(route: KubeObject | undefined): Readiness {
  if (!route) return unknown('HTTPRouteNotFound', 'the HTTPRoute has not been created yet');
  const parents = statusOf(route).parents;
  const entries = Array.isArray(parents) ? parents.filter(isRecord) : [];
  if (entries.length === 0) return unknown('HTTPRouteNotAccepted', `HTTPRoute ${route.metadata.name} has no gateway status yet`);
  for (const p of entries) {
    for (const type of ['Accepted', 'ResolvedRefs']) {
      const c = findCondition(p.conditions, type);
      if (c?.status === 'False') return no(c.reason ?? `Not${type}`, c.message ?? '');
      if (c?.status !== 'True') return unknown(`Not${type}`, `HTTPRoute ${route.metadata.name}: ${type} not reported yet`);
    }
  }
  return yes('HTTPRouteAccepted', `HTTPRoute ${route.metadata.name} accepted`);
}
