import type { V1EnvVar, V1Probe } from '@kubernetes/client-node';
import type { ImageKey } from './config.js';
import { HTTP_PORT } from './names.js';
import type { ModelSpec } from './spec.js';

/**
 * KServe's cluster serving runtimes (config/runtimes/kserve-*.yaml, v0.20.0), the ones that
 * serve the eight framework keys. `{{.Name}}` in KServe's args is the InferenceService name.
 */
export interface Runtime {
  name: string;
  image: ImageKey;
  formats: Array<{ name: string; priority: number; autoSelect: boolean }>;
  protocols: string[];
  command?: string[];
  args(model: string): string[];
  /** Images whose Dockerfile declares no numeric user need one to run as non-root. */
  runAsUser?: number;
  env?(protocol: string): V1EnvVar[];
  /** An HTTP path that answers once the model is loaded; without one, a TCP probe. */
  readinessPath?(model: string, protocol: string): string;
  /** HuggingFace needs a memory-backed /dev/shm. */
  sharedMemory?: boolean;
}

const pythonServerArgs = (model: string, extra: string[] = []) => [`--model_name=${model}`, '--model_dir=/mnt/models', `--http_port=${HTTP_PORT}`, ...extra];
/** KServe's Python model server answers both protocols' readiness paths. */
const pythonReadiness = (model: string, protocol: string) => (protocol.endsWith('v2') ? `/v2/models/${model}/ready` : `/v1/models/${model}`);
const auto = (name: string, priority: number) => ({ name, priority, autoSelect: true });

export const RUNTIMES: Runtime[] = [
  {
    name: 'kserve-huggingfaceserver',
    image: 'huggingfaceserver',
    formats: [auto('huggingface', 1)],
    protocols: ['v2', 'v1'],
    args: (m) => [`--model_name=${m}`],
    env: () => [{ name: 'LMCACHE_USE_EXPERIMENTAL', value: 'True' }],
    readinessPath: pythonReadiness,
    sharedMemory: true,
  },
  { name: 'kserve-lgbserver', image: 'lgbserver', formats: [auto('lightgbm', 1)], protocols: ['v1', 'v2'], args: (m) => pythonServerArgs(m, ['--nthread=1']), readinessPath: pythonReadiness },
  { name: 'kserve-sklearnserver', image: 'sklearnserver', formats: [auto('sklearn', 1)], protocols: ['v1', 'v2'], args: (m) => pythonServerArgs(m), readinessPath: pythonReadiness },
  {
    name: 'kserve-tensorflow-serving',
    image: 'kserve-tensorflow-serving',
    formats: [auto('tensorflow', 2)],
    protocols: ['v1', 'grpc-v1'],
    command: ['/usr/bin/tensorflow_model_server'],
    args: (m) => [`--model_name=${m}`, '--port=9000', `--rest_api_port=${HTTP_PORT}`, '--model_base_path=/mnt/models', '--rest_api_timeout_in_ms=60000'],
    runAsUser: 1000,
    readinessPath: (m) => `/v1/models/${m}`,
  },
  {
    name: 'kserve-torchserve',
    image: 'torchserve',
    formats: [auto('pytorch', 2)],
    protocols: ['v1', 'v2', 'grpc-v2'],
    args: () => ['torchserve', '--start', '--model-store=/mnt/models/model-store', '--ts-config=/mnt/models/config/config.properties'],
    runAsUser: 1000,
    // KServe sets the envelope from the protocol (SetTorchServeDefaults).
    env: (protocol) => [
      { name: 'TS_SERVICE_ENVELOPE', value: protocol.endsWith('v2') ? 'kservev2' : 'kserve' },
      { name: 'PROTOCOL_VERSION', value: protocol },
    ],
    // No readinessPath: TorchServe names models after their archive, not the InferenceService,
    // so a per-model path would never answer; the port is what can be known.
  },
  {
    name: 'kserve-tritonserver',
    image: 'tritonserver',
    formats: [auto('tensorrt', 1), auto('tensorflow', 1), auto('onnx', 1), { name: 'pytorch', priority: 0, autoSelect: false }, auto('triton', 1)],
    protocols: ['v2', 'grpc-v2'],
    args: () => ['tritonserver', '--model-store=/mnt/models', '--grpc-port=9000', `--http-port=${HTTP_PORT}`, '--allow-grpc=true', '--allow-http=true'],
    runAsUser: 1000,
    readinessPath: () => '/v2/health/ready',
  },
  {
    name: 'kserve-xgbserver',
    image: 'xgbserver',
    formats: [auto('xgboost', 1)],
    protocols: ['v1', 'v2'],
    args: (m) => pythonServerArgs(m, ['--nthread=1']),
    readinessPath: pythonReadiness,
  },
];

/** KServe's protocol defaults: v2 for triton, onnx and huggingface keys, else v1. */
export function protocolOf(model: ModelSpec, viaFrameworkKey: boolean): string {
  if (model.protocolVersion) return model.protocolVersion;
  const format = model.modelFormat.name.toLowerCase();
  if (format === 'triton') return 'v2';
  if (viaFrameworkKey && (format === 'onnx' || format === 'huggingface')) return 'v2';
  return 'v1';
}

export type RuntimeChoice = { runtime: Runtime; protocol: string } | { reason: 'NoSupportingRuntime' | 'RuntimeNotRecognized'; message: string };

/**
 * The runtime for a model, as KServe chooses among its cluster serving runtimes: the named
 * one, else the highest-priority runtime that auto-selects the format and speaks the protocol.
 */
export function runtimeFor(model: ModelSpec, protocol: string): RuntimeChoice {
  const format = model.modelFormat.name.toLowerCase();
  if (model.runtime) {
    const named = RUNTIMES.find((r) => r.name === model.runtime);
    if (!named) return { reason: 'RuntimeNotRecognized', message: `runtime ${model.runtime} is not one of the built-in runtimes (${RUNTIMES.map((r) => r.name).join(', ')})` };
    if (!named.formats.some((f) => f.name === format)) return { reason: 'NoSupportingRuntime', message: `runtime ${named.name} does not serve model format ${format}` };
    if (!named.protocols.includes(protocol)) return { reason: 'NoSupportingRuntime', message: `runtime ${named.name} does not speak protocol ${protocol}` };
    return { runtime: named, protocol };
  }
  const priority = (r: Runtime) => r.formats.find((f) => f.name === format && f.autoSelect)?.priority;
  const candidates = RUNTIMES.filter((r) => priority(r) !== undefined && r.protocols.includes(protocol));
  const best = candidates.sort((a, b) => (priority(b) ?? 0) - (priority(a) ?? 0))[0];
  return best
    ? { runtime: best, protocol }
    : { reason: 'NoSupportingRuntime', message: `no runtime serves model format ${model.modelFormat.name} with protocol ${protocol}` };
}

export function readinessProbeFor(runtime: Runtime, model: string, protocol: string): V1Probe {
  const timing = { initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 3 };
  return runtime.readinessPath
    ? { httpGet: { path: runtime.readinessPath(model, protocol), port: HTTP_PORT }, ...timing }
    : { tcpSocket: { port: HTTP_PORT }, ...timing };
}
