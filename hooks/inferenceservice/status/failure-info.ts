import { isRecord, type KubeObject } from '../../kit/index.js';

/** KServe v0.20's `FailureInfo` (pkg/apis/serving/v1beta1/inference_service_status.go), as it serializes (omitempty). */
export interface KServeFailureInfo {
  location?: string;
  reason?: 'ModelLoadFailed' | 'RuntimeUnhealthy' | 'RuntimeDisabled' | 'NoSupportingRuntime' | 'RuntimeNotRecognized' | 'InvalidPredictorSpec';
  message?: string;
  modelRevisionName?: string;
  time?: string;
  exitCode?: number;
}

/** KServe's constants (pkg/constants/constants.go). */
const STORAGE_INITIALIZER = 'storage-initializer';
const KSERVE_CONTAINER = 'kserve-container';
const ERROR = 'Error';
const CRASH_LOOP = 'CrashLoopBackOff';

/**
 * What KServe v0.20 writes to `modelStatus.lastFailureInfo` from the predictor's pods, a
 * port of `PropagateModelStatus` in raw mode. `undefined` means KServe writes nothing and
 * the previous value stays (it never clears it). `pods` are the predictor's pods as KServe
 * lists them (label `app: isvc.<predictor Deployment>`, terminating ones included); KServe
 * reads only the newest (creationTimestamp descending, ties by name — v0.20.0 left ties to
 * sort.Slice, its main branch breaks them by name). `ready` is the InferenceService's Ready.
 *
 * KServe reports only a storage-initializer or kserve-container that terminated with
 * reason `Error` or is in `CrashLoopBackOff`, always as `ModelLoadFailed` with the
 * container's termination message and exit code; an image that cannot be pulled, an
 * unschedulable pod or a refused pod leave it unset. A CrashLoopBackOff without a last
 * termination makes KServe dereference nil and give up the reconcile: nothing is written.
 */
export function kserveLastFailureInfo(pods: readonly KubeObject[], ready: boolean): KServeFailureInfo | undefined {
  const pod = newest(pods);
  if (!pod) return undefined;
  const status = isRecord(pod.status) ? pod.status : {};
  const storage = named(status.initContainerStatuses, STORAGE_INITIALIZER);
  if (storage) {
    // A running storage-initializer means Loading (or a requeue): no failure info.
    if (isRecord(storage.state) && isRecord(storage.state.running)) return undefined;
    const info = failureOf(storage);
    if (info) return info;
  }
  if (ready) return undefined;
  const server = named(status.containerStatuses, KSERVE_CONTAINER);
  return server ? failureOf(server) : undefined;
}

function newest(pods: readonly KubeObject[]): KubeObject | undefined {
  const created = (p: KubeObject) => (typeof p.metadata.creationTimestamp === 'string' ? Date.parse(p.metadata.creationTimestamp) || 0 : 0);
  return [...pods].sort((a, b) => created(b) - created(a) || (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0))[0];
}

function named(list: unknown, name: string): Record<string, unknown> | undefined {
  return Array.isArray(list) ? list.find((c): c is Record<string, unknown> => isRecord(c) && c.name === name) : undefined;
}

function sub(obj: Record<string, unknown>, field: string, key: string): Record<string, unknown> | undefined {
  const state = obj[field];
  return isRecord(state) && isRecord(state[key]) ? state[key] : undefined;
}

function failureOf(cs: Record<string, unknown>): KServeFailureInfo | undefined {
  const terminated = sub(cs, 'state', 'terminated');
  if (terminated?.reason === ERROR) return modelLoadFailed(terminated);
  const waiting = sub(cs, 'state', 'waiting');
  if (waiting?.reason === CRASH_LOOP) {
    const last = sub(cs, 'lastState', 'terminated');
    return last ? modelLoadFailed(last) : undefined;
  }
  return undefined;
}

function modelLoadFailed(terminated: Record<string, unknown>): KServeFailureInfo {
  const message = typeof terminated.message === 'string' ? terminated.message : '';
  const exitCode = typeof terminated.exitCode === 'number' ? terminated.exitCode : 0;
  return { reason: 'ModelLoadFailed', ...(message ? { message } : {}), ...(exitCode ? { exitCode } : {}) };
}
