import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HookContractError, podsRuleFor, type KubeObject } from '../../hooks/kit/index.js';
import { blockersOf, failureInfoFrom, firstBlocker } from '../../hooks/kit/status/blockers.js';
import { BlockerReason, refusalReason } from '../../hooks/kit/status/blocker-reasons.js';

// Observed objects shaped as Kubernetes v1.35 writes them. Every message below is built from
// the format string of the file cited beside it (paths in github.com/kubernetes/kubernetes,
// k8s.io/* staging repositories named as such).

const NS = 'models';
const RS = 'iris-predictor-7d9f8b6c5d';
const POD = `${RS}-x7k2p`;
const UID = '5b1f0c1e-6c2a-4f0e-9d1b-2f3c4d5e6f70';

type Cond = { type: string; status: string; reason?: string; message?: string };
const stamp = (c: Cond) => ({ lastTransitionTime: '2026-11-23T10:00:00Z', lastUpdateTime: '2026-11-23T10:00:00Z', ...c });

function deployment(name: string, conditions: Cond[]): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS, generation: 1 },
    spec: { replicas: 1 },
    status: { observedGeneration: 1, replicas: 0, unavailableReplicas: 1, conditions: conditions.map(stamp) },
  };
}

// pkg/controller/deployment/sync.go and progress.go: what a Deployment whose pods were refused carries besides ReplicaFailure.
const stillProgressing: Cond[] = [
  { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' },
  { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: `ReplicaSet "${RS}" is progressing.` },
];
// pkg/controller/replicaset/replica_set_utils.go: ReplicaFailure=True, reason FailedCreate, message = the API error.
const refused = (name: string, apiError: string) =>
  deployment(name, [...stillProgressing, { type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: apiError }]);
// k8s.io/apimachinery pkg/api/errors/errors.go NewForbidden: `%s %q is forbidden: %v`; validating admission runs after
// the name is generated (k8s.io/apiserver pkg/registry/rest/create.go AdmissionToValidateObjectFunc), mutating admission before.
const forbidden = (detail: string, name = POD) => `pods "${name}" is forbidden: ${detail}`;

const QUOTA = 'exceeded quota: compute-resources, requested: limits.memory=4Gi, used: limits.memory=6Gi, limited: limits.memory=8Gi';
const QUOTA_NEEDS =
  'failed quota: compute-resources: must specify limits.cpu for: kserve-container,storage-initializer; limits.memory for: kserve-container,storage-initializer';
const LIMIT_RANGE = 'maximum memory usage per Container is 1Gi, but limit is 2Gi';
const LIMIT_RANGE_MANY =
  '[maximum cpu usage per Container is 1, but limit is 2, cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000]';
const PSA =
  'violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "kserve-container" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "kserve-container" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "kserve-container" must set securityContext.runAsNonRoot=true), ' +
  'seccompProfile (pod or container "kserve-container" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';
const NO_SA = `error looking up service account ${NS}/model-sa: serviceaccount "model-sa" not found`;

describe('firstBlocker: Deployment conditions', () => {
  const cases = [
    {
      reason: 'a ResourceQuota is exhausted',
      source: 'k8s.io/apiserver pkg/admission/plugin/resourcequota/controller.go ("exceeded quota: %s, requested: %s, used: %s, limited: %s")',
      d: refused('iris-predictor', forbidden(QUOTA)),
      want: BlockerReason.QuotaExceeded,
    },
    {
      reason: 'a ResourceQuota needs limits the pod does not set',
      source: 'k8s.io/apiserver …/resourcequota/controller.go ("failed quota: %s: %v") + pkg/quota/v1/evaluator/core/pods.go ("must specify %s", "%s for: %s")',
      d: refused('iris-predictor', forbidden(QUOTA_NEEDS)),
      want: BlockerReason.QuotaRequiresResources,
    },
    {
      reason: 'a LimitRange maximum',
      source: 'plugin/pkg/admission/limitranger/admission.go ("maximum %s usage per %s is %s, but limit is %s")',
      d: refused('iris-predictor', forbidden(LIMIT_RANGE)),
      want: BlockerReason.LimitRangeViolation,
    },
    {
      reason: 'several LimitRange violations, aggregated',
      source:
        'limitranger/admission.go ("%s max limit to request ratio per %s is %s, but provided ratio is %f") + k8s.io/apimachinery pkg/util/errors/errors.go (aggregate: "[a, b]")',
      d: refused('iris-predictor', forbidden(LIMIT_RANGE_MANY)),
      want: BlockerReason.LimitRangeViolation,
    },
    {
      reason: 'Pod Security Admission enforces restricted',
      source: 'k8s.io/pod-security-admission admission/admission.go ("violates PodSecurity %q: %s") + policy/checks.go ForbiddenDetail',
      d: refused('iris-predictor', forbidden(PSA)),
      want: BlockerReason.PodSecurityViolation,
    },
    {
      reason: "any other refusal keeps the controller's FailedCreate",
      source: 'plugin/pkg/admission/serviceaccount/admission.go ("error looking up service account %s/%s: %w"), mutating: generateName in the message',
      d: refused('iris-predictor', forbidden(NO_SA, `${RS}-`)),
      want: BlockerReason.FailedCreate,
    },
    {
      reason: 'the ReplicaSet itself was refused by a quota on object counts',
      source: 'pkg/controller/deployment/sync.go ("Failed to create new replica set %q: %v", reason ReplicaSetCreateError)',
      d: deployment('iris-predictor', [
        {
          type: 'Progressing',
          status: 'False',
          reason: 'ReplicaSetCreateError',
          message: `Failed to create new replica set "${RS}": replicasets.apps "${RS}" is forbidden: exceeded quota: object-counts, requested: count/replicasets.apps=1, used: count/replicasets.apps=10, limited: count/replicasets.apps=10`,
        },
      ]),
      want: BlockerReason.QuotaExceeded,
    },
    {
      reason: 'the ReplicaSet was refused for another reason',
      source: 'pkg/controller/deployment/util/deployment_util.go (FailedRSCreateReason = "ReplicaSetCreateError")',
      d: deployment('iris-predictor', [
        {
          type: 'Progressing',
          status: 'False',
          reason: 'ReplicaSetCreateError',
          message: `Failed to create new replica set "${RS}": admission webhook "policy.example.com" denied the request: owner label required`,
        },
      ]),
      want: BlockerReason.ReplicaSetCreateError,
    },
    {
      reason: 'the progress deadline passed with no pod to explain it',
      source: 'pkg/controller/deployment/progress.go ("ReplicaSet %q has timed out progressing.", reason TimedOutReason = "ProgressDeadlineExceeded")',
      d: deployment('iris-predictor', [
        stillProgressing[0]!,
        { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: `ReplicaSet "${RS}" has timed out progressing.` },
      ]),
      want: BlockerReason.ProgressDeadlineExceeded,
    },
    {
      reason: 'FailedDelete (too many pods) keeps no pod from running',
      source: 'pkg/controller/replicaset/replica_set_utils.go (reason "FailedDelete" when diff > 0)',
      d: deployment('iris-predictor', [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedDelete', message: `pods "${POD}" is forbidden: …` }]),
      want: undefined,
    },
    {
      reason: 'a healthy, complete rollout',
      source: 'pkg/controller/deployment/progress.go ("ReplicaSet %q has successfully progressed.", NewReplicaSetAvailable)',
      d: deployment('iris-predictor', [
        { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' },
        { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${RS}" has successfully progressed.` },
      ]),
      want: undefined,
    },
  ];
  for (const c of cases) {
    it(c.reason, () => {
      const got = firstBlocker({ deployments: [c.d] });
      expect(got?.reason).toBe(c.want);
      if (c.want) {
        const conditions = (c.d.status as { conditions: Cond[] }).conditions;
        const cause = conditions.find((x) => x.type === 'ReplicaFailure' || (x.status === 'False' && x.type === 'Progressing'))!;
        expect(got).toEqual({ reason: c.want, message: `Deployment iris-predictor: ${cause.message}`, source: { kind: 'Deployment', name: 'iris-predictor' } });
      }
    });
  }
});

function job(name: string, conditions: Cond[]): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: NS },
    spec: { backoffLimit: 6, completions: 1, parallelism: 1 },
    status: { failed: 7, startTime: '2026-11-23T09:00:00Z', conditions: conditions.map((c) => ({ lastProbeTime: '2026-11-23T10:00:00Z', ...stamp(c) })) },
  };
}

// pkg/controller/job/job_controller.go: since v1.31 FailureTarget comes first, then Failed with the same reason and message.
const failedJob = (name: string, reason: string, message: string) =>
  job(name, [
    { type: 'FailureTarget', status: 'True', reason, message },
    { type: 'Failed', status: 'True', reason, message },
  ]);

describe('firstBlocker: Job conditions', () => {
  const cases = [
    {
      reason: 'pods kept failing',
      source: 'pkg/controller/job/job_controller.go ("Job has reached the specified backoff limit")',
      j: failedJob('download', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'),
      want: BlockerReason.BackoffLimitExceeded,
    },
    {
      reason: 'activeDeadlineSeconds passed',
      source: 'job_controller.go ("Job was active longer than specified deadline")',
      j: failedJob('download', 'DeadlineExceeded', 'Job was active longer than specified deadline'),
      want: BlockerReason.DeadlineExceeded,
    },
    {
      reason: 'a podFailurePolicy FailJob rule',
      source: 'pkg/controller/job/pod_failure_policy.go ("Container %s for pod %s/%s failed with exit code %v matching %v rule at index %d")',
      j: failedJob('download', 'PodFailurePolicy', `Container main for pod ${NS}/download-7xq2m failed with exit code 42 matching FailJob rule at index 0`),
      want: BlockerReason.PodFailurePolicy,
    },
    {
      reason: 'an indexed Job exceeded maxFailedIndexes',
      source: 'job_controller.go ("Job has exceeded the specified maximal number of failed indexes")',
      j: failedJob('download', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes'),
      want: BlockerReason.MaxFailedIndexesExceeded,
    },
    {
      reason: 'only FailureTarget so far (pods still terminating)',
      source: 'job_controller.go newFailureCondition (delayTerminalCondition)',
      j: job('download', [{ type: 'FailureTarget', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }]),
      want: BlockerReason.BackoffLimitExceeded,
    },
    {
      reason: 'a reason we do not know is still a failed Job',
      source: 'k8s.io/api batch/v1 types.go (JobFailed)',
      j: failedJob('download', 'SomethingNew', 'a future reason'),
      want: BlockerReason.JobFailed,
    },
    {
      reason: 'a Job that completed',
      source: 'k8s.io/api batch/v1 types.go (JobComplete, JobReasonCompletionsReached)',
      j: job('download', [
        { type: 'SuccessCriteriaMet', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
        { type: 'Complete', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
      ]),
      want: undefined,
    },
    { reason: 'a Job still running', source: '—', j: job('download', []), want: undefined },
  ];
  for (const c of cases) {
    it(c.reason, () => {
      const got = firstBlocker({ jobs: [c.j] });
      expect(got?.reason).toBe(c.want);
      if (c.want) {
        const cond = (c.j.status as { conditions: Cond[] }).conditions[0]!;
        expect(got).toEqual({ reason: c.want, message: `Job download: ${cond.message}`, source: { kind: 'Job', name: 'download' } });
      }
    });
  }
});

type ContainerState = Record<string, unknown>;
interface PodShape {
  name?: string;
  init?: Array<{ name: string; state: ContainerState; lastState?: ContainerState }>;
  containers: Array<{ name: string; state: ContainerState; lastState?: ContainerState }>;
  conditions?: Cond[];
  deletionTimestamp?: string;
  statusOrder?: 'reverse';
}

const IMAGE = 'quay.io/acme/sklearn-server:9.9';
const running = { running: { startedAt: '2026-11-23T10:01:00Z' } };
const waiting = (reason: string, message?: string) => ({ waiting: message === undefined ? { reason } : { reason, message } });
const terminated = (reason: string, exitCode: number, message?: string) => ({
  terminated: {
    exitCode,
    reason,
    ...(message ? { message } : {}),
    startedAt: '2026-11-23T10:01:00Z',
    finishedAt: '2026-11-23T10:01:09Z',
    containerID: 'containerd://4f9c0e7a',
  },
});

function pod(p: PodShape): KubeObject {
  const name = p.name ?? POD;
  const statusOf = (c: { name: string; state: ContainerState; lastState?: ContainerState }) => ({
    name: c.name,
    image: IMAGE,
    imageID: '',
    ready: false,
    restartCount: c.lastState ? 5 : 0,
    started: false,
    state: c.state,
    lastState: c.lastState ?? {},
  });
  const order = <T>(list: T[]) => (p.statusOrder === 'reverse' ? [...list].reverse() : list);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: NS,
      uid: UID,
      generateName: `${RS}-`,
      labels: { app: 'isvc.iris-predictor', 'pod-template-hash': '7d9f8b6c5d' },
      ...(p.deletionTimestamp ? { deletionTimestamp: p.deletionTimestamp } : {}),
    },
    spec: {
      initContainers: (p.init ?? []).map((c) => ({ name: c.name, image: 'kserve/storage-initializer:v0.20.0' })),
      containers: p.containers.map((c) => ({
        name: c.name,
        image: IMAGE,
        // A Secret's value in the pod spec must never reach the parent's status.
        env: [{ name: 'AWS_SECRET_ACCESS_KEY', value: 'wJalrXUtnFEMI-not-a-real-key' }],
      })),
    },
    status: {
      phase: 'Pending',
      conditions: (
        p.conditions ?? [
          { type: 'PodScheduled', status: 'True' },
          { type: 'Ready', status: 'False', reason: 'ContainersNotReady' },
        ]
      ).map((c) => ({ lastProbeTime: null, ...stamp(c) })),
      ...(p.init ? { initContainerStatuses: order(p.init.map(statusOf)) } : {}),
      containerStatuses: order(p.containers.map(statusOf)),
      qosClass: 'Burstable',
      startTime: '2026-11-23T10:00:30Z',
    },
  };
}

// pkg/kubelet/images/image_manager.go: ErrImagePull's message is the CRI error; during back-off the kubelet
// writes "Back-off pulling image %q" + ": " + the stored "<ErrImagePull>: <previous message>".
const PULL_ERROR = `rpc error: code = NotFound desc = failed to pull and unpack image "${IMAGE}": failed to resolve reference "${IMAGE}": ${IMAGE}: not found`;
// pkg/kubelet/kuberuntime/kuberuntime_manager.go doBackOff: "back-off %s restarting failed container=%s pod=%s",
// the pod as pkg/kubelet/util/format/pod.go PodDesc: "%s_%s(%s)".
const backOff = (container: string) => `back-off 5m0s restarting failed container=${container} pod=${POD}_${NS}(${UID})`;

describe('firstBlocker: pod states', () => {
  const cases = [
    {
      reason: 'the image cannot be pulled',
      source: 'pkg/kubelet/images/types.go (ErrImagePull) + image_manager.go evalCRIPullErr',
      p: pod({ containers: [{ name: 'kserve-container', state: waiting('ErrImagePull', PULL_ERROR) }] }),
      want: { reason: BlockerReason.ErrImagePull, container: 'kserve-container', kubelet: PULL_ERROR },
    },
    {
      reason: 'the kubelet backs off pulling',
      source: 'pkg/kubelet/images/types.go (ErrImagePullBackOff = "ImagePullBackOff") + image_manager.go ("Back-off pulling image %q", "%s: %s")',
      p: pod({
        containers: [{ name: 'kserve-container', state: waiting('ImagePullBackOff', `Back-off pulling image "${IMAGE}": ErrImagePull: ${PULL_ERROR}`) }],
      }),
      want: {
        reason: BlockerReason.ImagePullBackOff,
        container: 'kserve-container',
        kubelet: `Back-off pulling image "${IMAGE}": ErrImagePull: ${PULL_ERROR}`,
      },
    },
    {
      reason: 'the registry is unreachable',
      source:
        'k8s.io/cri-api pkg/errors/errors.go (ErrRegistryUnavailable) + image_manager.go ("image pull failed for %s because the registry is unavailable%s")',
      p: pod({
        containers: [
          {
            name: 'kserve-container',
            state: waiting('RegistryUnavailable', `image pull failed for ${IMAGE} because the registry is unavailable: dial tcp: lookup quay.io: no such host`),
          },
        ],
      }),
      want: {
        reason: BlockerReason.RegistryUnavailable,
        container: 'kserve-container',
        kubelet: `image pull failed for ${IMAGE} because the registry is unavailable: dial tcp: lookup quay.io: no such host`,
      },
    },
    {
      reason: 'the server crashes on start',
      source: 'pkg/kubelet/container/sync_result.go (ErrCrashLoopBackOff = "CrashLoopBackOff") + kuberuntime_manager.go doBackOff',
      p: pod({
        containers: [{ name: 'kserve-container', state: waiting('CrashLoopBackOff', backOff('kserve-container')), lastState: terminated('Error', 1) }],
      }),
      want: { reason: BlockerReason.CrashLoopBackOff, container: 'kserve-container', kubelet: backOff('kserve-container'), exitCode: 1 },
    },
    {
      reason: 'a crash loop whose last run was OOMKilled reports the cause',
      source: 'lastState.terminated.reason "OOMKilled" from the CRI runtime (pkg/kubelet/kuberuntime/helpers.go reads it), exit code 137',
      p: pod({
        containers: [{ name: 'kserve-container', state: waiting('CrashLoopBackOff', backOff('kserve-container')), lastState: terminated('OOMKilled', 137) }],
      }),
      want: {
        reason: BlockerReason.OOMKilled,
        container: 'kserve-container',
        kubelet: `OOMKilled (exit code 137); ${backOff('kserve-container')}`,
        exitCode: 137,
      },
    },
    {
      reason: 'a container just OOMKilled, not restarted yet',
      source: 'state.terminated.reason "OOMKilled" (CRI)',
      p: pod({ containers: [{ name: 'kserve-container', state: terminated('OOMKilled', 137) }] }),
      want: { reason: BlockerReason.OOMKilled, container: 'kserve-container', kubelet: 'OOMKilled (exit code 137)', exitCode: 137 },
    },
    {
      reason: 'an env var names a Secret key that does not exist',
      source:
        'pkg/kubelet/kuberuntime/kuberuntime_container.go (ErrCreateContainerConfig) + pkg/kubelet/kubelet_pods.go ("couldn\'t find key %v in Secret %v/%v")',
      p: pod({
        containers: [
          { name: 'kserve-container', state: waiting('CreateContainerConfigError', `couldn't find key AWS_SECRET_ACCESS_KEY in Secret ${NS}/s3-creds`) },
        ],
      }),
      want: {
        reason: BlockerReason.CreateContainerConfigError,
        container: 'kserve-container',
        kubelet: `couldn't find key AWS_SECRET_ACCESS_KEY in Secret ${NS}/s3-creds`,
      },
    },
    {
      reason: 'an init container (the model download) crash-loops',
      source: 'init containers are restarted with back-off like others (kuberuntime_manager.go)',
      p: pod({
        init: [
          {
            name: 'storage-initializer',
            state: waiting('CrashLoopBackOff', backOff('storage-initializer')),
            lastState: terminated('Error', 1, 'RuntimeError: Failed to fetch model. No model found in s3://models/iris.'),
          },
        ],
        containers: [{ name: 'kserve-container', state: waiting('PodInitializing') }],
      }),
      want: { reason: BlockerReason.CrashLoopBackOff, container: 'storage-initializer', kubelet: backOff('storage-initializer'), exitCode: 1 },
    },
    {
      reason: 'no node fits the pod',
      source:
        'k8s.io/api core/v1 types.go (PodReasonUnschedulable) + pkg/scheduler/framework/types.go FitError ("0/%v nodes are available") + defaultpreemption ("preemption: ")',
      p: pod({
        containers: [],
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'Unschedulable',
            message:
              '0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
          },
        ],
      }),
      want: {
        reason: BlockerReason.Unschedulable,
        container: undefined,
        kubelet: '0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
      },
    },
    {
      reason: 'a container still being created is not blocked',
      source: 'pkg/kubelet/kubelet_pods.go (waiting reason "ContainerCreating")',
      p: pod({ containers: [{ name: 'kserve-container', state: waiting('ContainerCreating') }] }),
      want: undefined,
    },
    {
      reason: 'containers waiting for init containers are not blocked',
      source: 'pkg/kubelet/kubelet_pods.go (waiting reason "PodInitializing")',
      p: pod({ init: [{ name: 'storage-initializer', state: running }], containers: [{ name: 'kserve-container', state: waiting('PodInitializing') }] }),
      want: undefined,
    },
    {
      reason: 'a container that recovered from an OOM kill runs',
      source: 'state.running with lastState.terminated OOMKilled',
      p: pod({ containers: [{ name: 'kserve-container', state: running, lastState: terminated('OOMKilled', 137) }] }),
      want: undefined,
    },
    {
      reason: 'a pod being deleted is on its way out',
      source: 'metadata.deletionTimestamp',
      p: pod({
        deletionTimestamp: '2026-11-23T10:05:00Z',
        containers: [{ name: 'kserve-container', state: waiting('CrashLoopBackOff', backOff('kserve-container')), lastState: terminated('Error', 1) }],
      }),
      want: undefined,
    },
  ];
  for (const c of cases) {
    it(c.reason, () => {
      const got = firstBlocker({ pods: [c.p] });
      if (!c.want) return expect(got).toBeUndefined();
      const where = c.want.container ? `Pod ${POD} container ${c.want.container}` : `Pod ${POD}`;
      expect(got).toEqual({
        reason: c.want.reason,
        message: `${where}: ${c.want.kubelet}`,
        source: { kind: 'Pod', name: POD, ...(c.want.container ? { container: c.want.container } : {}) },
        ...('exitCode' in c.want ? { exitCode: c.want.exitCode } : {}),
      });
    });
  }
});

describe('firstBlocker: order and edges', () => {
  const crashing = (name: string, container = 'kserve-container') =>
    pod({ name, containers: [{ name: container, state: waiting('CrashLoopBackOff', backOff(container)), lastState: terminated('Error', 1) }] });
  const pulling = (name: string) =>
    pod({ name, containers: [{ name: 'kserve-container', state: waiting('ImagePullBackOff', `Back-off pulling image "${IMAGE}"`) }] });
  const timedOut = deployment('a-timed-out', [
    { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: `ReplicaSet "${RS}" has timed out progressing.` },
  ]);

  it('nothing observed: no blocker', () => {
    expect(firstBlocker({})).toBeUndefined();
    expect(firstBlocker({ deployments: [], jobs: [], pods: [] })).toBeUndefined();
  });

  it('healthy workloads: no blocker', () => {
    const healthy = pod({ containers: [{ name: 'kserve-container', state: running }], conditions: [{ type: 'Ready', status: 'True' }] });
    expect(firstBlocker({ deployments: [deployment('ok', [])], jobs: [job('done', [{ type: 'Complete', status: 'True' }])], pods: [healthy] })).toBeUndefined();
  });

  it('a Deployment refusal comes before a failed Job, which comes before a pod', () => {
    const all = blockersOf({
      pods: [crashing('p')],
      jobs: [failedJob('j', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit')],
      deployments: [refused('z-refused', forbidden(QUOTA))],
    });
    expect(all.map((b) => `${b.source.kind}/${b.source.name}`)).toEqual(['Deployment/z-refused', 'Job/j', 'Pod/p']);
  });

  it('a pod that says why outranks the progress deadline it caused', () => {
    expect(firstBlocker({ deployments: [timedOut], pods: [pulling('p')] })?.reason).toBe(BlockerReason.ImagePullBackOff);
    expect(firstBlocker({ deployments: [timedOut], pods: [] })?.reason).toBe(BlockerReason.ProgressDeadlineExceeded);
  });

  it('objects go by name, whatever order they came in', () => {
    const got = blockersOf({ pods: [pulling('b'), crashing('a'), pulling('c')] });
    expect(got.map((b) => b.source.name)).toEqual(['a', 'b', 'c']);
    expect(firstBlocker({ deployments: [refused('y', forbidden(PSA)), refused('x', forbidden(QUOTA))] })?.source.name).toBe('x');
  });

  it('within a pod: init containers first, then containers, in the spec order (not the status order)', () => {
    const p = pod({
      statusOrder: 'reverse',
      init: [{ name: 'storage-initializer', state: waiting('ErrImagePull', PULL_ERROR) }],
      containers: [
        { name: 'z-server', state: waiting('CreateContainerConfigError', 'secret "s3-creds" not found') },
        { name: 'a-agent', state: waiting('ImagePullBackOff', `Back-off pulling image "${IMAGE}"`) },
      ],
    });
    expect(blockersOf({ pods: [p] }).map((b) => b.source.container)).toEqual(['storage-initializer', 'z-server', 'a-agent']);
  });

  it("containers without a spec keep the kubelet's status order", () => {
    const p = pod({
      containers: [
        { name: 'b', state: waiting('ErrImagePull', PULL_ERROR) },
        { name: 'a', state: waiting('ErrImagePull', PULL_ERROR) },
      ],
    });
    const specless = { ...p, spec: undefined };
    expect(blockersOf({ pods: [specless] }).map((b) => b.source.container)).toEqual(['b', 'a']);
  });

  it('an unschedulable pod is reported once, before its (absent) containers', () => {
    const p = pod({
      containers: [{ name: 'kserve-container', state: waiting('ContainerCreating') }],
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/1 nodes are available: 1 Insufficient cpu.' }],
    });
    expect(blockersOf({ pods: [p] }).map((b) => b.reason)).toEqual([BlockerReason.Unschedulable]);
  });

  it('objects of another kind in a list are ignored', () => {
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'a' },
      status: { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] },
    } as KubeObject;
    expect(firstBlocker({ pods: [secret], deployments: [secret], jobs: [secret] })).toBeUndefined();
  });

  it('never carries anything from a pod spec (Secret values in env stay out)', () => {
    const everything = blockersOf({ pods: [crashing('p'), pulling('q')], deployments: [refused('d', forbidden(QUOTA))] });
    expect(everything.length).toBe(3);
    expect(JSON.stringify(everything)).not.toContain('wJalrXUtnFEMI');
    expect(JSON.stringify(everything)).not.toContain('AWS_SECRET_ACCESS_KEY');
  });

  it('does not mutate what it reads', () => {
    const input = { pods: [crashing('p', 'b'), crashing('o', 'a')], deployments: [timedOut] };
    const before = structuredClone(input);
    deepFreeze(input);
    blockersOf(input);
    expect(input).toEqual(before);
  });

  it('tolerates partial objects: no status, no conditions, odd fields', () => {
    const bare = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bare' } } as KubeObject;
    const odd = { ...bare, status: { conditions: 'x', containerStatuses: [null, 3, { name: 'c', state: { waiting: 'x' } }] } } as KubeObject;
    const dep = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } } as KubeObject;
    expect(firstBlocker({ pods: [bare, odd], deployments: [dep], jobs: [{ ...dep, kind: 'Job' }] })).toBeUndefined();
  });
});

describe('refusalReason', () => {
  const cases = [
    { reason: 'quota exhausted', message: forbidden(QUOTA), want: BlockerReason.QuotaExceeded },
    { reason: 'quota needs limits', message: forbidden(QUOTA_NEEDS), want: BlockerReason.QuotaRequiresResources },
    {
      reason: 'quota needs requests',
      message: forbidden('failed quota: q1: must specify requests.memory for: app'),
      want: BlockerReason.QuotaRequiresResources,
    },
    { reason: 'LimitRange minimum', message: forbidden('minimum cpu usage per Pod is 100m, but request is 50m'), want: BlockerReason.LimitRangeViolation },
    {
      reason: 'LimitRange maximum without a limit',
      message: forbidden('maximum memory usage per Container is 1Gi.  No limit is specified'),
      want: BlockerReason.LimitRangeViolation,
    },
    { reason: 'LimitRange ratio', message: forbidden(LIMIT_RANGE_MANY), want: BlockerReason.LimitRangeViolation },
    { reason: 'Pod Security', message: forbidden(PSA), want: BlockerReason.PodSecurityViolation },
    { reason: 'quota status unknown is not exceeded', message: forbidden('status unknown for quota: q1, resources: limits.cpu'), want: undefined },
    { reason: 'a webhook', message: 'admission webhook "x.example.com" denied the request: no', want: undefined },
  ];
  for (const c of cases) it(c.reason, () => expect(refusalReason(c.message)).toBe(c.want));
});

describe('failureInfoFrom', () => {
  it("puts a pod blocker in lastFailureInfo's shape: location is the pod, the exit code kept", () => {
    const b = firstBlocker({
      pods: [
        pod({
          containers: [{ name: 'kserve-container', state: waiting('CrashLoopBackOff', backOff('kserve-container')), lastState: terminated('OOMKilled', 137) }],
        }),
      ],
    })!;
    expect(failureInfoFrom(b)).toEqual({ location: POD, reason: 'OOMKilled', message: b.message, exitCode: 137 });
  });
  it('a Deployment blocker has no exit code', () => {
    const b = firstBlocker({ deployments: [refused('iris-predictor', forbidden(QUOTA))] })!;
    expect(failureInfoFrom(b)).toEqual({ location: 'iris-predictor', reason: 'QuotaExceeded', message: b.message });
  });
});

describe('podsRuleFor', () => {
  it("asks for the pods by the selector labels in the parent's namespace", () => {
    const labels = { app: 'isvc.iris-predictor' };
    const rule = podsRuleFor(NS, labels);
    expect(rule).toEqual({ apiVersion: 'v1', resource: 'pods', namespace: NS, labelSelector: { matchLabels: { app: 'isvc.iris-predictor' } } });
    labels.app = 'changed';
    expect(rule.labelSelector?.matchLabels?.app).toBe('isvc.iris-predictor');
  });
  it('refuses a missing namespace (Metacontroller would read every namespace)', () => {
    expect(() => podsRuleFor('', { app: 'x' })).toThrow(HookContractError);
    expect(() => podsRuleFor(undefined, { app: 'x' })).toThrow(/namespace is required/);
  });
  it('refuses empty selector labels (every pod of the namespace)', () => {
    expect(() => podsRuleFor(NS, {})).toThrow(/selector labels are required/);
  });
});

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

describe('docs/guarantees.md', () => {
  it('documents exactly the blocker reasons the kit reports', () => {
    const readme = readFileSync(new URL('../../docs/guarantees.md', import.meta.url), 'utf8');
    const section = /## Why pods don't run: the blocker reasons\n([\s\S]*?)(?:\n#|$)/.exec(readme)?.[1] ?? '';
    const rows = section.split('\n').filter((l) => l.startsWith('| `'));
    const documented = rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`(\w+)`/g)].map((m) => m[1]));
    expect([...documented].sort()).toEqual(Object.values(BlockerReason).sort());
  });
});
