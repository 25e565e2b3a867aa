import type { V1Container, V1EnvVar, V1Probe } from '@kubernetes/client-node';
import { isRecord } from '../../kit/index.js';
import { HTTP_PORT } from '../names.js';

/*
 * The predictor container as KServe v0.20.0 builds it from the selected runtime:
 * utils.MergeRuntimeContainers (a strategic merge patch of the InferenceService's container over
 * the runtime's, args concatenated), utils.ReplacePlaceholders, utils.UpdateImageTag
 * (pkg/controller/v1beta1/inferenceservice/utils/utils.go), and the server-type defaults of
 * SetRuntimeDefaults (pkg/apis/serving/v1beta1/inference_service_defaults.go).
 */

/** Strategic-merge keys of a container's lists (k8s.io/api core/v1 patchMergeKey); other lists are replaced. */
const MERGE_KEYS: Record<string, string> = {
  env: 'name',
  ports: 'containerPort',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  resizePolicy: 'resourceName',
};

function mergeObjects(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isRecord(b) && isRecord(v) ? mergeObjects(b, v) : v;
  }
  return out;
}

/** A list merged by key: the base's order, an overlay item replacing its namesake in place, new ones appended. */
function mergeByKey(base: unknown[], over: unknown[], key: string): unknown[] {
  const keyOf = (x: unknown) => (isRecord(x) ? x[key] : undefined);
  const out = base.map((b) => {
    const o = over.find((x) => keyOf(x) !== undefined && keyOf(x) === keyOf(b));
    // An env var's value replaces a valueFrom and the reverse (reconcileEnvValueConflicts).
    return o === undefined ? b : key === 'name' ? o : isRecord(b) && isRecord(o) ? mergeObjects(b, o) : o;
  });
  return [...out, ...over.filter((o) => !base.some((b) => keyOf(b) !== undefined && keyOf(b) === keyOf(o)))];
}

/** MergeRuntimeContainers: the InferenceService's fields over the runtime's; args are runtime's then the user's. */
export function mergeRuntimeContainer(runtime: V1Container, user: Record<string, unknown>): V1Container {
  const out: Record<string, unknown> = { ...(runtime as unknown as Record<string, unknown>) };
  for (const [k, v] of Object.entries(user)) {
    if (v === undefined) continue;
    const b = out[k];
    if (k === 'args') out.args = [...(Array.isArray(b) ? b : []), ...(Array.isArray(v) ? v : [])];
    else if (MERGE_KEYS[k] && Array.isArray(b) && Array.isArray(v)) out[k] = mergeByKey(b, v, MERGE_KEYS[k] as string);
    else out[k] = isRecord(b) && isRecord(v) ? mergeObjects(b, v) : v;
  }
  return out as unknown as V1Container;
}

/** The InferenceService metadata a runtime's `{{.Name}}`-style placeholders read. */
export interface TemplateMeta {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/**
 * ReplacePlaceholders: Go's text/template over the container's JSON, with the InferenceService's
 * ObjectMeta. `{{.Name}}`, `{{.Namespace}}`, `{{.Labels.<key>}}` and `{{.Annotations.<key>}}` are
 * what runtimes use; a missing key prints `<no value>`, as Go's template does. Any other action
 * is refused (an Error naming it): modelhooks does not run Go templates.
 *
 * Only the strings that hold a placeholder are rewritten (the rest of the container is shared,
 * not copied); anything else — a refused action, a `{{` whose match would run past its own
 * string, a placeholder in a key — takes the whole-text path, so the answer is always that of
 * the template over the container's JSON.
 */
export function replacePlaceholders(container: V1Container, meta: TemplateMeta): V1Container | { error: string } {
  const walked = withPlaceholders(container, meta);
  return walked === WHOLE_TEXT ? overJson(container, meta) : (walked as V1Container);
}

const PLACEHOLDER = /\{\{(.*?)\}\}/g;
const ACTION = /^\s*\.(Name|Namespace|Labels\.([\w-]+)|Annotations\.([\w-]+))\s*$/;
/** The string a placeholder stands for, JSON-escaped (it lands inside a JSON string), or undefined for an action refused. */
function placeholderValue(inner: string, meta: TemplateMeta): string | undefined {
  const m = ACTION.exec(inner);
  if (!m) return undefined;
  const value = m[1] === 'Name' ? meta.name : m[1] === 'Namespace' ? meta.namespace : m[2] !== undefined ? meta.labels[m[2]] : meta.annotations[m[3] as string];
  return JSON.stringify(value ?? '<no value>').slice(1, -1);
}

/** The template over the container's whole JSON text, as KServe runs it. */
function overJson(container: V1Container, meta: TemplateMeta): V1Container | { error: string } {
  const text = JSON.stringify(container);
  let error: string | undefined;
  const replaced = text.replace(PLACEHOLDER, (whole, inner: string) => {
    const value = placeholderValue(inner, meta);
    if (value === undefined) {
      error ??= `placeholder ${whole} is not one of {{.Name}}, {{.Namespace}}, {{.Labels.<key>}}, {{.Annotations.<key>}}`;
      return whole;
    }
    return value;
  });
  return error ? { error } : (JSON.parse(replaced) as V1Container);
}

/** Marks a value the string-by-string walk cannot template as the whole text would. */
const WHOLE_TEXT: unique symbol = Symbol('whole text');

/** `value` with each string's placeholders replaced: the same object where nothing changed. */
function withPlaceholders(value: unknown, meta: TemplateMeta): unknown {
  if (typeof value === 'string') return value.includes('{{') ? templatedString(value, meta) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const next = withPlaceholders(item, meta);
      if (next === WHOLE_TEXT) return WHOLE_TEXT;
      if (next !== item) (out ??= value.slice())[i] = next;
    }
    return out ?? value;
  }
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    if (key.includes('{{') || key === '__proto__') return WHOLE_TEXT;
    const item = (value as Record<string, unknown>)[key];
    const next = withPlaceholders(item, meta);
    if (next === WHOLE_TEXT) return WHOLE_TEXT;
    if (next !== item) (out ??= { ...(value as Record<string, unknown>) })[key] = next;
  }
  return out ?? value;
}

/** One string templated as its stretch of the JSON text is, or WHOLE_TEXT when that stretch alone cannot tell. */
function templatedString(s: string, meta: TemplateMeta): string | typeof WHOLE_TEXT {
  const text = JSON.stringify(s);
  let refused = false;
  let end = 0;
  const replaced = text.replace(PLACEHOLDER, (whole, inner: string, offset: number) => {
    end = offset + whole.length;
    const value = placeholderValue(inner, meta);
    if (value === undefined) refused = true;
    return value ?? whole;
  });
  // A `{{` after the last match could match past the string's end in the whole text.
  if (refused || text.includes('{{', end)) return WHOLE_TEXT;
  return JSON.parse(replaced) as string;
}

/** Resource names that make a container a GPU one (pkg/utils/utils.go IsGPUEnabled). */
export function isGpuEnabled(container: V1Container): boolean {
  const limits = Object.keys(container.resources?.limits ?? {});
  return limits.includes('nvidia.com/gpu') || limits.some((r) => r.startsWith('nvidia.com/mig'));
}

/**
 * UpdateImageTag: `runtimeVersion` replaces the tag (or adds one); else, with a GPU limit,
 * TensorFlow Serving, TorchServe and the Hugging Face server get the `-gpu` tag, and without
 * one, vLLM gets its `-cpu` repository. An image pinned by digest is left alone.
 */
export function updateImageTag(image: string, runtimeVersion: string | undefined, serverType: string, gpu: boolean): string {
  if (image.includes('@sha256:')) return image;
  const tagRe = /(:([\w.\-_]*))$/;
  if (runtimeVersion !== undefined) return tagRe.test(image) ? image.replace(tagRe, `:${runtimeVersion}`) : `${image}:${runtimeVersion}`;
  if (!serverType) return image;
  const tag = tagRe.exec(image)?.[0];
  if (!tag) return image;
  const repository = image.slice(0, -tag.length);
  if (gpu) {
    return ['tensorflow-serving', 'torchserve', 'huggingfaceserver'].includes(serverType) && !image.endsWith('-gpu') ? `${image}-gpu` : image;
  }
  return serverType === 'vllmserver' && !repository.endsWith('-cpu') ? `${repository}-cpu${tag}` : image;
}

/**
 * The model name a server really serves under, from its final arguments (the last
 * `--model_name=X` or `--model_name X`, as KServe's getModelNameFromArgs and Python's argparse
 * read them) or MLServer's MLSERVER_MODEL_NAME; undefined when it cannot be known.
 */
export function servedModelName(container: V1Container, serverType: string): string | undefined {
  if (serverType === 'mlserver') return (container.env ?? []).find((e) => e.name === 'MLSERVER_MODEL_NAME' && e.value)?.value;
  const args = container.args ?? [];
  let name: string | undefined;
  args.forEach((arg, i) => {
    if (arg.startsWith('--model_name=')) name = arg.slice('--model_name='.length);
    else if (arg === '--model_name' && i + 1 < args.length && !args[i + 1]?.startsWith('--')) name = args[i + 1];
  });
  return name === '' ? undefined : name;
}

/** Servers built on KServe's Python model server: they answer /v1/models/<name> and /v2/models/<name>/ready. */
const PYTHON_SERVERS = new Set([
  'sklearnserver',
  'xgbserver',
  'lgbserver',
  'lightgbmserver',
  'pmmlserver',
  'paddleserver',
  'predictiveserver',
  'autogluonserver',
  'huggingfaceserver',
  'pytorchserver',
]);

/** KServe's own readiness probe in raw mode: TCP on the first port, or 8080 (reconcilers/deployment/deployment_reconciler.go). */
export function kserveTcpReadiness(container: V1Container): V1Probe {
  return {
    tcpSocket: { port: container.ports?.[0]?.containerPort ?? HTTP_PORT },
    timeoutSeconds: 1,
    periodSeconds: 10,
    successThreshold: 1,
    failureThreshold: 3,
  };
}

/**
 * Readiness that tracks the served model: an HTTP path naming the model the server really
 * loads where the server type tells the path and the name is known, else KServe's TCP probe.
 */
export function readinessFor(container: V1Container, serverType: string, protocol: string): V1Probe {
  const http = (path: string): V1Probe => ({
    httpGet: { path, port: HTTP_PORT },
    initialDelaySeconds: 5,
    periodSeconds: 10,
    timeoutSeconds: 5,
    failureThreshold: 3,
  });
  if (serverType === 'tritonserver') return http('/v2/health/ready');
  const name = servedModelName(container, serverType);
  if (name !== undefined && !/[/?#\s]/.test(name)) {
    const v2 = protocol === 'v2' || protocol === 'grpc-v2';
    if (PYTHON_SERVERS.has(serverType)) return http(v2 ? `/v2/models/${name}/ready` : `/v1/models/${name}`);
    if (serverType === 'tensorflow-serving') return http(`/v1/models/${name}`);
    if (serverType === 'mlserver') return http(`/v2/models/${name}/ready`);
  }
  return kserveTcpReadiness(container);
}

/** Appends env vars whose names are not there yet (utils.AppendEnvVarIfNotExists). */
export function appendEnvIfMissing(env: V1EnvVar[], extra: V1EnvVar[]): V1EnvVar[] {
  return [...env, ...extra.filter((e) => !env.some((x) => x.name === e.name))];
}
