import { isRecord, type KubeObject } from '../kit/index.js';

/*
 * The URL KServe v0.20.0 gives the router for a step naming an InferenceService:
 * pkg/controller/v1beta1/inferenceservice/utils/utils.go GetPredictorEndpoint —
 * `status.address.url`, plus the predict path of the entry component's protocol
 * (constants.go PredictPath: v1 `/v1/models/<model>:predict`, v2 `/v2/models/<model>/infer`,
 * none for gRPC or a multi-model server) for the model GetModelName names.
 */

const FRAMEWORKS = ['sklearn', 'xgboost', 'tensorflow', 'pytorch', 'triton', 'onnx', 'pmml', 'lightgbm', 'paddle', 'huggingface', 'model'] as const;
const PROTOCOL_ENV = 'PROTOCOL';
const MULTI_MODEL_ENV = 'MULTI_MODEL_SERVER';
const MLSERVER_MODEL_NAME_ENV = 'MLSERVER_MODEL_NAME';
const MODEL_NAME_ARG = '--model_name';
const TRANSFORMER_CONTAINER = 'transformer-container';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (isRecord(v) ? v : {});
const list = (v: unknown): Rec[] => (Array.isArray(v) ? v.filter(isRecord) : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export type Endpoint = { url: string } | { missing: 'address' };

/** The step's URL, or why there is none yet (no `status.address.url`: KServe's "service is not ready"). */
export function endpointOf(isvc: KubeObject): Endpoint {
  const address = str(rec(rec(isvc.status).address).url);
  if (!address) return { missing: 'address' };
  const spec = rec(isvc.spec);
  const protocol = protocolOf(spec);
  const path = protocol === 'v1' ? `/v1/models/${modelNameOf(isvc)}:predict` : protocol === 'v2' ? `/v2/models/${modelNameOf(isvc)}/infer` : '';
  return { url: `${address}${path}` };
}

/** The protocol of the entry component; undefined for a multi-model predictor (no path). */
function protocolOf(spec: Rec): string | undefined {
  const transformer = spec.transformer;
  if (isRecord(transformer)) return envOf(list(transformer.containers)[0], PROTOCOL_ENV) ?? 'v1';
  const predictor = rec(spec.predictor);
  const containers = list(predictor.containers);
  if (containers.length > 0) {
    if (envOf(containers[0], MULTI_MODEL_ENV) === 'true') return undefined;
    // CustomPredictor.GetProtocol: a collocated transformer's PROTOCOL wins, else the first container's.
    const collocated = containers.find((c) => c.name === TRANSFORMER_CONTAINER);
    return envOf(collocated ?? containers[0], PROTOCOL_ENV) ?? 'v1';
  }
  const key = FRAMEWORKS.find((k) => isRecord(predictor[k]));
  const impl = key ? rec(predictor[key]) : {};
  const huggingface = key === 'huggingface' || (key === 'model' && rec(impl.modelFormat).name === 'huggingface');
  const hasStorage = impl.storageUri !== undefined || impl.storage !== undefined || list(predictor.storageUris).length > 0;
  if (!huggingface && !hasStorage) return undefined; // IsMMSPredictor
  // A named runtime's protocolVersions are not read here (README, InferenceGraph): the spec's, or the default.
  return str(impl.protocolVersion) ?? (key === 'huggingface' ? 'v2' : 'v1');
}

/** GetModelName: a transformer's or the predictor's `--model_name`, MLServer's env, else the InferenceService's name. */
export function modelNameOf(isvc: KubeObject): string {
  const spec = rec(isvc.spec);
  const transformer = list(rec(spec.transformer).containers)[0];
  const fromTransformer = transformer && modelNameFromArgs(transformer.args);
  if (fromTransformer) return fromTransformer;
  const predictor = rec(spec.predictor);
  if (isRecord(predictor.model)) {
    const fromEnv = envOf(predictor.model, MLSERVER_MODEL_NAME_ENV);
    if (fromEnv !== undefined) return fromEnv;
    const fromArgs = modelNameFromArgs(predictor.model.args);
    if (fromArgs) return fromArgs;
  } else {
    const container = list(predictor.containers)[0];
    const fromArgs = container && modelNameFromArgs(container.args);
    if (fromArgs) return fromArgs;
  }
  return isvc.metadata.name;
}

/** getModelNameFromArgs, quirks included: `--model_name=x`, or `--model_name x` (the next argument wins). */
export function modelNameFromArgs(args: unknown): string {
  const all = Array.isArray(args) ? args.map(String) : [];
  let name = '';
  all.forEach((arg, i) => {
    if (!arg.startsWith(MODEL_NAME_ARG)) return;
    const parts = arg.split('=');
    if (parts.length === 2) name = parts[1] as string;
    const next = all[i + 1];
    if (next !== undefined && !next.startsWith('--')) name = next;
  });
  return name;
}

function envOf(container: Rec | undefined, name: string): string | undefined {
  const found = list(container?.env).find((e) => e.name === name);
  return found ? (str(found.value) ?? '') : undefined;
}
