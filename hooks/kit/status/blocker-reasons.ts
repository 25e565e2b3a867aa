// The vocabulary of blockers: reasons the compositions report when pods do not run.

/**
 * Why a parent's pods do not run: the first refusal or failure the platform reported on
 * the workloads Metacontroller handed us. Every string below is one Kubernetes itself writes
 * (file in Kubernetes v1.35 named beside it), except the four that classify an admission
 * refusal more finely than the ReplicaSet controller's `FailedCreate` does.
 */
export const BlockerReason = {
  // A Deployment's ReplicaSet could not create pods (ReplicaFailure=True, reason FailedCreate:
  // pkg/controller/replicaset/replica_set_utils.go), classified from the API server's message:
  /** `exceeded quota: <quota>, requested: …, used: …, limited: …` (k8s.io/apiserver admission/plugin/resourcequota/controller.go) */
  QuotaExceeded: 'QuotaExceeded',
  /** `failed quota: <quota>: must specify limits.cpu for: app; …` — a quota that needs requests/limits (pkg/quota/v1/evaluator/core/pods.go) */
  QuotaRequiresResources: 'QuotaRequiresResources',
  /** `maximum memory usage per Container is 1Gi, but limit is 2Gi` and the like (plugin/pkg/admission/limitranger/admission.go) */
  LimitRangeViolation: 'LimitRangeViolation',
  /** `violates PodSecurity "restricted:latest": …` (k8s.io/pod-security-admission admission/admission.go) */
  PodSecurityViolation: 'PodSecurityViolation',
  /** Any other refusal (e.g. a validating webhook): the ReplicaSet controller's own reason. */
  FailedCreate: 'FailedCreate',
  /** Progressing=False: the Deployment could not create its ReplicaSet (pkg/controller/deployment/util/deployment_util.go) */
  ReplicaSetCreateError: 'ReplicaSetCreateError',
  /** Progressing=False: no progress within progressDeadlineSeconds (same file); reported only when no pod says why. */
  ProgressDeadlineExceeded: 'ProgressDeadlineExceeded',

  // A Job's Failed (or, since v1.31, FailureTarget) condition (k8s.io/api batch/v1 types.go, pkg/controller/job/job_controller.go):
  BackoffLimitExceeded: 'BackoffLimitExceeded',
  DeadlineExceeded: 'DeadlineExceeded',
  PodFailurePolicy: 'PodFailurePolicy',
  MaxFailedIndexesExceeded: 'MaxFailedIndexesExceeded',
  FailedIndexes: 'FailedIndexes',
  /** A Failed Job whose reason is none of the above. */
  JobFailed: 'JobFailed',

  // A pod: PodScheduled=False (k8s.io/api core/v1 types.go PodReasonUnschedulable, written by the scheduler) …
  Unschedulable: 'Unschedulable',
  // … or one of its containers waiting for a reason the kubelet writes:
  /** pkg/kubelet/images/types.go */
  ErrImagePull: 'ErrImagePull',
  ImagePullBackOff: 'ImagePullBackOff',
  InvalidImageName: 'InvalidImageName',
  ErrImageNeverPull: 'ErrImageNeverPull',
  /** k8s.io/cri-api pkg/errors/errors.go, passed through by pkg/kubelet/images/image_manager.go */
  RegistryUnavailable: 'RegistryUnavailable',
  SignatureValidationFailed: 'SignatureValidationFailed',
  /** pkg/kubelet/container/sync_result.go */
  CrashLoopBackOff: 'CrashLoopBackOff',
  RunContainerError: 'RunContainerError',
  /** pkg/kubelet/kuberuntime/kuberuntime_container.go */
  CreateContainerConfigError: 'CreateContainerConfigError',
  CreateContainerError: 'CreateContainerError',
  /** The container runtime's reason for a container the kernel killed (state or lastState terminated). */
  OOMKilled: 'OOMKilled',
} as const;

export type BlockerReason = (typeof BlockerReason)[keyof typeof BlockerReason];

/**
 * The finer reason of an API server refusal, from the message formats of Kubernetes'
 * admission plugins (files cited on `BlockerReason`); undefined when none matches.
 */
export function refusalReason(message: string): BlockerReason | undefined {
  if (message.includes('exceeded quota: ')) return BlockerReason.QuotaExceeded;
  if (/failed quota: [^:]+: must specify /.test(message)) return BlockerReason.QuotaRequiresResources;
  if (/(minimum|maximum) \S+ usage per \S+ is |max limit to request ratio per /.test(message)) return BlockerReason.LimitRangeViolation;
  if (message.includes('violates PodSecurity "')) return BlockerReason.PodSecurityViolation;
  return undefined;
}

/** One thing keeping a parent's pods from running, with the object (and container) it was read from. */
export interface Blocker {
  reason: BlockerReason;
  /** Self-contained: names the object (and container) and carries the controller's or kubelet's message. */
  message: string;
  source: { kind: 'Deployment' | 'Job' | 'Pod'; name: string; container?: string };
  /** The exit code of the container's last run, when it ended (OOMKilled, CrashLoopBackOff). */
  exitCode?: number;
}
