/**
 * The blockers (blockers.ts) wired into a composition's status: the related Pods of a
 * workload, and a workload condition that carries the first blocker's reason.
 */
import { firstBlocker, type Workloads } from './blockers.js';
import type { Readiness } from './conditions.js';
import type { ObjectIndex } from '../observed.js';
import { isRecord, type KubeObject } from '../types.js';

/**
 * The Pods among the related objects that carry every one of `selectorLabels` (those
 * `podsRuleFor` asked for). ObjectIndex already left out other namespaces' objects; the
 * labels are checked again, so a pod of another workload never speaks for this one.
 */
export function podsOf(related: ObjectIndex, selectorLabels: Record<string, string>): KubeObject[] {
  const wanted = Object.entries(selectorLabels);
  if (wanted.length === 0) return [];
  return related.list('v1', 'Pod').filter((p) => wanted.every(([k, v]) => p.metadata.labels?.[k] === v));
}

/**
 * A workload's readiness, told more precisely when it is not True: the first blocker of its
 * Deployments, Jobs and Pods (reason and message as `firstBlocker` gives them) replaces a
 * readiness that only says "not ready yet". A True readiness is kept: a crash of an old pod
 * during a finished rollout does not make a serving workload unready.
 */
export function blockedReadiness(readiness: Readiness, workloads: Workloads): Readiness {
  if (readiness.status === 'True') return readiness;
  const blocker = firstBlocker(workloads);
  return blocker ? { status: 'False', reason: blocker.reason, message: blocker.message } : readiness;
}

/** A Deployment's readiness with its pods' blocker: what each composition's DeploymentReady reports. */
export function deploymentWorkloadReadiness(readiness: Readiness, deployment: KubeObject | undefined, pods: readonly KubeObject[]): Readiness {
  return blockedReadiness(readiness, { deployments: deployment ? [deployment] : [], pods });
}

/** The related Pods a Deployment selects (its `spec.selector.matchLabels`); none without a selector. */
export function deploymentPods(related: ObjectIndex, deployment: KubeObject | undefined): KubeObject[] {
  const spec = deployment && isRecord(deployment.spec) ? deployment.spec : {};
  const selector = isRecord(spec.selector) && isRecord(spec.selector.matchLabels) ? spec.selector.matchLabels : {};
  const labels = Object.fromEntries(Object.entries(selector).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return podsOf(related, labels);
}
