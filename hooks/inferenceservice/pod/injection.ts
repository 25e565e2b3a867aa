import type { V1Container, V1EnvVar, V1PodSpec, V1SecurityContext, V1Volume, V1VolumeMount } from '@kubernetes/client-node';

/*
 * MODELHOOKS_POD_INJECTION=webhook: the Deployment's pod template is KServe's controller's, and
 * what KServe v0.20.0's pod webhook (pkg/webhook/admission/pod/mutator.go) adds to each Pod at
 * admission is added by modelhooks' pod webhook instead (server/app.ts, /mutate-pods):
 *
 * - storage_initializer_injector.go InjectStorageInitializer, for a pod whose template carries
 *   internal.serving.kserve.io/storage-initializer-sourceuri: the `storage-initializer` init
 *   container, its volumes (kserve-provision-location, a pvc:// claim, credentials, the CA
 *   bundle) and the serving container's mounts of them;
 * - InjectModelcar (pkg/utils/storage.go ConfigureModelcarToContainer, CreateModelcarContainer,
 *   CreateModelcarInitContainer), for an oci:// source URI: `modelcar`, `modelcar-init`, their
 *   volume, MODEL_INIT_MODE and runAsUser on the serving container, shareProcessNamespace;
 * - agent_injector.go InjectAgent: the `agent` container (logger, batcher) and its CA bundle;
 * - metrics_aggregate_injector.go InjectMetricsAggregator: the enable-metric-aggregation,
 *   enable-prometheus-scraping and prometheus.io/* pod annotations.
 *
 * The pods are built whole (component-pod.ts, agent.ts, storage/), as in template mode; `split`
 * takes those additions back out of the template and keeps them as a PodInjection, written on
 * the Deployment's metadata (never its template) for the webhook to apply to each Pod.
 */

/** Where the Deployment carries its pods' injection (its metadata: a change to it rolls no pod). */
export const POD_INJECTION_ANNOTATION = 'modelhooks.dev/pod-injection';
/** constants.StorageInitializerSourceUriInternalAnnotationKey: the webhook injects storage only for a pod with it. */
export const SOURCE_URI_ANNOTATION = 'internal.serving.kserve.io/storage-initializer-sourceuri';
/** Every Pod KServe's webhook mutated has it (InjectMetricsAggregator writes it always). */
export const METRIC_AGGREGATION_ANNOTATION = 'serving.kserve.io/enable-metric-aggregation';

const STORAGE_INITIALIZER = 'storage-initializer';
/** storage_initializer_injector.go PvcSourceMountName: a pvc:// model mounted directly, no init container. */
const PVC_SOURCE_VOLUME = 'kserve-pvc-source';
const MODEL_INIT_MODE = 'MODEL_INIT_MODE';
const isModelcar = (name: string) => name === 'modelcar' || /^modelcar-\d+$/.test(name);
const isModelcarInit = (name: string) => name === 'modelcar-init' || /^modelcar-init-\d+$/.test(name);

/** What the webhook adds to a container the template has: mounts appended, env set by name, security fields set. */
export interface ContainerEdit {
  name: string;
  volumeMounts?: V1VolumeMount[];
  env?: V1EnvVar[];
  securityContext?: V1SecurityContext;
}

/**
 * What the pod webhook adds to one Deployment's Pods. `order` is the full pod's order of each
 * list (by name), so that the Pod comes out exactly as the whole pod was built.
 */
export interface PodInjection {
  annotations?: Record<string, string>;
  initContainers?: V1Container[];
  containers?: V1Container[];
  volumes?: V1Volume[];
  edits?: ContainerEdit[];
  shareProcessNamespace?: boolean;
  order: { initContainers: string[]; containers: string[]; volumes: string[] };
}

export interface PodTemplate {
  annotations: Record<string, string>;
  spec: V1PodSpec;
}

/**
 * The whole pod (`full`, its annotations as KServe's webhook leaves them) split into KServe's
 * template (its annotations `templateAnnotations`: the controller's, componentMeta) and what
 * KServe's pod webhook adds.
 */
export function splitInjection(full: PodTemplate, templateAnnotations: Record<string, string>): { template: PodTemplate; injection: PodInjection } {
  const spec = full.spec;
  const storage = full.annotations[SOURCE_URI_ANNOTATION] !== undefined;
  const injectedInit = (c: V1Container) => storage && (c.name === STORAGE_INITIALIZER || isModelcarInit(c.name));
  // The agent is only ever the webhook's in raw mode; a model car only with a source URI (storageUris are the controller's).
  const injectedContainer = (c: V1Container) => c.name === 'agent' || (storage && isModelcar(c.name));
  const initContainers = spec.initContainers ?? [];
  const removedInit = initContainers.filter(injectedInit);
  const removedContainers = spec.containers.filter(injectedContainer);
  const modelcar = removedContainers.some((c) => isModelcar(c.name));
  const injectedVolumeNames = new Set([...removedInit, ...removedContainers].flatMap((c) => (c.volumeMounts ?? []).map((m) => m.name)));
  if (storage) injectedVolumeNames.add(PVC_SOURCE_VOLUME);
  const volumes = spec.volumes ?? [];
  const removedVolumes = volumes.filter((v) => injectedVolumeNames.has(v.name));

  const edits: ContainerEdit[] = [];
  const kept = spec.containers.filter((c) => !injectedContainer(c)).map((c) => withoutInjected(c, injectedVolumeNames, modelcar, edits));
  const keptInit = initContainers.filter((c) => !injectedInit(c)).map((c) => withoutInjected(c, injectedVolumeNames, false, edits));
  const keptVolumes = volumes.filter((v) => !injectedVolumeNames.has(v.name));
  const { shareProcessNamespace, initContainers: _i, volumes: _v, ...rest } = spec;
  const template: V1PodSpec = {
    ...rest,
    ...(shareProcessNamespace !== undefined && !modelcar ? { shareProcessNamespace } : {}),
    ...(keptInit.length > 0 ? { initContainers: keptInit } : {}),
    containers: kept,
    ...(keptVolumes.length > 0 ? { volumes: keptVolumes } : {}),
  };
  // Restores the key order of the built pod (initContainers, containers, volumes after the pod fields).
  const ordered = Object.fromEntries(Object.keys(spec).flatMap((k) => (k in template ? [[k, template[k as keyof V1PodSpec]]] : []))) as unknown as V1PodSpec;
  const annotations = Object.fromEntries(Object.entries(full.annotations).filter(([k, v]) => templateAnnotations[k] !== v));
  const injection: PodInjection = {
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    ...(removedInit.length > 0 ? { initContainers: removedInit } : {}),
    ...(removedContainers.length > 0 ? { containers: removedContainers } : {}),
    ...(removedVolumes.length > 0 ? { volumes: removedVolumes } : {}),
    ...(edits.length > 0 ? { edits } : {}),
    ...(modelcar && shareProcessNamespace ? { shareProcessNamespace } : {}),
    order: { initContainers: initContainers.map((c) => c.name), containers: spec.containers.map((c) => c.name), volumes: volumes.map((v) => v.name) },
  };
  return { template: { annotations: { ...templateAnnotations }, spec: ordered }, injection };
}

/** The container as the controller writes it: without the mounts of injected volumes, and without a model car's env and user. */
function withoutInjected(c: V1Container, injectedVolumes: Set<string>, modelcar: boolean, edits: ContainerEdit[]): V1Container {
  const mounts = c.volumeMounts ?? [];
  const removedMounts = mounts.filter((m) => injectedVolumes.has(m.name));
  const serves = modelcar && c.name === 'kserve-container';
  const removedEnv = serves ? (c.env ?? []).filter((e) => e.name === MODEL_INIT_MODE) : [];
  const runAsUser = serves ? c.securityContext?.runAsUser : undefined;
  if (removedMounts.length === 0 && removedEnv.length === 0 && runAsUser === undefined) return c;
  edits.push({
    name: c.name,
    ...(removedMounts.length > 0 ? { volumeMounts: removedMounts } : {}),
    ...(removedEnv.length > 0 ? { env: removedEnv } : {}),
    ...(runAsUser !== undefined ? { securityContext: { runAsUser } } : {}),
  });
  const { volumeMounts: _m, env: _e, securityContext: _s, ...rest } = c;
  const keptMounts = mounts.filter((m) => !injectedVolumes.has(m.name));
  const keptEnv = (c.env ?? []).filter((e) => !removedEnv.includes(e));
  const security = runAsUser !== undefined ? (({ runAsUser: _u, ...s }) => s)(c.securityContext ?? {}) : c.securityContext;
  const out: V1Container = {
    ...rest,
    ...(keptEnv.length > 0 ? { env: keptEnv } : {}),
    ...(security && Object.keys(security).length > 0 ? { securityContext: security } : {}),
    ...(keptMounts.length > 0 ? { volumeMounts: keptMounts } : {}),
  };
  return Object.fromEntries(Object.keys(c).flatMap((k) => (k in out ? [[k, out[k as keyof V1Container]]] : []))) as unknown as V1Container;
}

export interface PodObject {
  metadata?: { annotations?: Record<string, string>; [k: string]: unknown };
  spec: V1PodSpec;
}

/**
 * The Pod with the injection applied, as KServe's webhook leaves it: each list in the whole
 * pod's order (the Pod's own items, edited, where it has them; the injected ones otherwise; any
 * other of the Pod's after them), the annotations added. Applying it twice changes nothing.
 */
export function applyInjection<P extends PodObject>(pod: P, injection: PodInjection): P {
  const edits = new Map((injection.edits ?? []).map((e) => [e.name, e]));
  const edited = (c: V1Container) => {
    const e = edits.get(c.name);
    if (!e) return c;
    const mounts = c.volumeMounts ?? [];
    const added = (e.volumeMounts ?? []).filter((m) => !mounts.some((x) => x.name === m.name && x.mountPath === m.mountPath));
    const env = e.env ? [...(c.env ?? []).filter((x) => !e.env?.some((y) => y.name === x.name)), ...e.env] : c.env;
    return {
      ...c,
      ...(env ? { env } : {}),
      ...(e.securityContext ? { securityContext: { ...(c.securityContext ?? {}), ...e.securityContext } } : {}),
      ...(mounts.length + added.length > 0 ? { volumeMounts: [...mounts, ...added] } : {}),
    };
  };
  const spec = pod.spec;
  const initContainers = inOrder(spec.initContainers ?? [], injection.initContainers ?? [], injection.order.initContainers).map(edited);
  const containers = inOrder(spec.containers, injection.containers ?? [], injection.order.containers).map(edited);
  const volumes = inOrder(spec.volumes ?? [], injection.volumes ?? [], injection.order.volumes);
  const annotations = { ...(pod.metadata?.annotations ?? {}), ...(injection.annotations ?? {}) };
  return {
    ...pod,
    metadata: { ...(pod.metadata ?? {}), ...(Object.keys(annotations).length > 0 ? { annotations } : {}) },
    spec: {
      ...spec,
      ...(injection.shareProcessNamespace !== undefined ? { shareProcessNamespace: injection.shareProcessNamespace } : {}),
      ...(initContainers.length > 0 ? { initContainers } : {}),
      containers,
      ...(volumes.length > 0 ? { volumes } : {}),
    },
  };
}

/** `own` and `injected` (by name, the Pod's own first) in `order`, then the Pod's items `order` does not name. */
function inOrder<T extends { name: string }>(own: T[], injected: T[], order: string[]): T[] {
  const byName = new Map<string, T>([...injected.map((x) => [x.name, x] as const), ...own.map((x) => [x.name, x] as const)]);
  return [...order.flatMap((n) => (byName.has(n) ? [byName.get(n) as T] : [])), ...own.filter((x) => !order.includes(x.name))];
}

/** A JSON Patch (RFC 6902) from `pod` to `patched`: `add` (which replaces) of each top-level field that differs. */
export function podPatch(pod: PodObject, patched: PodObject): Array<{ op: 'add' | 'remove'; path: string; value?: unknown }> {
  const ops: Array<{ op: 'add' | 'remove'; path: string; value?: unknown }> = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (!same(pod.metadata?.annotations, patched.metadata?.annotations)) {
    if (!pod.metadata) ops.push({ op: 'add', path: '/metadata', value: {} });
    ops.push({ op: 'add', path: '/metadata/annotations', value: patched.metadata?.annotations ?? {} });
  }
  const before = pod.spec as unknown as Record<string, unknown>;
  const after = patched.spec as unknown as Record<string, unknown>;
  for (const key of Object.keys(after)) if (!same(before[key], after[key])) ops.push({ op: 'add', path: `/spec/${key}`, value: after[key] });
  return ops;
}
