/**
 * Why pods don't run, per composition: the parent's status carries the first blocker of its
 * workloads, from objects shaped as Kubernetes v1.35's controllers and kubelet write them.
 * The shapes and the file each reason string comes from are those of test/kit/blockers.test.ts
 * (paths in github.com/kubernetes/kubernetes).
 */
import { describe, expect, it } from 'vitest';
import { inferenceservice } from '../hooks/inferenceservice/index.js';
import { podsRuleFor, type AnyComposition, type KubeObject, type RelatedRule } from '../hooks/kit/index.js';
import { ruleSelects } from './support/metacontroller-select.js';
import { mlmodel } from '../hooks/mlmodel/index.js';
import { runCustomize, runSync } from '../hooks/testing/index.js';
import { tfserv } from '../hooks/tfserv/index.js';
import { trustyai } from '../hooks/trustyai/index.js';
import { goldenCases } from './support/golden.js';

type Cond = { type: string; status: string; reason?: string; message?: string };
const stamp = (c: Cond) => ({ lastTransitionTime: '2026-11-23T10:00:00Z', lastUpdateTime: '2026-11-23T10:00:00Z', ...c });
const waiting = (reason: string, message?: string) => ({ waiting: { reason, ...(message ? { message } : {}) } });
const terminated = (reason: string, exitCode: number) => ({
  terminated: { reason, exitCode, startedAt: '2026-11-23T10:01:00Z', finishedAt: '2026-11-23T10:01:05Z', containerID: 'containerd://0f1e' },
});
// pkg/kubelet/kuberuntime/kuberuntime_manager.go doBackOff: "back-off %s restarting failed container=%s pod=%s".
const backOff = (container: string, pod: string) => `back-off 40s restarting failed container=${container} pod=${pod}`;
const PULL_ERROR = 'failed to pull and unpack image "docker.io/library/nope:1": failed to resolve reference "docker.io/library/nope:1": not found';

/** A pod the ReplicaSet or Job controller created: the template's labels, the kubelet's statuses. */
function pod(name: string, namespace: string, labels: Record<string, string>, container: string, state: object, lastState: object = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels, creationTimestamp: '2026-11-23T10:00:00Z' },
    spec: { containers: [{ name: container, image: 'docker.io/library/nope:1' }] },
    status: {
      phase: 'Pending',
      conditions: [
        stamp({ type: 'PodScheduled', status: 'True' }),
        stamp({ type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: `containers with unready status: [${container}]` }),
      ],
      containerStatuses: [{ name: container, image: 'docker.io/library/nope:1', imageID: '', ready: false, restartCount: 3, started: false, state, lastState }],
    },
  };
}

// pkg/controller/deployment/sync.go + progress.go: a Deployment rolling out whose pods are not available.
const rolling = (gen: number, conditions: Cond[] = []) => ({
  observedGeneration: gen,
  replicas: 1,
  updatedReplicas: 1,
  unavailableReplicas: 1,
  conditions: [
    { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' },
    { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: 'ReplicaSet "x-7d9f" is progressing.' },
    ...conditions,
  ].map(stamp),
});

const subjects: Array<{ composition: AnyComposition; fixture: string; condition?: string }> = [
  { composition: trustyai, fixture: 'pvc-ready', condition: 'DeploymentReady' },
  { composition: tfserv, fixture: 'ready', condition: 'DeploymentReady' },
  { composition: mlmodel, fixture: 'ready', condition: 'DeploymentReady' },
  // PredictorReady stays as KServe judges it: only Ready carries the blocker.
  { composition: inferenceservice, fixture: 'ingress-ready' },
];

for (const s of subjects) {
  const base = goldenCases(s.composition.name).find((c) => c.name === s.fixture)?.options;
  if (!base) throw new Error(`${s.composition.name}/${s.fixture}: no such golden case`);
  const parent = base.parent as KubeObject;
  const ns = parent.metadata.namespace as string;
  const observedDeployment = (base.observed ?? []).find((o) => o.kind === 'Deployment') as KubeObject & {
    spec: { selector: { matchLabels: Record<string, string> }; template: { metadata: { labels: Record<string, string> } } };
  };
  const name = observedDeployment.metadata.name;
  const podLabels = observedDeployment.spec.template.metadata.labels;
  const podName = `${name}-7d9f-x7k2p`;
  const gen = observedDeployment.metadata.generation ?? 1;
  const withStatus = (status: object) => (base.observed ?? []).map((o) => (o === observedDeployment ? { ...o, status } : o));
  const sync = (status: object, pods: KubeObject[]) =>
    runSync(s.composition, { ...base, observed: withStatus(status), related: [...(base.related ?? []), ...pods] });
  const expectBlocked = (out: ReturnType<typeof sync>, reason: string, message: string) => {
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason });
    expect(out.condition('Ready')?.message).toContain(message);
    if (s.condition) expect(out.condition(s.condition)).toMatchObject({ status: 'False', reason });
  };

  describe(`${s.composition.name}: why pods don't run`, () => {
    it("customize asks for the Deployment's pods, by its selector labels, in the parent's namespace", () => {
      // TrustyAI asks without the version label, which an adopted operator release's selector may set differently.
      const { 'app.kubernetes.io/version': _version, ...stable } = observedDeployment.spec.selector.matchLabels;
      const wanted = s.composition.name === 'trustyai' ? stable : observedDeployment.spec.selector.matchLabels;
      const rules = runCustomize(s.composition, base);
      if (s.composition.name !== 'inferenceservice') expect(rules).toContainEqual(podsRuleFor(ns, wanted));
      // The InferenceService asks with one rule for all its workloads' pods (a value per workload, `In`).
      const pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', namespace: ns, labels: observedDeployment.spec.template?.metadata?.labels ?? wanted },
      };
      const podRules = rules.filter((r) => r.resource === 'pods');
      if (s.composition.name === 'inferenceservice') expect(podRules).toHaveLength(1);
      expect(podRules.some((r) => r.namespace === ns && ruleSelects(r, pod as KubeObject))).toBe(true);
      // A pod of another workload (another parent's) is not asked for.
      expect(ruleSelects(podRules[0] as RelatedRule, { ...pod, metadata: { ...pod.metadata, labels: { app: 'other' } } } as KubeObject)).toBe(false);
    });
    it('customize asks for no pods once the parent is Ready on its generation (kit isConverged; MLModel excepted)', () => {
      const parent = base.parent as KubeObject;
      const converged = {
        ...parent,
        metadata: { ...parent.metadata, generation: 3 },
        status: { observedGeneration: 3, conditions: [{ type: 'Ready', status: 'True' }] },
      };
      const podRules = (p: KubeObject) => runCustomize(s.composition, { ...base, parent: p }).filter((r) => r.resource === 'pods');
      // MLModel's download pods tell its lifecycle too: asked for whatever its readiness.
      if (s.composition.name !== 'mlmodel') expect(podRules(converged as KubeObject)).toEqual([]);
      // Ready on an older generation, or not Ready: asked.
      expect(podRules({ ...converged, status: { ...converged.status, observedGeneration: 2 } } as KubeObject)).not.toEqual([]);
      expect(podRules({ ...converged, status: { observedGeneration: 3, conditions: [{ type: 'Ready', status: 'False' }] } } as KubeObject)).not.toEqual([]);
    });
    const podCases: Array<{ reason: string; state: object; lastState?: object; kubelet: string; source: string }> = [
      { reason: 'ErrImagePull', state: waiting('ErrImagePull', PULL_ERROR), kubelet: PULL_ERROR, source: 'pkg/kubelet/images/types.go ErrImagePull' },
      {
        reason: 'ImagePullBackOff',
        state: waiting('ImagePullBackOff', 'Back-off pulling image "docker.io/library/nope:1": ErrImagePull: not found'),
        kubelet: 'Back-off pulling image "docker.io/library/nope:1"',
        source: 'pkg/kubelet/images/types.go ErrImagePullBackOff',
      },
      {
        reason: 'CrashLoopBackOff',
        state: waiting('CrashLoopBackOff', backOff('server', podName)),
        lastState: terminated('Error', 1),
        kubelet: backOff('server', podName),
        source: 'pkg/kubelet/container/sync_result.go',
      },
      {
        reason: 'OOMKilled',
        state: waiting('CrashLoopBackOff', backOff('server', podName)),
        lastState: terminated('OOMKilled', 137),
        kubelet: 'OOMKilled (exit code 137)',
        source: 'CRI terminated reason',
      },
      {
        reason: 'CreateContainerConfigError',
        state: waiting('CreateContainerConfigError', `secret "db-creds" not found`),
        kubelet: 'secret "db-creds" not found',
        source: 'pkg/kubelet/kuberuntime/kuberuntime_container.go ErrCreateContainerConfig',
      },
    ];
    for (const c of podCases) {
      it(`a pod's container ${c.reason} (${c.source}): Ready=False/${c.reason} naming the pod and container, with the kubelet's message`, () => {
        const out = sync(rolling(gen), [pod(podName, ns, podLabels, 'server', c.state, c.lastState)]);
        expectBlocked(out, c.reason, `Pod ${podName} container server: ${c.kubelet}`);
      });
    }
    it('a ResourceQuota refusal (ReplicaFailure FailedCreate, pkg/controller/replicaset/replica_set_utils.go): QuotaExceeded with the API server message', () => {
      const quota = `pods "${name}-7d9f-abcde" is forbidden: exceeded quota: compute, requested: limits.memory=4Gi, used: limits.memory=6Gi, limited: limits.memory=8Gi`;
      const out = sync(rolling(gen, [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: quota }]), []);
      expectBlocked(out, 'QuotaExceeded', `Deployment ${name}: ${quota}`);
    });
    it('a Pod Security refusal: PodSecurityViolation', () => {
      const psa = `pods "${name}-7d9f-abcde" is forbidden: violates PodSecurity "restricted:latest": runAsNonRoot != true (pod or container "server" must set securityContext.runAsNonRoot=true)`;
      const out = sync(rolling(gen, [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: psa }]), []);
      expectBlocked(out, 'PodSecurityViolation', psa);
    });
    it('a rollout past its deadline with no pod saying why (pkg/controller/deployment/util/deployment_util.go): ProgressDeadlineExceeded', () => {
      const status = {
        ...rolling(gen),
        conditions: [
          stamp({ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: `ReplicaSet "${name}-7d9f" has timed out progressing.` }),
        ],
      };
      expectBlocked(sync(status, []), 'ProgressDeadlineExceeded', `Deployment ${name}: ReplicaSet "${name}-7d9f" has timed out progressing.`);
    });
    it('a crashing pod of another workload (other labels) or of another namespace says nothing about this one', () => {
      const other = pod(podName, ns, { app: 'someone-else' }, 'server', waiting('CrashLoopBackOff', backOff('server', podName)), terminated('Error', 1));
      const elsewhere = pod(podName, 'other-team', podLabels, 'server', waiting('CrashLoopBackOff', backOff('server', podName)), terminated('Error', 1));
      const out = sync(rolling(gen), [other, elsewhere]);
      expect(out.condition('Ready')?.reason).not.toBe('CrashLoopBackOff');
    });
    it('a ready workload stays ready even if an old pod crashes', () => {
      const ready = base.observed?.find((o) => o.kind === 'Deployment')?.status;
      const out = sync(ready as object, [
        pod(podName, ns, podLabels, 'server', waiting('CrashLoopBackOff', backOff('server', podName)), terminated('Error', 1)),
      ]);
      expect(out.condition('Ready')?.reason).not.toBe('CrashLoopBackOff');
      if (s.condition) expect(out.condition(s.condition)?.status).toBe('True');
    });
  });
}

describe("MLModel: the download Job's pod", () => {
  const base = goldenCases('mlmodel').find((c) => c.name === 'downloading')?.options;
  if (!base) throw new Error('mlmodel/downloading: no such golden case');
  const job = (base.observed ?? []).find((o) => o.kind === 'Job') as KubeObject & { spec: { template: { metadata: { labels: Record<string, string> } } } };
  const ns = (base.parent as KubeObject).metadata.namespace as string;
  const labels = { ...job.spec.template.metadata.labels, 'batch.kubernetes.io/job-name': job.metadata.name, 'job-name': job.metadata.name };
  it('customize asks for the pods of the current download', () => {
    expect(runCustomize(mlmodel, base)).toContainEqual(
      podsRuleFor(ns, {
        ...Object.fromEntries(
          Object.entries(job.spec.template.metadata.labels).filter(
            ([k]) => k !== 'app.kubernetes.io/name' && k !== 'app.kubernetes.io/part-of' && k !== 'app.kubernetes.io/managed-by',
          ),
        ),
      }),
    );
  });
  it('a downloader image that cannot be pulled: ModelDownloaded and Ready False/ErrImagePull, still Downloading', () => {
    const p = pod(`${job.metadata.name}-q8x2z`, ns, labels, 'download', waiting('ErrImagePull', PULL_ERROR));
    const out = runSync(mlmodel, { ...base, related: [...(base.related ?? []), p] });
    expect(out.condition('ModelDownloaded')).toMatchObject({ status: 'False', reason: 'ErrImagePull' });
    expect(out.condition('Ready')?.message).toContain(`container download: ${PULL_ERROR}`);
    expect(out.status.phase).toBe('Downloading');
  });
});
