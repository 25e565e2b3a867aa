import type { V1Container, V1EnvVar, V1PodSpec } from '@kubernetes/client-node';
import type { ComponentName } from '../spec.js';

/** pkg/constants/constants.go InferenceServiceNameEnvVarKey. */
export const INFERENCE_SERVICE_NAME = 'INFERENCE_SERVICE_NAME';
/** pkg/constants/constants.go StorageInitializerContainerName. */
const STORAGE_INITIALIZER = 'storage-initializer';

/** pkg/utils/storage.go AddDefaultHuggingFaceEnvVars (v0.20.0): download speed-ups for hf:// and others. */
export const HUGGING_FACE_ENV: readonly V1EnvVar[] = [
  { name: 'HF_HUB_ENABLE_HF_TRANSFER', value: '1' },
  { name: 'HF_XET_HIGH_PERFORMANCE', value: '1' },
  { name: 'HF_XET_NUM_CONCURRENT_RANGE_GETS', value: '8' },
];

/** pkg/constants/constants.go ModelInitModeEnvVarKey: a model car's env on the server (storage/modelcar.ts). */
const MODEL_INIT_MODE = 'MODEL_INIT_MODE';
/** utils.ModelcarNames (pkg/utils/storage.go): the model car sidecars, added after the component's containers. */
const MODELCAR = /^modelcar(-\d+)?$/;

/**
 * isvcutils.AddEnvVarToPodSpec: the value is overwritten when the name exists, else appended —
 * before a model car's MODEL_INIT_MODE, which KServe adds later (the pod webhook or the raw
 * reconciler's storage initialization, after buildPredictorResources), and modelhooks earlier.
 */
function setEnv(c: V1Container, e: V1EnvVar): V1Container {
  const env = c.env ?? [];
  if (env.some((x) => x.name === e.name)) return { ...c, env: env.map((x) => (x.name === e.name ? { name: x.name, value: e.value } : x)) };
  const last = env[env.length - 1];
  if (last?.name === MODEL_INIT_MODE) return { ...c, env: [...env.slice(0, -1), e, last] };
  return { ...c, env: [...env, e] };
}

/** pkg/utils/storage.go AddEnvVars: appended only when the name is not there yet. */
const addMissing = (c: V1Container, vars: readonly V1EnvVar[]): V1Container => {
  const have = new Set((c.env ?? []).map((e) => e.name));
  const missing = vars.filter((e) => !have.has(e.name));
  return missing.length > 0 ? { ...c, env: [...(c.env ?? []), ...missing] } : c;
};

/**
 * The env KServe adds to a component's pod: INFERENCE_SERVICE_NAME on every predictor
 * container (components/predictor.go buildPredictorResources) and on the transformer's first
 * container (components/transformer.go), none on the explainer's; the Hugging Face env on
 * the storage initializer, after the credentials, keeping a user's values
 * (webhook/admission/pod/storage_initializer_injector.go).
 */
export function withKServeEnv(pod: V1PodSpec, role: ComponentName, isvc: string): V1PodSpec {
  const name = { name: INFERENCE_SERVICE_NAME, value: isvc };
  // Not on a model car: KServe adds it after INFERENCE_SERVICE_NAME was set (ConfigureModelcarToContainer).
  const containers = pod.containers.map((c, i) =>
    (role === 'predictor' && !MODELCAR.test(c.name)) || (role === 'transformer' && i === 0) ? setEnv(c, name) : c,
  );
  const initContainers = pod.initContainers?.map((c) => (c.name === STORAGE_INITIALIZER ? addMissing(c, HUGGING_FACE_ENV) : c));
  return { ...pod, containers, ...(initContainers ? { initContainers } : {}) };
}
