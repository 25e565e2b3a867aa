import { BlockerReason, refusalReason, type Blocker } from './blocker-reasons.js';
import { findCondition } from './conditions.js';
import { podBlockers } from './pod-blockers.js';
import { isRecord, type KubeObject } from '../types.js';

/** The workloads of one parent, as Metacontroller observed them (children and related pods). */
export interface Workloads {
  deployments?: readonly KubeObject[];
  jobs?: readonly KubeObject[];
  pods?: readonly KubeObject[];
}

/**
 * The first thing keeping the parent's pods from running, or undefined when nothing does.
 *
 * The order is fixed, so the answer (and the parent's status) is stable:
 * 1. Deployments refused pods or a ReplicaSet (ReplicaFailure=True FailedCreate,
 *    Progressing=False ReplicaSetCreateError) — no pod exists to say more;
 * 2. Jobs that failed (Failed or FailureTarget True) — terminal;
 * 3. pods: Unschedulable, then init containers, then containers, in the pod spec's order;
 * 4. Deployments past their progress deadline — a symptom, reported only when no pod
 *    carries its cause.
 * Within each step objects go by name. Pods being deleted are skipped: they are on their way
 * out and a replacement speaks for them. Pods of an old ReplicaSet still count — they serve
 * until the rollout ends, and if they crash the tenant needs to know.
 * Only status fields are read, so nothing from a pod's spec (env values) can leak.
 */
export function firstBlocker(workloads: Workloads): Blocker | undefined {
  return blockersOf(workloads)[0];
}

/** Every blocker, in the order `firstBlocker` documents. */
export function blockersOf(workloads: Workloads): Blocker[] {
  const deployments = byName(workloads.deployments, 'Deployment');
  const jobs = byName(workloads.jobs, 'Job');
  const pods = byName(workloads.pods, 'Pod').filter((p) => !p.metadata.deletionTimestamp);
  return [...deployments.flatMap(deploymentRefusal), ...jobs.flatMap(jobFailure), ...pods.flatMap(podBlockers), ...deployments.flatMap(deploymentTimeout)];
}

function byName(list: readonly KubeObject[] | undefined, kind: string): KubeObject[] {
  return (list ?? []).filter((o) => o.kind === kind).sort((a, b) => compare(a.metadata.name, b.metadata.name));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function conditionsOf(obj: KubeObject): unknown {
  return isRecord(obj.status) ? obj.status.conditions : undefined;
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function deploymentRefusal(d: KubeObject): Blocker[] {
  const source = { kind: 'Deployment' as const, name: d.metadata.name };
  const failure = findCondition(conditionsOf(d), 'ReplicaFailure');
  // FailedDelete (too many pods) does not keep pods from running.
  if (failure?.status === 'True' && failure.reason === 'FailedCreate') {
    const message = text(failure.message);
    return [{ reason: refusalReason(message) ?? BlockerReason.FailedCreate, message: `Deployment ${source.name}: ${message}`, source }];
  }
  const progressing = findCondition(conditionsOf(d), 'Progressing');
  if (progressing?.status === 'False' && progressing.reason === BlockerReason.ReplicaSetCreateError) {
    const message = text(progressing.message);
    return [{ reason: refusalReason(message) ?? BlockerReason.ReplicaSetCreateError, message: `Deployment ${source.name}: ${message}`, source }];
  }
  return [];
}

function deploymentTimeout(d: KubeObject): Blocker[] {
  const progressing = findCondition(conditionsOf(d), 'Progressing');
  if (progressing?.status !== 'False' || progressing.reason !== BlockerReason.ProgressDeadlineExceeded) return [];
  const source = { kind: 'Deployment' as const, name: d.metadata.name };
  return [{ reason: BlockerReason.ProgressDeadlineExceeded, message: `Deployment ${source.name}: ${text(progressing.message)}`, source }];
}

const JOB_REASONS: ReadonlySet<string> = new Set([
  BlockerReason.BackoffLimitExceeded,
  BlockerReason.DeadlineExceeded,
  BlockerReason.PodFailurePolicy,
  BlockerReason.MaxFailedIndexesExceeded,
  BlockerReason.FailedIndexes,
]);

function jobFailure(job: KubeObject): Blocker[] {
  const conditions = conditionsOf(job);
  const failed = [findCondition(conditions, 'Failed'), findCondition(conditions, 'FailureTarget')].find((c) => c?.status === 'True');
  if (!failed) return [];
  const reason = JOB_REASONS.has(text(failed.reason)) ? (failed.reason as BlockerReason) : BlockerReason.JobFailed;
  const detail = text(failed.message) || text(failed.reason) || 'failed';
  return [{ reason, message: `Job ${job.metadata.name}: ${detail}`, source: { kind: 'Job', name: job.metadata.name } }];
}

/**
 * A blocker in the shape of KServe's `modelStatus.lastFailureInfo` (`location`, `reason`,
 * `message`, `exitCode`), for compositions that report one. KServe's own CRD limits `reason`
 * to its six FailureReasons; an InferenceService's modelStatus should use what KServe itself
 * would write instead (`kserveLastFailureInfo`).
 */
export function failureInfoFrom(blocker: Blocker): { location: string; reason: BlockerReason; message: string; exitCode?: number } {
  // KServe documents location as "usually Pod name"; the container is named in the message.
  return {
    location: blocker.source.name,
    reason: blocker.reason,
    message: blocker.message,
    ...(blocker.exitCode === undefined ? {} : { exitCode: blocker.exitCode }),
  };
}
