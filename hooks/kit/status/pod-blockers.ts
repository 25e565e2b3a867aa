import { BlockerReason, type Blocker } from './blocker-reasons.js';
import { findCondition } from './conditions.js';
import { isRecord, type KubeObject } from '../types.js';

function conditionsOf(obj: KubeObject): unknown {
  return isRecord(obj.status) ? obj.status.conditions : undefined;
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

const WAITING_REASONS: ReadonlySet<string> = new Set([
  BlockerReason.ErrImagePull,
  BlockerReason.ImagePullBackOff,
  BlockerReason.InvalidImageName,
  BlockerReason.ErrImageNeverPull,
  BlockerReason.RegistryUnavailable,
  BlockerReason.SignatureValidationFailed,
  BlockerReason.CrashLoopBackOff,
  BlockerReason.RunContainerError,
  BlockerReason.CreateContainerConfigError,
  BlockerReason.CreateContainerError,
]);

type ContainerStatus = Record<string, unknown> & { name: string };

/** A pod's blockers: Unschedulable, else its containers' (init containers first, spec order). */
export function podBlockers(pod: KubeObject): Blocker[] {
  const name = pod.metadata.name;
  const scheduled = findCondition(conditionsOf(pod), 'PodScheduled');
  if (scheduled?.status === 'False' && scheduled.reason === BlockerReason.Unschedulable) {
    return [{ reason: BlockerReason.Unschedulable, message: `Pod ${name}: ${text(scheduled.message)}`, source: { kind: 'Pod', name } }];
  }
  return containersInOrder(pod).flatMap((c) => containerBlocker(name, c));
}

/** Init containers, then containers, each in the order of the pod's spec (statuses matched by name). */
function containersInOrder(pod: KubeObject): ContainerStatus[] {
  const status = isRecord(pod.status) ? pod.status : {};
  const spec = isRecord(pod.spec) ? pod.spec : {};
  return [...ordered(statusList(status.initContainerStatuses), spec.initContainers), ...ordered(statusList(status.containerStatuses), spec.containers)];
}

function statusList(v: unknown): ContainerStatus[] {
  return Array.isArray(v) ? v.filter((s): s is ContainerStatus => isRecord(s) && typeof s.name === 'string') : [];
}

function ordered(statuses: ContainerStatus[], specContainers: unknown): ContainerStatus[] {
  const names = Array.isArray(specContainers) ? specContainers.flatMap((c) => (isRecord(c) && typeof c.name === 'string' ? [c.name] : [])) : [];
  const rank = (s: ContainerStatus) => {
    const i = names.indexOf(s.name);
    return i < 0 ? names.length : i;
  };
  return statuses
    .map((s, i) => ({ s, i }))
    .sort((a, b) => rank(a.s) - rank(b.s) || a.i - b.i)
    .map(({ s }) => s);
}

function stateOf(c: ContainerStatus, field: 'state' | 'lastState', key: 'waiting' | 'terminated'): Record<string, unknown> | undefined {
  const state = c[field];
  return isRecord(state) && isRecord(state[key]) ? state[key] : undefined;
}

function containerBlocker(pod: string, c: ContainerStatus): Blocker[] {
  const source = { kind: 'Pod' as const, name: pod, container: c.name };
  const where = `Pod ${pod} container ${c.name}`;
  const waiting = stateOf(c, 'state', 'waiting');
  const waitingReason = text(waiting?.reason);
  const lastTerminated = stateOf(c, 'lastState', 'terminated');
  const terminated = stateOf(c, 'state', 'terminated');
  // A crash loop whose last run the kernel killed for memory: the cause, not the symptom.
  if (waitingReason === BlockerReason.CrashLoopBackOff && text(lastTerminated?.reason) === BlockerReason.OOMKilled) {
    const message = `${where}: ${oomText(lastTerminated)}; ${text(waiting?.message) || waitingReason}`;
    return [{ reason: BlockerReason.OOMKilled, message, source, ...exitCodeOf(lastTerminated) }];
  }
  if (WAITING_REASONS.has(waitingReason)) {
    const exit = waitingReason === BlockerReason.CrashLoopBackOff ? exitCodeOf(lastTerminated) : {};
    return [{ reason: waitingReason as BlockerReason, message: `${where}: ${text(waiting?.message) || waitingReason}`, source, ...exit }];
  }
  if (text(terminated?.reason) === BlockerReason.OOMKilled) {
    return [{ reason: BlockerReason.OOMKilled, message: `${where}: ${oomText(terminated)}`, source, ...exitCodeOf(terminated) }];
  }
  return [];
}

function exitCodeOf(terminated: Record<string, unknown> | undefined): { exitCode?: number } {
  return typeof terminated?.exitCode === 'number' ? { exitCode: terminated.exitCode } : {};
}

function oomText(terminated: Record<string, unknown> | undefined): string {
  const code = terminated?.exitCode;
  return typeof code === 'number' ? `OOMKilled (exit code ${code})` : 'OOMKilled';
}
