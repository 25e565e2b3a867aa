import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { shortHash, type KubeObject } from '../../hooks/kit/index.js';
import { mlmodel } from '../../hooks/mlmodel/index.js';
import { modelHash } from '../../hooks/mlmodel/names.js';
import { runSync, type SyncResult } from '../../hooks/testing/index.js';
import { appliedOptions } from '../support/golden.js';
import { expectValid } from '../support/validate.js';

// Walks every phase of the MLModel lifecycle (the phase table of docs/mlmodel.md) through observed children
// and the previous status, checking children and status at each step.
const config = defaultHookConfig();
const URL_A = 'https://models.example.com/resnet/v1.tar.gz';
const URL_B = 'https://models.example.com/resnet/v2.zip';
const A = modelHash(URL_A);
const B = modelHash(URL_B);
const URL_C = 'https://models.example.com/resnet/v3.tgz';
const C = modelHash(URL_C);
const T0 = '2025-12-31T00:00:00Z';

function parent(opts: { url?: string; status?: Record<string, unknown>; expose?: boolean; downloadImage?: string } = {}): KubeObject {
  return {
    apiVersion: 'oda.tmforum.org.oda.tmforum.org/v1beta1',
    kind: 'MLModel',
    metadata: { name: 'resnet', namespace: 'ml', generation: 1 },
    spec: {
      modelURL: opts.url ?? URL_A,
      storageSize: '5Gi',
      framework: 'tensorflow',
      replicas: 1,
      expose: opts.expose ?? true,
      ...(opts.downloadImage ? { downloadImage: opts.downloadImage } : {}),
    },
    ...(opts.status ? { status: opts.status } : {}),
  } as KubeObject;
}

const meta = (kind: string, name: string, extra: Record<string, unknown> = {}) => ({ metadata: { name, namespace: 'ml', generation: 1 }, kind, ...extra });
const pvc = (phase: 'Pending' | 'Bound') => ({ apiVersion: 'v1', ...meta('PersistentVolumeClaim', 'resnet-pvc'), status: { phase } }) as KubeObject;
const job = (hash: string, state: 'active' | 'succeeded' | 'failed') => {
  const status =
    state === 'active'
      ? { active: 1, startTime: T0 }
      : state === 'succeeded'
        ? { succeeded: 1, completionTime: T0, conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: T0 }] }
        : {
            failed: 4,
            conditions: [
              {
                type: 'Failed',
                status: 'True',
                reason: 'BackoffLimitExceeded',
                message: 'Job has reached the specified backoff limit',
                lastTransitionTime: T0,
              },
            ],
          };
  return { apiVersion: 'batch/v1', ...meta('Job', `resnet-download-${hash}`), status } as KubeObject;
};
const deployment = (hash: string, state: 'progressing' | 'available' | 'failed') =>
  ({
    apiVersion: 'apps/v1',
    ...meta('Deployment', 'resnet-server', {
      spec: {
        replicas: 1,
        template: { spec: { containers: [{ name: 'tensorflow-serving', args: [`--model_name=resnet`, `--model_base_path=/models/${hash}`] }] } },
      },
    }),
    status:
      state === 'available'
        ? {
            observedGeneration: 1,
            replicas: 1,
            updatedReplicas: 1,
            readyReplicas: 1,
            availableReplicas: 1,
            conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' }],
          }
        : state === 'failed'
          ? {
              observedGeneration: 1,
              replicas: 1,
              updatedReplicas: 1,
              unavailableReplicas: 1,
              conditions: [
                {
                  type: 'Progressing',
                  status: 'False',
                  reason: 'ProgressDeadlineExceeded',
                  message: 'ReplicaSet "resnet-server-6f" has timed out progressing.',
                },
              ],
            }
          : {
              observedGeneration: 1,
              replicas: 1,
              updatedReplicas: 1,
              unavailableReplicas: 1,
              conditions: [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated' }],
            },
  }) as KubeObject;

const service = () => ({ apiVersion: 'v1', ...meta('Service', 'resnet-service', { spec: { type: 'ClusterIP', clusterIP: '10.0.0.7' } }) }) as KubeObject;
/** A server whose arguments were changed by hand: what it serves cannot be read. */
const handEdited = () => {
  const ours = runSync(mlmodel, { parent: parent({ status: { downloadedHash: A } }), config }).child<any>('Deployment', 'resnet-server')!;
  const d = structuredClone(ours);
  d.spec.template.spec.containers[0].args = ['--model_config_file=/models/config.pbtxt'];
  return { ...d, status: deployment(A, 'available').status } as KubeObject;
};

interface Step {
  reason: string;
  url?: string;
  expose?: boolean;
  downloadImage?: string;
  previous?: Record<string, unknown>;
  observed: KubeObject[];
  phase: string;
  children: string[];
  /** The model path the Deployment serves, when there is one. */
  serves?: string;
  status?: Record<string, unknown>;
  conditions?: Record<string, string>;
}

const all = (hash: string) => ['Deployment/resnet-server', `Job/resnet-download-${hash}`, 'PersistentVolumeClaim/resnet-pvc', 'Service/resnet-service'];
const endpoint = 'resnet-service.ml.svc.cluster.local:8501';

const steps: Step[] = [
  {
    reason: 'first sync: the claim and the Job are created together (a WaitForFirstConsumer claim binds only once the Job uses it)',
    observed: [],
    phase: 'Pending',
    children: [`Job/resnet-download-${A}`, 'PersistentVolumeClaim/resnet-pvc'],
    conditions: { Ready: 'Unknown', StorageReady: 'Unknown', ModelDownloaded: 'Unknown', DeploymentReady: 'Unknown' },
  },
  {
    reason: 'claim observed but pending: CreatingStorage',
    observed: [pvc('Pending')],
    phase: 'CreatingStorage',
    children: [`Job/resnet-download-${A}`, 'PersistentVolumeClaim/resnet-pvc'],
    status: { message: 'PersistentVolumeClaim resnet-pvc is waiting to be bound' },
  },
  {
    reason: 'claim bound, Job active: Downloading',
    observed: [pvc('Bound'), job(A, 'active')],
    phase: 'Downloading',
    children: [`Job/resnet-download-${A}`, 'PersistentVolumeClaim/resnet-pvc'],
    conditions: { StorageReady: 'True', ModelDownloaded: 'Unknown' },
  },
  {
    reason: 'Job failed: Failed with the Job’s reason; the failed Job is kept so its status stays visible',
    observed: [pvc('Bound'), job(A, 'failed')],
    phase: 'Failed',
    children: [`Job/resnet-download-${A}`, 'PersistentVolumeClaim/resnet-pvc'],
    status: { message: `Job resnet-download-${A} failed: BackoffLimitExceeded`, failedHash: A, failedJob: `resnet-download-${A}` },
    conditions: { Ready: 'False', ModelDownloaded: 'False' },
  },
  {
    reason: 'failed Job removed: still Failed, no new Job (no hot loop) until modelURL changes',
    previous: { phase: 'Failed', message: `Job resnet-download-${A} failed: BackoffLimitExceeded`, failedHash: A, failedJob: `resnet-download-${A}` },
    observed: [pvc('Bound')],
    phase: 'Failed',
    children: ['PersistentVolumeClaim/resnet-pvc'],
    status: { message: `Job resnet-download-${A} failed: BackoffLimitExceeded`, failedHash: A, failedJob: `resnet-download-${A}` },
  },
  {
    reason: 'after a failure, another downloadImage is another Job: it runs, the failed one is dropped (a Job cannot be changed)',
    downloadImage: 'registry.example.com/tools/fetch:2',
    previous: { phase: 'Failed', message: `Job resnet-download-${A} failed: BackoffLimitExceeded`, failedHash: A, failedJob: `resnet-download-${A}` },
    observed: [pvc('Bound'), job(A, 'failed')],
    phase: 'Downloading',
    children: [`Job/resnet-download-${A}-${shortHash('registry.example.com/tools/fetch:2', 4)}`, 'PersistentVolumeClaim/resnet-pvc'],
    conditions: { ModelDownloaded: 'Unknown' },
  },
  {
    reason: 'Job succeeded: Serving; the hash is remembered, the Deployment and the Service appear',
    observed: [pvc('Bound'), job(A, 'succeeded')],
    phase: 'Serving',
    children: all(A),
    serves: `/models/${A}`,
    status: { downloadedHash: A, serviceEndpoint: endpoint },
    conditions: { ModelDownloaded: 'True', DeploymentReady: 'Unknown' },
  },
  {
    reason: 'Deployment progressing: still Serving',
    previous: { downloadedHash: A },
    observed: [pvc('Bound'), job(A, 'succeeded'), deployment(A, 'progressing')],
    phase: 'Serving',
    children: all(A),
    serves: `/models/${A}`,
  },
  {
    reason: 'Deployment available: Ready',
    previous: { downloadedHash: A },
    observed: [pvc('Bound'), job(A, 'succeeded'), deployment(A, 'available')],
    phase: 'Ready',
    children: all(A),
    serves: `/models/${A}`,
    conditions: { Ready: 'True', StorageReady: 'True', ModelDownloaded: 'True', DeploymentReady: 'True' },
  },
  {
    reason: 'Job gone after success: nothing is downloaded again',
    previous: { downloadedHash: A },
    observed: [pvc('Bound'), deployment(A, 'available')],
    phase: 'Ready',
    children: ['Deployment/resnet-server', 'PersistentVolumeClaim/resnet-pvc', 'Service/resnet-service'],
    serves: `/models/${A}`,
  },
  {
    reason: 'modelURL changed mid-serving: a Job for the new hash, the old model keeps serving',
    url: URL_B,
    previous: { downloadedHash: A },
    observed: [pvc('Bound'), job(A, 'succeeded'), deployment(A, 'available')],
    phase: 'Downloading',
    children: all(B),
    serves: `/models/${A}`,
    status: { downloadedHash: A, serviceEndpoint: endpoint },
    conditions: { Ready: 'Unknown', ModelDownloaded: 'Unknown', DeploymentReady: 'True' },
  },
  {
    reason: 'the new download succeeded: the Deployment rolls to the new path, the old Job is dropped',
    url: URL_B,
    previous: { downloadedHash: A },
    observed: [pvc('Bound'), job(A, 'succeeded'), job(B, 'succeeded'), deployment(A, 'available')],
    phase: 'Serving',
    children: all(B),
    serves: `/models/${B}`,
    status: { downloadedHash: B },
    conditions: { DeploymentReady: 'Unknown' },
  },
  {
    reason: 'rolled to the new model and available: Ready again',
    url: URL_B,
    previous: { downloadedHash: B },
    observed: [pvc('Bound'), job(B, 'succeeded'), deployment(B, 'available')],
    phase: 'Ready',
    children: all(B),
    serves: `/models/${B}`,
  },
  {
    reason: 'the new download failed: Failed, but the old model keeps serving',
    url: URL_B,
    previous: { downloadedHash: A },
    observed: [pvc('Bound'), job(B, 'failed'), deployment(A, 'available')],
    phase: 'Failed',
    children: all(B),
    serves: `/models/${A}`,
    status: { downloadedHash: A, failedHash: B },
  },
  {
    reason:
      'the status write after the roll to B was lost and Job B removed: the Deployment serves B, so B counts as downloaded (no rollback, no second download)',
    url: URL_B,
    previous: { downloadedHash: A },
    observed: [pvc('Bound'), deployment(B, 'available')],
    phase: 'Ready',
    children: ['Deployment/resnet-server', 'PersistentVolumeClaim/resnet-pvc', 'Service/resnet-service'],
    serves: `/models/${B}`,
    status: { downloadedHash: B },
  },
  // Status lost (a restored backup, a status write that failed) and the Job gone: what is served
  // is read from the observed Deployment, which is never dropped for want of a status.
  {
    reason: 'status lost, Job gone, same URL: the Deployment serves A, so nothing is downloaded again and it stays Ready',
    observed: [pvc('Bound'), deployment(A, 'available'), service()],
    phase: 'Ready',
    children: ['Deployment/resnet-server', 'PersistentVolumeClaim/resnet-pvc', 'Service/resnet-service'],
    serves: `/models/${A}`,
    status: { downloadedHash: A, serviceEndpoint: endpoint },
    conditions: { Ready: 'True', ModelDownloaded: 'True', DeploymentReady: 'True' },
  },
  {
    reason: 'status lost, Job gone, URL changed: A keeps serving (Deployment and Service kept) while B downloads',
    url: URL_B,
    observed: [pvc('Bound'), deployment(A, 'available'), service()],
    phase: 'Downloading',
    children: all(B),
    serves: `/models/${A}`,
    status: { downloadedHash: A, serviceEndpoint: endpoint },
  },
  {
    reason: 'the status remembers an older model than the Deployment serves (a lost write): the served one is kept, no rollback',
    url: URL_C,
    previous: { downloadedHash: A },
    observed: [pvc('Bound'), deployment(B, 'available'), service()],
    phase: 'Downloading',
    children: all(C),
    serves: `/models/${B}`,
    status: { downloadedHash: B },
  },
  {
    reason: 'status lost and the served model cannot be read (arguments edited by hand): the Deployment is kept as it is, with its Service',
    observed: [pvc('Bound'), handEdited(), service()],
    phase: 'Downloading',
    children: all(A),
    status: { serviceEndpoint: endpoint },
  },
  {
    reason: 'the server cannot start the downloaded model (deadline exceeded): Failed with the Deployment’s message, not Serving',
    previous: { downloadedHash: A },
    observed: [pvc('Bound'), deployment(A, 'failed')],
    phase: 'Failed',
    children: ['Deployment/resnet-server', 'PersistentVolumeClaim/resnet-pvc', 'Service/resnet-service'],
    serves: `/models/${A}`,
    status: { message: 'Deployment resnet-server: ReplicaSet "resnet-server-6f" has timed out progressing.', downloadedHash: A },
    conditions: { Ready: 'False', DeploymentReady: 'False', ModelDownloaded: 'True' },
  },
  {
    reason: 'expose: false creates no Service and reports no endpoint',
    expose: false,
    previous: { downloadedHash: A },
    observed: [pvc('Bound'), deployment(A, 'available')],
    phase: 'Ready',
    children: ['Deployment/resnet-server', 'PersistentVolumeClaim/resnet-pvc'],
    serves: `/models/${A}`,
  },
];

function run(step: Step): { out: SyncResult; options: Parameters<typeof runSync>[1] } {
  const options = {
    parent: parent({ url: step.url, expose: step.expose, downloadImage: step.downloadImage, status: step.previous }),
    observed: step.observed,
    config,
  };
  return { out: runSync(mlmodel, options), options };
}

describe('MLModel lifecycle', () => {
  it.each(steps)('$reason → $phase', (step) => {
    const { out, options } = run(step);
    expect(out.status.phase).toBe(step.phase);
    expect(out.children.map((c) => `${c.kind}/${c.metadata.name}`)).toEqual(step.children);
    const d = out.child<any>('Deployment', 'resnet-server');
    expect(d?.spec.template.spec.containers[0].args.find((a: string) => a.startsWith('--model_base_path='))).toBe(
      step.serves && `--model_base_path=${step.serves}`,
    );
    if (step.status) expect(out.status).toMatchObject(step.status);
    for (const [type, status] of Object.entries(step.conditions ?? {})) expect(out.condition(type)?.status, type).toBe(status);
    if (step.expose === false) expect(out.status.serviceEndpoint).toBeUndefined();
    for (const child of out.children) expectValid(child);
    // Applying the answer (statuses unchanged) changes nothing.
    expect(runSync(mlmodel, appliedOptions(options, out)).children).toEqual(out.children);
  });

  it('keeps the served model on the new download Job, so it is not removed from the claim', () => {
    const { out } = run(steps.find((s) => s.reason.startsWith('modelURL changed'))!);
    const env = out.child<any>('Job', `resnet-download-${B}`)!.spec.template.spec.containers[0].env;
    expect(env).toEqual([
      { name: 'MODEL_URL', value: URL_B },
      { name: 'MODEL_DIR', value: `/mnt/model/${B}` },
      { name: 'KEEP_HASH', value: A },
    ]);
  });

  it('keeps the served model of a Deployment found without a status on the new download Job', () => {
    const { out } = run(steps.find((s) => s.reason.startsWith('status lost, Job gone, URL changed'))!);
    const env = out.child<any>('Job', `resnet-download-${B}`)!.spec.template.spec.containers[0].env;
    expect(env).toContainEqual({ name: 'KEEP_HASH', value: A });
  });

  it('keeps a hand-edited server exactly as observed (minus server-owned fields)', () => {
    const { out } = run(steps.find((s) => s.reason.includes('arguments edited by hand'))!);
    const kept = out.child<any>('Deployment', 'resnet-server');
    expect(kept?.spec).toEqual(handEdited().spec);
    expect(kept?.status).toBeUndefined();
  });

  it('carries lastTransitionTime over while a condition keeps its status', () => {
    const first = run(steps[2]!).out;
    const previous = { ...first.status, conditions: (first.status.conditions as any[]).map((c) => ({ ...c, lastTransitionTime: T0 })) };
    const again = runSync(mlmodel, { parent: parent({ status: previous }), observed: [pvc('Bound'), job(A, 'active')], config, now: '2026-02-02T00:00:00Z' });
    expect(again.condition('StorageReady')?.lastTransitionTime).toBe(T0);
  });

  it('ignores a malformed previous status instead of trusting it', () => {
    const out = runSync(mlmodel, {
      parent: parent({ status: { downloadedHash: '../../etc', failedHash: 42, conditions: 'nope' } }),
      observed: [pvc('Bound')],
      config,
    });
    expect(out.status.phase).toBe('Downloading');
    expect(out.childrenOf('Deployment')).toEqual([]);
  });
});
