import {
  blockedReadiness,
  condition,
  deploymentReadiness,
  deploymentWorkloadReadiness,
  fromReadiness,
  isRecord,
  jobState,
  pvcReadiness,
  refusedCondition,
  type Cond,
  type Refusal,
  type KubeObject,
} from '../kit/index.js';
import { SERVER_MOUNT } from './names.js';

export type Phase = 'Pending' | 'CreatingStorage' | 'Downloading' | 'Serving' | 'Ready' | 'Failed';
export const PHASES: readonly Phase[] = ['Pending', 'CreatingStorage', 'Downloading', 'Serving', 'Ready', 'Failed'];

export const STORAGE_READY = 'StorageReady';
export const MODEL_DOWNLOADED = 'ModelDownloaded';
export const DEPLOYMENT_READY = 'DeploymentReady';

/** What the previous status remembers; anything malformed in it is ignored. */
export interface Remembered {
  downloadedHash?: string;
  failedHash?: string;
  /** The Job that failed: a failure is remembered for that Job, so another one (another URL or downloader) runs. */
  failedJob?: string;
  phase?: string;
  message?: string;
}

/** Everything the lifecycle looks at: the current URL's hash, the observed children, the previous status. */
export interface Observation {
  hash: string;
  modelURL: string;
  jobName: string;
  pvcName: string;
  pvc: KubeObject | undefined;
  job: KubeObject | undefined;
  deployment: KubeObject | undefined;
  previous: Remembered;
  /** The related pods of the download Job and of the server: why they do not run. */
  jobPods?: readonly KubeObject[];
  serverPods?: readonly KubeObject[];
}

export interface Decision {
  phase: Phase;
  message: string;
  /** The hash the model server serves; undefined while nothing was ever downloaded (no Deployment). */
  servingHash: string | undefined;
  /**
   * An observed Deployment whose model cannot be read (its arguments were changed by hand):
   * kept exactly as last applied, with its Service, until a download gives it a model again.
   * Answering without it would make Metacontroller delete a server that is serving.
   */
  keepServer: boolean;
  downloadedHash: string | undefined;
  failedHash: string | undefined;
  failedJob: string | undefined;
  /** Whether the current URL's Job is wanted (running, kept after success or failure, or to be created). */
  runJob: boolean;
  conditions: { storage: Cond; download: Cond; deployment: Cond };
}

const HASH = /^[0-9a-f]{8}$/;

export function rememberedFrom(status: Record<string, unknown>): Remembered {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const hash = (v: unknown) => (typeof v === 'string' && HASH.test(v) ? v : undefined);
  return {
    downloadedHash: hash(status.downloadedHash),
    failedHash: hash(status.failedHash),
    failedJob: str(status.failedJob),
    phase: str(status.phase),
    message: str(status.message),
  };
}

/**
 * The lifecycle as a pure function. A download counts once its Job succeeded or the
 * status remembers it (so a Job removed after success is never run again); a failure is
 * remembered the same way, so nothing is retried until the URL changes.
 */
export function decide(observed: Observation): Decision {
  const job = jobState(observed.job);
  // The Deployment is only ever pointed at a downloaded model: what it serves counts as
  // downloaded even when the status write that recorded it was lost.
  const served = servedHashOf(observed.deployment);
  const downloaded = job.state === 'Succeeded' || observed.previous.downloadedHash === observed.hash || served === observed.hash;
  const failed = !downloaded && (job.state === 'Failed' || (job.state === 'Missing' && observed.previous.failedJob === observed.jobName));
  // What is served is read from the observed Deployment first: the status may have been lost
  // or be older than the last roll; only without a Deployment does the status say it.
  const servingHash = downloaded ? observed.hash : (served ?? observed.previous.downloadedHash);
  const conditions = {
    storage: fromReadiness(STORAGE_READY, pvcReadiness(observed.pvc)),
    download: downloadCondition(observed, downloaded, failed, job.reason),
    deployment: deploymentCondition(observed.deployment, servingHash, observed.serverPods ?? []),
  };
  return {
    ...phaseOf(observed, conditions, downloaded, failed, servingHash),
    servingHash,
    keepServer: servingHash === undefined && observed.deployment !== undefined,
    downloadedHash: servingHash,
    failedHash: failed ? observed.hash : undefined,
    failedJob: failed ? observed.jobName : undefined,
    runJob: observed.job !== undefined || (!downloaded && !failed),
    conditions,
  };
}

/**
 * A spec change that could not be applied (kept out of the children) is reported by the
 * condition of what it is about, so Ready is False; a model still served is `Serving`, never
 * `Ready`, for a generation that was not applied.
 */
export function withRefusals(d: Decision, refused: { storage: Refusal[]; deployment: Refusal[] }): Decision {
  const storage = refusedCondition(STORAGE_READY, refused.storage);
  const deployment = refusedCondition(DEPLOYMENT_READY, refused.deployment);
  const refusal = storage ?? deployment;
  if (!refusal) return d;
  const conditions = { ...d.conditions, storage: storage ?? d.conditions.storage, deployment: deployment ?? d.conditions.deployment };
  return d.phase === 'Ready' ? { ...d, phase: 'Serving', message: refusal.message, conditions } : { ...d, conditions };
}

function phaseOf(observed: Observation, c: Decision['conditions'], downloaded: boolean, failed: boolean, servingHash: string | undefined) {
  if (failed) return { phase: 'Failed' as const, message: c.download.message };
  if (downloaded) {
    if (c.deployment.status === 'True') return { phase: 'Ready' as const, message: c.deployment.message };
    // A server that cannot start (e.g. a file TF Serving cannot load) is a failure, not "serving".
    if (c.deployment.status === 'False') return { phase: 'Failed' as const, message: c.deployment.message };
    return { phase: 'Serving' as const, message: c.deployment.message };
  }
  if (servingHash) return { phase: 'Downloading' as const, message: `${c.download.message}; model ${servingHash} keeps serving` };
  if (!observed.pvc) return { phase: 'Pending' as const, message: `PersistentVolumeClaim ${observed.pvcName} is being created` };
  if (c.storage.status !== 'True') return { phase: 'CreatingStorage' as const, message: c.storage.message };
  return { phase: 'Downloading' as const, message: c.download.message };
}

function downloadCondition(observed: Observation, downloaded: boolean, failed: boolean, jobReason: string): Cond {
  if (downloaded) return condition.true(MODEL_DOWNLOADED, 'ModelDownloaded', `model ${observed.hash} was downloaded from ${observed.modelURL}`);
  if (failed) {
    // A failed Job removed by hand leaves its reason only in the status we wrote before.
    const remembered =
      observed.previous.phase === 'Failed' && observed.previous.message?.startsWith(`Job ${observed.jobName} failed: `) ? observed.previous.message : undefined;
    const message = observed.job ? `Job ${observed.jobName} failed: ${jobReason}` : (remembered ?? `Job ${observed.jobName} failed: the Job was removed`);
    return condition.false(MODEL_DOWNLOADED, 'DownloadFailed', message);
  }
  // A download whose pod cannot run (image pull, crash loop, Secret missing) says why.
  const running = condition.unknown(MODEL_DOWNLOADED, 'Downloading', `Job ${observed.jobName} is downloading ${observed.modelURL}`);
  return observed.job ? fromReadiness(MODEL_DOWNLOADED, blockedReadiness(running, { jobs: [observed.job], pods: observed.jobPods ?? [] })) : running;
}

/** Available is not enough: the Deployment must also run the model the status says it serves. */
function deploymentCondition(deployment: KubeObject | undefined, servingHash: string | undefined, pods: readonly KubeObject[]): Cond {
  if (!servingHash) return condition.unknown(DEPLOYMENT_READY, 'WaitingForModel', 'the model server starts once the model is downloaded');
  if (deployment && servedPathOf(deployment) !== `${SERVER_MOUNT}/${servingHash}`) {
    return condition.unknown(DEPLOYMENT_READY, 'RolloutPending', `Deployment ${deployment.metadata.name} is moving to model ${servingHash}`);
  }
  return fromReadiness(DEPLOYMENT_READY, deploymentWorkloadReadiness(deploymentReadiness(deployment), deployment, pods));
}

/** The model hash an observed Deployment serves, from its `--model_base_path`. */
function servedHashOf(deployment: KubeObject | undefined): string | undefined {
  const path = deployment ? servedPathOf(deployment) : undefined;
  const hash = path?.startsWith(`${SERVER_MOUNT}/`) ? path.slice(SERVER_MOUNT.length + 1) : undefined;
  return hash && HASH.test(hash) ? hash : undefined;
}

/** `--model_base_path` of an observed Deployment's first container. */
export function servedPathOf(deployment: KubeObject): string | undefined {
  const spec = isRecord(deployment.spec) ? deployment.spec : {};
  const template = isRecord(spec.template) && isRecord(spec.template.spec) ? spec.template.spec : {};
  const container = Array.isArray(template.containers) && isRecord(template.containers[0]) ? template.containers[0] : {};
  const args = Array.isArray(container.args) ? container.args : [];
  const flag = args.find((a): a is string => typeof a === 'string' && a.startsWith('--model_base_path='));
  return flag?.slice('--model_base_path='.length);
}
