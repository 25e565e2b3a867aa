import type { V1Container, V1EnvVar, V1Volume } from '@kubernetes/client-node';
import type { Parent } from '../../kit/index.js';
import { appendEnvIfMissing, isGpuEnabled, mergeRuntimeContainer, readinessFor, replacePlaceholders, updateImageTag } from './container.js';
import { defaultProtocolOf, protocolOf, selectRuntime, serverTypeOf, type RuntimeChoice, type RuntimeFailure, type ServingRuntime } from './selection.js';
import { SERVER_CONTAINER } from '../names.js';
import { FRAMEWORK_KEYS, type InferenceServiceSpec, type ModelSpec, type PredictorSpec } from '../spec.js';
import { MODEL_DIR } from '../storage/storage-plan.js';

/** The predictor's runtime, resolved: its container (before modelhooks' own defaults) and pod fields. */
export interface RuntimePredictor {
  choice: RuntimeChoice;
  serverType: string;
  protocol: string;
  /** The merged, templated kserve-container, image tag updated. */
  container: V1Container;
  /** The model-aware probe (readinessFor) when asked for and the container has none; else none (KServe's TCP probe is added with the pod). */
  readinessProbe?: V1Probe;
  /**
   * The labels SetRuntimeDefaults writes on the InferenceService in the controller's memory
   * (modelClass for MLServer, serviceEnvelope for TorchServe: inference_service_defaults.go),
   * which every component's children then carry (components/predictor.go buildObjectMeta,
   * transformer.go and explainer.go read isvc.Labels after the predictor set them).
   */
  isvcLabels: Record<string, string>;
  /** The runtime's other containers (sidecars), after the server. */
  sidecars: V1Container[];
  /** The runtime's pod fields (ServingRuntimePodSpec) the user's predictor fields merge over. */
  pod: { volumes: V1Volume[]; fields: Record<string, unknown> };
}
type V1Probe = NonNullable<V1Container['readinessProbe']>;

/** Pod fields of a ServingRuntimePodSpec that KServe's MergePodSpec carries to the pod. */
const RUNTIME_POD_FIELDS = ['nodeSelector', 'affinity', 'tolerations', 'imagePullSecrets', 'schedulerName'] as const;

const MLSERVER_CLASS: Record<string, string> = {
  xgboost: 'mlserver_xgboost.XGBoostModel',
  lightgbm: 'mlserver_lightgbm.LightGBMModel',
  mlflow: 'mlserver_mlflow.MLflowRuntime',
};

/**
 * The model's runtime and container, as KServe's reconcileModel + buildPodSpec make them:
 * select, apply the server type's defaults (SetRuntimeDefaults), merge the user's model
 * fields over the runtime's kserve-container, replace placeholders, update the image tag.
 */
export function runtimePredictor(
  parent: Parent<InferenceServiceSpec>,
  model: ModelSpec,
  runtimes: { namespaced: ServingRuntime[]; cluster: ServingRuntime[] },
  modelReadiness = false,
): RuntimePredictor | RuntimeFailure {
  const spec: PredictorSpec = parent.spec.predictor;
  const frameworkKey = FRAMEWORK_KEYS.find((k) => spec[k] !== undefined);
  const stated = protocolOf(model, frameworkKey);
  const choice = selectRuntime(model, stated, runtimes);
  if ('reason' in choice) return choice;
  const { runtime } = choice;
  const serverType = serverTypeOf(runtime);

  // SetRuntimeDefaults: per server type, the protocol, env, args and the labels templates read.
  const { storageUri, protocolVersion: _p, runtimeVersion, modelFormat, runtime: _r, storage, ...fields } = model;
  const hasStorage = storageUri !== undefined || storage !== undefined;
  let protocol = stated;
  let env = (fields.env ?? []) as V1EnvVar[];
  let args = fields.args ?? [];
  const isvcLabels: Record<string, string> = {};
  if (serverType === 'mlserver') {
    protocol ??= 'v2';
    env = hasStorage
      ? appendEnvIfMissing(env, [
          { name: 'MLSERVER_MODEL_NAME', value: parent.metadata.name },
          { name: 'MLSERVER_MODEL_URI', value: MODEL_DIR },
        ])
      : appendEnvIfMissing(env, [{ name: 'MLSERVER_LOAD_MODELS_AT_STARTUP', value: 'false' }]);
    isvcLabels.modelClass = MLSERVER_CLASS[modelFormat.name] ?? 'mlserver_sklearn.SKLearnModel';
  } else if (serverType === 'torchserve') {
    protocol ??= 'v1';
    isvcLabels.serviceEnvelope = protocol === 'v2' || protocol === 'grpc-v2' ? 'kservev2' : 'kserve';
    env = [...env, { name: 'PROTOCOL_VERSION', value: protocol }];
  } else if (serverType === 'tritonserver') {
    protocol ??= 'v2';
    if (!hasStorage) args = [...args, '--model-control-mode=explicit'];
  }
  protocol ??= defaultProtocolOf(runtime.spec);

  const containers = runtime.spec.containers ?? [];
  const base = containers.find((c) => c.name === SERVER_CONTAINER);
  if (!base) {
    return { reason: 'InvalidPredictorSpec', message: `${runtime.kind} ${runtime.metadata.name}: failed to find ${SERVER_CONTAINER} in its containers` };
  }
  const user: Record<string, unknown> = { ...fields, ...(env.length > 0 ? { env } : {}), ...(args.length > 0 ? { args } : {}) };
  const merged = mergeRuntimeContainer(base, user);
  const annotations = { modelFormat: modelFormat.name, ...(parent.metadata.annotations ?? {}) };
  const labels = { ...(parent.metadata.labels ?? {}), ...isvcLabels };
  const templated = replacePlaceholders(merged, { name: parent.metadata.name, namespace: parent.metadata.namespace ?? '', labels, annotations });
  if ('error' in templated) {
    return { reason: 'InvalidPredictorSpec', message: `${runtime.kind} ${runtime.metadata.name}, container ${merged.name}: ${templated.error}` };
  }
  if (!templated.image) {
    return {
      reason: 'InvalidPredictorSpec',
      message: `${runtime.kind} ${runtime.metadata.name}: its ${SERVER_CONTAINER} has no image, and the model sets none`,
    };
  }
  const container = { ...templated, image: updateImageTag(templated.image, runtimeVersion, serverType, isGpuEnabled(templated)) };

  const podFields = Object.fromEntries(RUNTIME_POD_FIELDS.filter((f) => runtime.spec[f] !== undefined).map((f) => [f, runtime.spec[f]]));
  return {
    choice,
    isvcLabels,
    serverType,
    protocol,
    container,
    ...(modelReadiness && !container.readinessProbe ? { readinessProbe: readinessFor(container, serverType, protocol) } : {}),
    sidecars: containers.filter((c) => c.name !== SERVER_CONTAINER),
    pod: { volumes: (runtime.spec.volumes as V1Volume[] | undefined) ?? [], fields: podFields },
  };
}
