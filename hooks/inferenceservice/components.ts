import type { V1Container, V1PodSpec, V1Volume } from '@kubernetes/client-node';
import type { Parent } from '../kit/index.js';
import type { InferenceServiceConfig, RawSettings } from './config.js';
import { HTTP_PORT, SERVER_CONTAINER, serviceName } from './names.js';
import { podSpecFor, serverName, sidecarWithDefaults, withDefaults } from './pod/component-pod.js';
import { runtimePredictor } from './runtime/predictor.js';
import type { ServingRuntime } from './runtime/selection.js';
import { FRAMEWORK_KEYS, modelOf, type ComponentName, type ComponentSpec, type ContainerSpec, type InferenceServiceSpec, type ModelSpec } from './spec.js';
import { isStorageReadOnly, storagePlanFor } from './storage/uri.js';
import { MODEL_DIR, type StorageContext } from './storage/storage-plan.js';
import type { CredentialFindings } from './storage/credentials/findings.js';
import { PLACEHOLDER, type ModelStorageSpec } from './storage/credentials/storage-spec.js';
import { withKServeEnv } from './pod/env.js';
import { artContainer, type ArtSpec } from './runtime/explainer-art.js';
import { implementationOf } from './runtime/implementations.js';
import { modelStorageSource, serverWithStorage, storageUrisOf } from './storage/source.js';

/** One component's pod and the port its Service targets. */
export interface ComponentPlan {
  role: ComponentName;
  spec: ComponentSpec;
  pod: V1PodSpec;
  port: { containerPort: number; name: string };
  /** The serving runtime the predictor runs, the status field that names it, and its pod labels and annotations. */
  runtime?: {
    name: string;
    statusField: 'servingRuntimeName' | 'clusterServingRuntimeName';
    labels: Record<string, string>;
    annotations: Record<string, string>;
    /** The labels KServe's SetRuntimeDefaults adds to the InferenceService (runtime/predictor.ts isvcLabels). */
    isvcLabels: Record<string, string>;
  };
  /**
   * The internal annotations KServe's component reconciler adds to the component's metadata
   * (components/component.go addLoggerAnnotations, addBatcherAnnotations, addStorageSpecAnnotations;
   * the storage-initializer source URI): over the InferenceService's, under the component's own.
   */
  annotations?: Record<string, string>;
  /** KServe's agent sidecar logs or batches in front of the server: the Service targets it (agent.ts). */
  agent?: boolean;
  /** What the lookups of its storage initializer's credentials found (the plan joins them for the status). */
  credentials: CredentialFindings;
  /** KServe's raw-mode Deployment and Service settings (config.ts RawSettings), from the configuration. */
  raw?: RawSettings;
  /** MODELHOOKS_POD_INJECTION (config.ts): where KServe's pod webhook's additions go. */
  podInjection?: InferenceServiceConfig['podInjection'];
}

export type PredictorOutcome = { plan: ComponentPlan } | { failure: { reason: string; message: string } };

export interface BuildContext {
  parent: Parent<InferenceServiceSpec>;
  config: InferenceServiceConfig;
  /** The related ServiceAccounts and Secrets the storage initializer's credentials come from. */
  storage: StorageContext;
  /** The namespace's ServingRuntimes and the cluster's (or the built-in) ClusterServingRuntimes. */
  runtimes: { namespaced: ServingRuntime[]; cluster: ServingRuntime[] };
}

const STORAGE_URI_ENV = 'STORAGE_URI';

/** A transformer or explainer modelhooks cannot serve (implementations.ts): its condition says why. */
export interface Unserved {
  role: 'transformer' | 'explainer';
  reason: string;
  message: string;
}

/**
 * Every component's pod, predictor first; a model no runtime serves is a failure. A
 * transformer or explainer that cannot be served is left out, with why, and the rest is planned.
 */
export function componentPlans(ctx: BuildContext): { plans: ComponentPlan[]; unserved: Unserved[] } | { failure: { reason: string; message: string } } {
  const predictor = predictorPlan(ctx);
  if ('failure' in predictor) return predictor;
  const plans: ComponentPlan[] = [predictor.plan];
  const unserved: Unserved[] = [];
  for (const role of ['transformer', 'explainer'] as const) {
    const spec = ctx.parent.spec[role];
    if (!spec) continue;
    const impl = implementationOf(ctx.parent.spec, role);
    if (impl.kind === 'unsupported') unserved.push({ role, reason: impl.reason, message: impl.message });
    else plans.push(impl.kind === 'art' ? artPlan(ctx, spec, impl.art) : customPlan(ctx, role, spec));
  }
  return { plans: plans.map((p) => ({ ...p, raw: ctx.config.raw, podInjection: ctx.config.podInjection })), unserved };
}

/**
 * KServe's ART explainer (explainer-art.ts): its container, its storageUri downloaded by the
 * storage initializer to /mnt/models (controller/components/explainer.go sets the source-URI
 * annotation the pod webhook injects from), or its storageUris (raw_kube_reconciler.go).
 */
function artPlan(ctx: BuildContext, spec: ComponentSpec, art: ArtSpec): ComponentPlan {
  const first = artContainer(ctx.parent, art, spec.containerConcurrency, ctx.config.explainers.art, predictorHostOf(ctx.parent));
  const uris = storageUrisOf(spec);
  const source =
    uris.length > 0
      ? { uris, legacy: false, field: 'spec.explainer.storageUris' }
      : { uris: art.storageUri ? [{ uri: art.storageUri, mountPath: MODEL_DIR }] : [], legacy: true, field: 'spec.explainer.art.storageUri' };
  const { storage, found } = storagePlanFor(
    source,
    ctx.storage,
    { name: spec.serviceAccountName, field: 'spec.explainer.serviceAccountName' },
    readOnlyOf(ctx, spec),
  );
  const server = serverWithStorage(
    withDefaults(first, SERVER_CONTAINER, { nonRoot: false, resources: ctx.config.inferenceServiceResource, restricted: restrictedOf(ctx) }),
    storage,
  );
  return {
    role: 'explainer',
    spec,
    pod: withKServeEnv(podSpecFor(podFieldsOf(ctx, spec), [server], storage, [], restrictedOf(ctx)), 'explainer', ctx.parent.metadata.name),
    port: portOf(server),
    credentials: found,
    annotations: internalAnnotations(spec, { uri: art.storageUri, batcher: false }),
  };
}

/** The predictor: the selected serving runtime for the model, or the user's own containers. */
function predictorPlan(ctx: BuildContext): PredictorOutcome {
  const spec = ctx.parent.spec.predictor;
  const model = modelOf(spec);
  if (!model) return { plan: customPlan(ctx, 'predictor', spec) };
  const framework = FRAMEWORK_KEYS.find((k) => spec[k] !== undefined);
  // KServe's webhook turns a framework's spec into a `model:` before defaulting it (setPredictorModelDefaults
  // runs before Default(), inference_service_defaults.go DefaultInferenceService), and ModelSpec.Default is
  // empty (predictor_model.go): the ConfigMap's inferenceService.resource never reaches a runtime's
  // container, which keeps the runtime's resources merged with the model's, or none.
  const resolved = resolvedRuntime(ctx.parent.spec, { metadata: ctx.parent.metadata, runtimes: ctx.runtimes, modelReadiness: ctx.config.modelReadiness });
  if ('reason' in resolved) return { failure: { reason: resolved.reason, message: resolved.message } };
  const { container: merged, readinessProbe } = resolved;
  const runAsUser = merged.securityContext?.runAsUser;
  const defaults = {
    nonRoot: true,
    ...(runAsUser !== undefined ? { runAsUser } : {}),
    ...(readinessProbe ? { readinessProbe } : {}),
    resources: 'none' as const,
    restricted: restrictedOf(ctx),
  };
  const container = withDefaults(merged as ContainerSpec, serverName(merged as ContainerSpec), defaults);
  const field = `spec.predictor.${framework ?? 'model'}`;
  const account = { name: spec.serviceAccountName, field: 'spec.predictor.serviceAccountName' };
  const { storage, found } = storagePlanFor(modelStorageSource(spec, model, field), ctx.storage, account, readOnlyOf(ctx, spec));
  const server = inUsualOrder(serverWithStorage(container, storage));
  // The runtime's pod fields under the user's (MergePodSpec); its volumes unless the user has a namesake.
  const userVolumes = new Set((Array.isArray(spec.volumes) ? (spec.volumes as V1Volume[]) : []).map((v) => v.name));
  const podSpec = { ...resolved.pod.fields, ...podFieldsOf(ctx, spec) } as ComponentSpec;
  const runtimeVolumes = resolved.pod.volumes.filter((v) => !userVolumes.has(v.name));
  const sidecars = resolved.sidecars.map((c) => sidecarWithDefaults(c as ContainerSpec, c.name, restrictedOf(ctx)));
  const pod = withKServeEnv(
    podSpecFor(podSpec, [server, ...sidecars, ...extraContainers(spec, restrictedOf(ctx))], storage, runtimeVolumes, restrictedOf(ctx)),
    'predictor',
    ctx.parent.metadata.name,
  );
  const { runtime, statusField } = resolved.choice;
  const meta = { labels: runtime.spec.labels ?? {}, annotations: runtime.spec.annotations ?? {} };
  const annotations = internalAnnotations(spec, { uri: model.storageUri, storage: model.storage as ModelStorageSpec | undefined, batcher: true });
  return {
    plan: {
      role: 'predictor',
      spec,
      pod,
      port: portOf(server),
      runtime: { name: runtime.metadata.name, statusField, ...meta, isvcLabels: resolved.isvcLabels },
      credentials: found,
      annotations,
    },
  };
}

/** What runtimePredictor reads besides the spec. */
interface RuntimeInputs {
  metadata: Parent<unknown>['metadata'];
  runtimes: BuildContext['runtimes'];
  /** MODELHOOKS_MODEL_READINESS: the model-aware probe instead of KServe's TCP one. */
  modelReadiness: boolean;
}

/**
 * runtimePredictor on the spec and its inputs: selecting the runtime and merging and templating
 * its container. Not memoized: it runs only when the settled plan (plan.ts) misses, and a memo of
 * it (until 2026-11-26) was keyed by the parent's name too, so a new parent always missed; it
 * saved 10–30 µs only when a Secret or the configuration changed.
 */
function resolvedRuntime(spec: InferenceServiceSpec, i: RuntimeInputs) {
  return runtimePredictor({ metadata: i.metadata, spec } as Parent<InferenceServiceSpec>, modelOf(spec.predictor) as ModelSpec, i.runtimes, i.modelReadiness);
}

/** The pods are built for the restricted Pod Security Standard (MODELHOOKS_POD_SECURITY, the Namespace's enforce label). */
const restrictedOf = (ctx: BuildContext): boolean => ctx.config.podSecurity === 'restricted';

/**
 * A component of the user's own containers (the custom predictor, a transformer, an
 * explainer): the first container serves; a STORAGE_URI env is downloaded as KServe does.
 */
function customPlan(ctx: BuildContext, role: ComponentName, spec: ComponentSpec): ComponentPlan {
  const [first = {}, ...rest] = spec.containers ?? [];
  const uri = (first.env ?? []).find((e) => e.name === STORAGE_URI_ENV && typeof e.value === 'string' && e.value !== '')?.value as string | undefined;
  const uris = storageUrisOf(spec);
  const source =
    uris.length > 0
      ? { uris, legacy: false, field: `spec.${role}.storageUris` }
      : { uris: uri ? [{ uri, mountPath: MODEL_DIR }] : [], legacy: true, field: `spec.${role}.containers[0].env` };
  const { storage, found } = storagePlanFor(
    source,
    ctx.storage,
    { name: spec.serviceAccountName, field: `spec.${role}.serviceAccountName` },
    readOnlyOf(ctx, spec),
  );
  const env = uri ? (first.env ?? []).map((e) => (e.name === STORAGE_URI_ENV ? { name: STORAGE_URI_ENV, value: MODEL_DIR } : e)) : first.env;
  // KServe's transformer and explainer arguments (transformer_custom.go, explainer_custom.go GetContainer).
  const args = role === 'predictor' ? first.args : componentArgs(ctx.parent, first.args ?? [], spec.containerConcurrency);
  // Default(): a transformer's or explainer's first container is always kserve-container, a
  // custom predictor's when it is alone or unnamed (transformer_custom.go, explainer_custom.go, predictor_custom.go).
  const name = role !== 'predictor' || rest.length === 0 ? SERVER_CONTAINER : serverName(first);
  const user: ContainerSpec = { ...first, name, ...(env ? { env } : {}), ...(args ? { args } : {}) };
  const main = withDefaults(user, name, { nonRoot: false, resources: ctx.config.inferenceServiceResource, restricted: restrictedOf(ctx) });
  const server = serverWithStorage(main, storage);
  const others = rest.map((c, i) => sidecarWithDefaults(c, `${role}-container-${i + 1}`, restrictedOf(ctx)));
  return {
    role,
    spec,
    pod: withKServeEnv(podSpecFor(podFieldsOf(ctx, spec), [server, ...others], storage, [], restrictedOf(ctx)), role, ctx.parent.metadata.name),
    port: portOf(server),
    credentials: found,
    // explainer.go adds no batcher annotations.
    annotations: internalAnnotations(spec, { uri, batcher: role !== 'explainer' }),
  };
}

/**
 * The component's pod fields, with automountServiceAccountToken false when KServe's
 * security.autoMountServiceAccountToken is false and the component sets none
 * (inference_service_defaults.go disableAutomountServiceAccountToken).
 */
function podFieldsOf(ctx: BuildContext, spec: ComponentSpec): ComponentSpec {
  if (ctx.config.automountServiceAccountToken || spec.automountServiceAccountToken !== undefined) return spec;
  return { ...spec, automountServiceAccountToken: false };
}

/** storage.kserve.io/readonly from the component's pod annotations: the InferenceService's, the component's over them (components/predictor.go buildObjectMeta). */
function readOnlyOf(ctx: BuildContext, spec: ComponentSpec): boolean {
  return isStorageReadOnly({ ...(ctx.parent.metadata.annotations ?? {}), ...(spec.annotations ?? {}) });
}

/** utils.IncludesArg (pkg/utils/collections.go): an argument equal to the flag or starting with it. */
export const includesArg = (args: readonly string[], flag: string) => args.some((a) => a === flag || a.startsWith(flag));

/**
 * KServe's transformer and custom explainer arguments, appended after the user's, each only
 * when the user did not pass it: --model_name, --predictor_host <n>-predictor.<ns>,
 * --http_port 8080, and --workers from containerConcurrency (transformer_custom.go,
 * explainer_custom.go GetContainer; utils.IncludesArg). KServe appends an explainer's
 * --http_port even when the user passed one (the last wins); here the user's is kept.
 */
function componentArgs(parent: Parent<unknown>, args: string[], containerConcurrency: number | undefined): string[] {
  const extra: string[] = [];
  if (!includesArg(args, '--model_name')) extra.push('--model_name', parent.metadata.name);
  if (!includesArg(args, '--predictor_host')) extra.push('--predictor_host', predictorHostOf(parent));
  if (!includesArg(args, '--http_port')) extra.push('--http_port', String(HTTP_PORT));
  if (containerConcurrency !== undefined && !includesArg(args, '--workers')) extra.push('--workers', String(containerConcurrency));
  return [...args, ...extra];
}

/** `<n>-predictor.<namespace>`: the predictor host KServe passes a transformer or explainer (constants.PredictorServiceName). */
export const predictorHostOf = (parent: Parent<unknown>) => `${serviceName(parent, 'predictor')}.${parent.metadata.namespace}`;

/** Containers beside a model (KServe's collocated transformer), kept as the user wrote them. */
function extraContainers(spec: ComponentSpec, restricted: boolean): V1Container[] {
  return (spec.containers ?? []).map((c, i) => sidecarWithDefaults(c, `container-${i + 1}`, restricted));
}

const FIRST = ['name', 'image', 'command', 'args', 'workingDir', 'env', 'envFrom'];
const LAST = ['ports', 'resources', 'securityContext', 'readinessProbe', 'startupProbe', 'livenessProbe', 'volumeMounts'];
/** Each named field's place: FIRST ones before any other field, LAST ones after; the rest keep their order (rank 0). */
const RANK = new Map<string, number>([...FIRST.map((k, i): [string, number] => [k, i - 100]), ...LAST.map((k, i): [string, number] => [k, i + 100])]);
/** A container's fields in the order readers expect (identity first, probes and mounts last), whatever the runtime's order. */
function inUsualOrder(c: V1Container): V1Container {
  const rank = (k: string) => RANK.get(k) ?? 0;
  return Object.fromEntries(Object.entries(c).sort(([a], [b]) => rank(a) - rank(b))) as unknown as V1Container;
}

/** pkg/constants/constants.go: the internal annotations a component reconciler writes (InferenceServiceInternalAnnotationsPrefix). */
const INTERNAL = 'internal.serving.kserve.io';

/**
 * The internal annotations of one component's metadata, in KServe's order (a later one wins):
 * addLoggerAnnotations (mode `all` where the spec names none: KServe's validator refuses an
 * empty mode, modelhooks serves it as `all`), addBatcherAnnotations (predictor, transformer),
 * addStorageSpecAnnotations (components/component.go), the storage initializer's source URI
 * (components/predictor.go addStorageInitializerAnnotations, transformer.go, explainer.go).
 */
export function internalAnnotations(
  spec: ComponentSpec,
  o: { uri?: string | undefined; storage?: ModelStorageSpec | undefined; batcher: boolean },
): Record<string, string> {
  const out: Record<string, string> = {};
  const logger = spec.logger;
  if (logger) {
    out[`${INTERNAL}/logger`] = 'true';
    if (logger.url !== undefined) out[`${INTERNAL}/logger-sink-url`] = logger.url;
    out[`${INTERNAL}/logger-mode`] = logger.mode ?? 'all';
    if (logger.metadataHeaders) out[`${INTERNAL}/logger-metadata-headers`] = logger.metadataHeaders.join(',');
    if (logger.metadataAnnotations) out[`${INTERNAL}/logger-metadata-annotations`] = logger.metadataAnnotations.join(',');
  }
  const batcher = o.batcher ? spec.batcher : undefined;
  if (batcher) {
    out[`${INTERNAL}/batcher`] = 'true';
    if (batcher.maxBatchSize !== undefined) out[`${INTERNAL}/batcher-max-batchsize`] = String(batcher.maxBatchSize);
    if (batcher.maxLatency !== undefined) out[`${INTERNAL}/batcher-max-latency`] = String(batcher.maxLatency);
  }
  const storage = o.storage;
  if (storage && typeof storage === 'object') {
    out[`${INTERNAL}/storage-spec`] = 'true';
    // encoding/json writes a map's keys sorted.
    if (storage.parameters)
      out[`${INTERNAL}/storage-spec-param`] = JSON.stringify(Object.fromEntries(Object.entries(storage.parameters).sort(([a], [b]) => (a < b ? -1 : 1))));
    if (storage.key !== undefined) out[`${INTERNAL}/storage-spec-key`] = storage.key;
    if (storage.path !== undefined)
      out[`${INTERNAL}/storage-initializer-sourceuri`] = `${PLACEHOLDER}://${storage.path.startsWith('/') ? storage.path.slice(1) : storage.path}`;
  }
  if (o.uri !== undefined) out[`${INTERNAL}/storage-initializer-sourceuri`] = o.uri;
  return out;
}

function portOf(c: V1Container): { containerPort: number; name: string } {
  const p = c.ports?.[0];
  return { containerPort: p?.containerPort ?? 8080, name: p?.name ?? 'http' };
}
