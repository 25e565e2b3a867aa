import { z } from 'zod';
import { conditionsSchema, readyConditions, type Parent, type StampInput } from '../kit/index.js';
import { DEPLOYMENT_READY, MODEL_DOWNLOADED, PHASES, STORAGE_READY, type Decision } from './lifecycle.js';
import { serviceEndpoint } from './names.js';
import type { MLModelSpec } from './spec.js';

/** Ready ← the claim, the download into it, the server reading it. The phase comes from the lifecycle. */
export const conditionTree = readyConditions([
  { type: STORAGE_READY, means: 'PVC <n>-pvc is Bound' },
  {
    type: MODEL_DOWNLOADED,
    means: 'the current modelURL was downloaded (Job succeeded, or remembered)',
    reasons: { downloaded: 'ModelDownloaded', failed: 'DownloadFailed', downloading: 'Downloading' },
  },
  { type: DEPLOYMENT_READY, means: '<n>-server serves that model and is available', reasons: { waiting: 'WaitingForModel', moving: 'RolloutPending' } },
]);

/** The original status (phase, message, serviceEndpoint, observedGeneration) plus what the lifecycle remembers. */
export const mlmodelStatus = z.object({
  phase: z.enum(PHASES as [string, ...string[]]).optional(),
  message: z.string().optional(),
  serviceEndpoint: z.string().optional(),
  observedGeneration: z.number().int().optional(),
  downloadedHash: z.string().optional().describe('Hash of the modelURL whose download succeeded: never downloaded again.'),
  failedHash: z.string().optional().describe('Hash of the modelURL whose download failed: not retried until modelURL or downloadImage changes.'),
  failedJob: z.string().optional().describe('The download Job that failed (the same Job is never run again).'),
  conditions: conditionsSchema.optional(),
});

export function statusFrom(input: StampInput & { parent: Parent<MLModelSpec> }, d: Decision): Record<string, unknown> {
  const { storage, download, deployment } = d.conditions;
  const status: Record<string, unknown> = { phase: d.phase, message: d.message };
  if (input.parent.spec.expose && (d.servingHash || d.keepServer)) status.serviceEndpoint = serviceEndpoint(input.parent);
  if (d.downloadedHash) status.downloadedHash = d.downloadedHash;
  if (d.failedHash) status.failedHash = d.failedHash;
  if (d.failedJob) status.failedJob = d.failedJob;
  status.conditions = conditionTree.summarise(input, [storage, download, deployment]).conditions;
  return status;
}

/** An invalid spec changes nothing but the phase: the Ready condition names the field. */
export function invalidStatus(previous: Record<string, unknown>): Record<string, unknown> {
  return { ...previous, phase: 'Failed', message: 'the spec is invalid: see the Ready condition' };
}
