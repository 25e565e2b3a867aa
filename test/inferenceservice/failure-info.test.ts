import { describe, expect, it } from 'vitest';
import { kserveLastFailureInfo } from '../../hooks/inferenceservice/status/failure-info.js';
import type { KubeObject } from '../../hooks/kit/index.js';

// KServe v0.20.0 pkg/apis/serving/v1beta1/inference_service_status.go PropagateModelStatus, raw mode:
// reads Items[0] of the predictor's pods sorted by creationTimestamp descending
// (pkg/controller/v1beta1/inferenceservice/utils/utils.go ListPodsByLabel).

type State = Record<string, unknown>;
const running = { running: { startedAt: '2026-11-23T10:01:00Z' } };
const waiting = (reason: string, message?: string) => ({ waiting: { reason, ...(message ? { message } : {}) } });
const terminated = (reason: string, exitCode: number, message?: string) => ({
  terminated: { reason, exitCode, ...(message ? { message } : {}), startedAt: '2026-11-23T10:01:00Z', finishedAt: '2026-11-23T10:01:09Z' },
});
const status = (name: string, state: State, lastState: State = {}) => ({ name, ready: false, restartCount: 3, image: 'x', imageID: '', state, lastState });

function pod(opts: { name?: string; created?: string; init?: ReturnType<typeof status>[]; containers: ReturnType<typeof status>[] }): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: opts.name ?? 'iris-predictor-7d9f8b6c5d-x7k2p',
      creationTimestamp: opts.created ?? '2026-11-23T10:00:00Z',
      labels: { app: 'isvc.iris-predictor' },
    },
    status: { phase: 'Pending', ...(opts.init ? { initContainerStatuses: opts.init } : {}), containerStatuses: opts.containers },
  };
}

const FETCH_FAILED = 'RuntimeError: Failed to fetch model. No model found in s3://models/iris.';
const BACK_OFF = 'back-off 40s restarting failed container=kserve-container pod=iris-predictor-7d9f8b6c5d-x7k2p_models(5b1f)';

describe('kserveLastFailureInfo (KServe v0.20 PropagateModelStatus, raw mode)', () => {
  const cases = [
    { reason: 'no pods: Pending, nothing written', pods: [], ready: false, want: undefined },
    {
      reason: 'storage-initializer crash-looping: ModelLoadFailed with the last termination message and exit code',
      pods: [
        pod({
          init: [status('storage-initializer', waiting('CrashLoopBackOff', 'back-off 10s …'), terminated('Error', 1, FETCH_FAILED))],
          containers: [status('kserve-container', waiting('PodInitializing'))],
        }),
      ],
      ready: false,
      want: { reason: 'ModelLoadFailed', message: FETCH_FAILED, exitCode: 1 },
    },
    {
      reason: 'storage-initializer terminated with Error: the current termination',
      pods: [
        pod({
          init: [status('storage-initializer', terminated('Error', 2, FETCH_FAILED))],
          containers: [status('kserve-container', waiting('PodInitializing'))],
        }),
      ],
      ready: false,
      want: { reason: 'ModelLoadFailed', message: FETCH_FAILED, exitCode: 2 },
    },
    {
      reason: 'storage-initializer running: Loading, even if the server container looks broken',
      pods: [pod({ init: [status('storage-initializer', running)], containers: [status('kserve-container', terminated('Error', 1, 'boom'))] })],
      ready: false,
      want: undefined,
    },
    {
      reason: 'kserve-container crash-looping: from lastState, without a message when the container wrote none',
      pods: [
        pod({
          init: [status('storage-initializer', terminated('Completed', 0))],
          containers: [status('kserve-container', waiting('CrashLoopBackOff', BACK_OFF), terminated('Error', 1))],
        }),
      ],
      ready: false,
      want: { reason: 'ModelLoadFailed', exitCode: 1 },
    },
    {
      reason: 'an OOM-killed server is not an Error: KServe writes nothing',
      pods: [pod({ containers: [status('kserve-container', terminated('OOMKilled', 137))] })],
      ready: false,
      want: undefined,
    },
    {
      reason: 'a crash loop after an OOM kill still reports the last termination',
      pods: [pod({ containers: [status('kserve-container', waiting('CrashLoopBackOff', BACK_OFF), terminated('OOMKilled', 137))] })],
      ready: false,
      want: { reason: 'ModelLoadFailed', exitCode: 137 },
    },
    {
      reason: 'an image that cannot be pulled: Pending, nothing written',
      pods: [pod({ containers: [status('kserve-container', waiting('ImagePullBackOff', 'Back-off pulling image "x"'))] })],
      ready: false,
      want: undefined,
    },
    {
      reason: 'only kserve-container counts (a transformer or sidecar crash is not read)',
      pods: [pod({ containers: [status('agent', waiting('CrashLoopBackOff', BACK_OFF), terminated('Error', 1, 'x'))] })],
      ready: false,
      want: undefined,
    },
    {
      reason: 'a ready InferenceService is Loaded: the server container is not read',
      pods: [pod({ containers: [status('kserve-container', waiting('CrashLoopBackOff', BACK_OFF), terminated('Error', 1, 'x'))] })],
      ready: true,
      want: undefined,
    },
    {
      reason: 'readiness does not hide a failing storage-initializer (it is read first)',
      pods: [pod({ init: [status('storage-initializer', terminated('Error', 1, FETCH_FAILED))], containers: [] })],
      ready: true,
      want: { reason: 'ModelLoadFailed', message: FETCH_FAILED, exitCode: 1 },
    },
    {
      reason: 'a CrashLoopBackOff without a last termination: KServe dereferences nil, writes nothing',
      pods: [pod({ containers: [status('kserve-container', waiting('CrashLoopBackOff', BACK_OFF))] })],
      ready: false,
      want: undefined,
    },
    {
      reason: 'only the newest pod is read',
      pods: [
        pod({ name: 'old', created: '2026-11-23T09:00:00Z', containers: [status('kserve-container', terminated('Error', 1, 'old crash'))] }),
        pod({ name: 'new', created: '2026-11-23T10:00:00Z', containers: [status('kserve-container', terminated('Error', 3, 'new crash'))] }),
      ],
      ready: false,
      want: { reason: 'ModelLoadFailed', message: 'new crash', exitCode: 3 },
    },
    {
      reason: 'pods created in the same second: the first by name',
      pods: [
        pod({ name: 'b', containers: [status('kserve-container', terminated('Error', 1, 'b crash'))] }),
        pod({ name: 'a', containers: [status('kserve-container', terminated('Error', 1, 'a crash'))] }),
      ],
      ready: false,
      want: { reason: 'ModelLoadFailed', message: 'a crash', exitCode: 1 },
    },
  ];
  for (const c of cases) it(c.reason, () => expect(kserveLastFailureInfo(c.pods, c.ready)).toEqual(c.want));
});
