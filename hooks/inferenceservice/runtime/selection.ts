import type { V1Container } from '@kubernetes/client-node';
import { isRecord, type KubeObject } from '../../kit/index.js';
import type { ModelSpec } from '../spec.js';

/*
 * Serving runtimes as KServe v0.20.0 selects them: ServingRuntimes of the parent's namespace
 * and ClusterServingRuntimes (pkg/apis/serving/v1beta1/predictor_model.go GetSupportingRuntimes,
 * pkg/controller/v1beta1/inferenceservice/components/predictor.go reconcileModel,
 * pkg/controller/v1beta1/inferenceservice/utils/utils.go GetServingRuntime).
 */

export const RUNTIME_API_VERSION = 'serving.kserve.io/v1alpha1';
export const SERVING_RUNTIME = { apiVersion: RUNTIME_API_VERSION, kind: 'ServingRuntime', resource: 'servingruntimes' } as const;
export const CLUSTER_SERVING_RUNTIME = { apiVersion: RUNTIME_API_VERSION, kind: 'ClusterServingRuntime', resource: 'clusterservingruntimes' } as const;
/** KServe's server type of a runtime (constants.ServerTypeAnnotationKey). */
export const SERVER_TYPE_ANNOTATION = 'serving.kserve.io/server-type';

export interface SupportedModelFormat {
  name: string;
  version?: string;
  autoSelect?: boolean;
  priority?: number;
}

/** The fields of a ServingRuntimeSpec that raw single-model serving reads. */
export interface ServingRuntimeSpec {
  supportedModelFormats?: SupportedModelFormat[];
  protocolVersions?: string[];
  disabled?: boolean;
  multiModel?: boolean;
  workerSpec?: unknown;
  containers?: V1Container[];
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
  [field: string]: unknown;
}

export interface ServingRuntime {
  apiVersion: string;
  kind: 'ServingRuntime' | 'ClusterServingRuntime';
  metadata: { name: string; namespace?: string; annotations?: Record<string, string>; creationTimestamp?: string };
  spec: ServingRuntimeSpec;
}

/** The runtime chosen for a model, and the status field that names it. */
export interface RuntimeChoice {
  runtime: ServingRuntime;
  statusField: 'servingRuntimeName' | 'clusterServingRuntimeName';
}

export interface RuntimeFailure {
  reason: 'RuntimeNotRecognized' | 'RuntimeDisabled' | 'NoSupportingRuntime' | 'InvalidPredictorSpec';
  message: string;
}

/**
 * The runtimes a parent may use: its namespace's ServingRuntimes (one in another namespace is
 * ignored, whatever `related` offers) and the cluster's ClusterServingRuntimes — or, when the
 * cluster has none, KServe's shipped set (`builtin`).
 */
export function runtimesFrom(related: KubeObject[], namespace: string, builtin: ServingRuntime[]): { namespaced: ServingRuntime[]; cluster: ServingRuntime[] } {
  const ofKind = (kind: string) =>
    related.filter((o) => o.apiVersion === RUNTIME_API_VERSION && o.kind === kind && wellFormed(o)) as unknown as ServingRuntime[];
  const namespaced = ofKind('ServingRuntime').filter((r) => r.metadata.namespace === namespace);
  const cluster = ofKind('ClusterServingRuntime').filter((r) => !r.metadata.namespace);
  return { namespaced, cluster: cluster.length > 0 ? cluster : builtin };
}

const arrayOf = (v: unknown, item: (x: unknown) => boolean) => v === undefined || (Array.isArray(v) && v.every(item));
const isString = (x: unknown) => typeof x === 'string';
const stringMap = (v: unknown) => v === undefined || (isRecord(v) && Object.values(v).every(isString));

/**
 * A runtime whose fields have the types KServe's CRD gives them. The API server enforces that
 * for KServe's CRD; ours keeps unknown fields, and a request may carry anything: a runtime of
 * another shape is not one (never a 500).
 */
function wellFormed(o: KubeObject): boolean {
  const spec = o.spec;
  if (!isRecord(spec) || !stringMap(o.metadata.annotations) || !(o.metadata.creationTimestamp === undefined || isString(o.metadata.creationTimestamp)))
    return false;
  const format = (f: unknown) =>
    isRecord(f) &&
    isString(f.name) &&
    (f.version === undefined || isString(f.version)) &&
    (f.priority === undefined || Number.isInteger(f.priority)) &&
    (f.autoSelect === undefined || typeof f.autoSelect === 'boolean');
  const container = (c: unknown) => isRecord(c) && isString(c.name);
  return (
    arrayOf(spec.supportedModelFormats, format) &&
    arrayOf(spec.protocolVersions, isString) &&
    arrayOf(spec.containers, container) &&
    arrayOf(spec.volumes, (v) => isRecord(v) && isString(v.name)) &&
    stringMap(spec.annotations) &&
    stringMap(spec.labels)
  );
}

const PROTOCOL_RANK: Record<string, number> = { v1: 1, v2: 2, 'grpc-v1': 3, 'grpc-v2': 4 };
const UNKNOWN_PROTOCOL = 5;

/** The lowest-ranked protocol a runtime speaks (GetProtocolVersionPriority), Unknown without any. */
export function protocolRank(spec: ServingRuntimeSpec): number {
  const ranks = (spec.protocolVersions ?? []).map((p) => PROTOCOL_RANK[p] ?? UNKNOWN_PROTOCOL);
  return ranks.length === 0 ? UNKNOWN_PROTOCOL : Math.min(...ranks);
}
const PROTOCOL_OF_RANK = Object.fromEntries(Object.entries(PROTOCOL_RANK).map(([p, r]) => [r, p]));
/** The protocol KServe assigns a model that names none: the runtime's first by rank. */
export const defaultProtocolOf = (spec: ServingRuntimeSpec): string => PROTOCOL_OF_RANK[protocolRank(spec)] ?? 'unknown';

/** IsProtocolVersionSupported: a runtime that lists no protocols speaks any. */
const speaks = (spec: ServingRuntimeSpec, protocol: string) =>
  !spec.protocolVersions || spec.protocolVersions.length === 0 || spec.protocolVersions.includes(protocol);

/**
 * RuntimeSupportsModel: the model's `mt:<name>[:<version>]` label is among the runtime's
 * format labels — only auto-selectable formats unless the model names its runtime.
 */
export function supportsModel(spec: ServingRuntimeSpec, model: Pick<ModelSpec, 'modelFormat' | 'runtime'>): boolean {
  const { name, version } = model.modelFormat;
  const wanted = version !== undefined ? `mt:${name}:${version}` : `mt:${name}`;
  for (const f of spec.supportedModelFormats ?? []) {
    if (model.runtime === undefined && f.autoSelect !== true) continue;
    if (`mt:${f.name}` === wanted || (f.version !== undefined && `mt:${f.name}:${f.version}` === wanted)) return true;
  }
  return false;
}

/** GetPriority: the priority of the runtime's first format of that name (undefined: none). */
const priorityOf = (spec: ServingRuntimeSpec, format: string) => spec.supportedModelFormats?.find((f) => f.name === format)?.priority;

/** Protocol rank ascending, then newest first, then name (sortServingRuntimeList). */
function listOrder(a: ServingRuntime, b: ServingRuntime): number {
  const rank = protocolRank(a.spec) - protocolRank(b.spec);
  if (rank !== 0) return rank;
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? 1 : -1;
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}

/**
 * sortSupportedRuntimeByPriority: higher priority first, a runtime without one after those
 * with one. KServe's sort.Slice is an insertion sort for the few runtimes a model has, so
 * ties keep their order: a stable sort here.
 */
function byPriority(format: string) {
  return (a: ServingRuntime, b: ServingRuntime) => {
    const pa = priorityOf(a.spec, format);
    const pb = priorityOf(b.spec, format);
    if (pa === undefined) return pb === undefined ? 0 : 1;
    if (pb === undefined) return -1;
    return pb - pa;
  };
}

/** GetSupportingRuntimes for single-model, single-node serving: namespaced ones first. */
export function supportingRuntimes(
  model: ModelSpec,
  protocol: string,
  runtimes: { namespaced: ServingRuntime[]; cluster: ServingRuntime[] },
): ServingRuntime[] {
  const fits = (r: ServingRuntime) =>
    r.spec.disabled !== true && r.spec.multiModel !== true && r.spec.workerSpec === undefined && supportsModel(r.spec, model) && speaks(r.spec, protocol);
  const sorted = (list: ServingRuntime[]) => inListOrder(list).filter(fits).sort(byPriority(model.modelFormat.name));
  return [...sorted(runtimes.namespaced), ...sorted(runtimes.cluster)];
}

/** A frozen list (the built-in set, kserve-runtimes.ts) in list order, sorted once: it cannot change. */
const orderOfFrozen = new WeakMap<readonly ServingRuntime[], readonly ServingRuntime[]>();

function inListOrder(list: ServingRuntime[]): readonly ServingRuntime[] {
  if (!Object.isFrozen(list)) return [...list].sort(listOrder);
  let sorted = orderOfFrozen.get(list);
  if (sorted === undefined) {
    sorted = Object.freeze([...list].sort(listOrder));
    orderOfFrozen.set(list, sorted);
  }
  return sorted;
}

/**
 * The runtime of a model as KServe's reconcileModel chooses it. `protocol` is the one the
 * model states (after KServe's defaulting), undefined when it states none.
 */
export function selectRuntime(
  model: ModelSpec,
  protocol: string | undefined,
  runtimes: { namespaced: ServingRuntime[]; cluster: ServingRuntime[] },
): RuntimeChoice | RuntimeFailure {
  if (model.runtime !== undefined) {
    const name = model.runtime;
    const namespaced = runtimes.namespaced.find((r) => r.metadata.name === name);
    const runtime = namespaced ?? runtimes.cluster.find((r) => r.metadata.name === name);
    const field = 'spec.predictor.model.runtime';
    if (!runtime)
      return {
        reason: 'RuntimeNotRecognized',
        message: `${field}: no ServingRuntime in this namespace and no ClusterServingRuntime is named ${name}; waiting for it to become available`,
      };
    if (runtime.spec.disabled === true) return { reason: 'RuntimeDisabled', message: `${field}: ${runtime.kind} ${name} is disabled` };
    if (protocol !== undefined && !speaks(runtime.spec, protocol)) {
      return { reason: 'NoSupportingRuntime', message: `${field}: ${runtime.kind} ${name} does not support protocol ${protocol}` };
    }
    if (!supportsModel(runtime.spec, model)) {
      return { reason: 'NoSupportingRuntime', message: `${field}: ${runtime.kind} ${name} does not support model format ${formatLabel(model)}` };
    }
    if (runtime.spec.workerSpec !== undefined || runtime.spec.multiModel === true) {
      return {
        reason: 'NoSupportingRuntime',
        message: `${field}: ${runtime.kind} ${name} is a ${runtime.spec.multiModel === true ? 'multi-model' : 'multi-node'} runtime, which raw single-model serving does not run`,
      };
    }
    return { runtime, statusField: namespaced ? 'servingRuntimeName' : 'clusterServingRuntimeName' };
  }
  const [best] = supportingRuntimes(model, protocol ?? 'v1', runtimes);
  if (!best) {
    return { reason: 'NoSupportingRuntime', message: `no runtime found to support model format ${formatLabel(model)} with protocol ${protocol ?? 'v1'}` };
  }
  // GetServingRuntime looks the chosen name up namespace first, like an explicit name.
  const namespaced = runtimes.namespaced.some((r) => r.metadata.name === best.metadata.name);
  return { runtime: best, statusField: namespaced ? 'servingRuntimeName' : 'clusterServingRuntimeName' };
}

const formatLabel = (model: ModelSpec) => `${model.modelFormat.name}${model.modelFormat.version !== undefined ? ` version ${model.modelFormat.version}` : ''}`;

/** The server type: the runtime's annotation, else KServe's known runtime names (GetServerTypeFromRuntimeName). */
export function serverTypeOf(runtime: ServingRuntime): string {
  const annotated = runtime.metadata.annotations?.[SERVER_TYPE_ANNOTATION];
  if (annotated) return annotated;
  const byName: Record<string, string> = {
    'kserve-mlserver': 'mlserver',
    'kserve-torchserve': 'torchserve',
    'kserve-tritonserver': 'tritonserver',
    'kserve-tensorflow-serving': 'tensorflow-serving',
    'kserve-huggingfaceserver': 'huggingfaceserver',
    'kserve-vllmserver': 'vllmserver',
  };
  return byName[runtime.metadata.name] ?? '';
}

/**
 * The protocol KServe's defaulting webhook gives a model (setPredictorModelDefaults): the
 * triton, onnx and huggingface framework keys and the triton and vLLM formats default to v2;
 * otherwise the model states none (undefined) until a runtime is chosen.
 */
export function protocolOf(model: ModelSpec, frameworkKey: string | undefined): string | undefined {
  if (model.protocolVersion) return model.protocolVersion;
  if (frameworkKey === 'triton' || frameworkKey === 'onnx' || frameworkKey === 'huggingface') return 'v2';
  if (model.modelFormat.name === 'triton' || model.modelFormat.name === 'vLLM') return 'v2';
  return undefined;
}
