import type { V1Job } from '@kubernetes/client-node';
import { childMeta, restrictedContainer, restrictedPod, type Parent } from '../kit/index.js';
import { DOWNLOAD_SCRIPT } from './download-script.js';
import { COMPONENT_DOWNLOAD, DOWNLOAD_MOUNT, MODEL_VOLUME, jobName, labelsFor, pvcName } from './names.js';
import type { MLModelSpec } from './spec.js';

export const MODEL_HASH_LABEL = 'modelhooks.dev/model-hash';
/** Three retries; an hour covers a multi-GB model on a slow link. */
export const BACKOFF_LIMIT = 3;
export const ACTIVE_DEADLINE_SECONDS = 3600;
/** The downloader runs as any user; the claim is made writable for this group through fsGroup. */
const DOWNLOAD_USER = 1000;

/**
 * Job `<n>-download-<hash>`: fetches the model into `/mnt/model/<hash>/1/`. Its pod
 * template never changes once created (Jobs are immutable and declared OnDelete), and
 * `keepHash` is the model still served, which the Job must not remove.
 */
export function jobFor(parent: Parent<MLModelSpec>, hash: string, keepHash: string | undefined, image: string): V1Job {
  const labels = { ...labelsFor(parent, COMPONENT_DOWNLOAD), [MODEL_HASH_LABEL]: hash };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: childMeta(parent, jobName(parent, hash), labels),
    spec: {
      backoffLimit: BACKOFF_LIMIT,
      activeDeadlineSeconds: ACTIVE_DEADLINE_SECONDS,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'Never',
          securityContext: restrictedPod(DOWNLOAD_USER, { fsGroup: DOWNLOAD_USER }),
          containers: [
            {
              name: 'download',
              image,
              command: ['sh', '-c', DOWNLOAD_SCRIPT],
              env: [
                { name: 'MODEL_URL', value: parent.spec.modelURL },
                { name: 'MODEL_DIR', value: `${DOWNLOAD_MOUNT}/${hash}` },
                { name: 'KEEP_HASH', value: keepHash ?? '' },
              ],
              resources: { requests: { cpu: '100m', memory: '128Mi' } },
              securityContext: restrictedContainer({ readOnlyRootFilesystem: true }),
              volumeMounts: [{ name: MODEL_VOLUME, mountPath: DOWNLOAD_MOUNT }],
            },
          ],
          volumes: [{ name: MODEL_VOLUME, persistentVolumeClaim: { claimName: pvcName(parent) } }],
        },
      },
    },
  };
}

/** The labels of the download pods of one model hash: what customize asks for, to say why they do not run. */
export function downloadPodSelector(parent: Parameters<typeof labelsFor>[0], hash: string): Record<string, string> {
  const labels = labelsFor(parent, COMPONENT_DOWNLOAD);
  return {
    'app.kubernetes.io/instance': labels['app.kubernetes.io/instance'] as string,
    'app.kubernetes.io/component': COMPONENT_DOWNLOAD,
    [MODEL_HASH_LABEL]: hash,
  };
}
