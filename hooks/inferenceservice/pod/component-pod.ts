import type { V1Container, V1ContainerPort, V1EnvVar, V1PodSpec, V1Probe, V1SecurityContext, V1Volume } from '@kubernetes/client-node';
import { restrictedContainer } from '../../kit/index.js';
import { mergedContainerSecurity, mergedPodSecurity } from './merged-security.js';
import { HTTP_PORT, SERVER_CONTAINER } from '../names.js';
import { passedPodFields } from './passthrough.js';
import type { ComponentSpec, ContainerSpec } from '../spec.js';
import type { StoragePlan } from '../storage/storage-plan.js';
import type { DefaultResources } from '../config.js';

/** KServe's default resources for a container that sets none (inferenceservice defaults). */
export const DEFAULT_RESOURCES = { requests: { cpu: '1', memory: '2Gi' }, limits: { cpu: '1', memory: '2Gi' } };

/** The pod of one component: its containers, the storage plan, and the user's pod fields. */
export function podSpecFor(
  component: ComponentSpec,
  containers: V1Container[],
  storage: StoragePlan,
  extraVolumes: V1Volume[] = [],
  restricted = false,
): V1PodSpec {
  const userVolumes = Array.isArray(component.volumes) ? (component.volumes as V1Volume[]) : [];
  const volumes = [...storage.volumes, ...extraVolumes, ...userVolumes];
  // The user's init containers run first (with the restricted defaults under them where the pods are
  // built for that level); KServe's storage initializer is appended after them (storage_initializer_injector.go).
  const userInit = Array.isArray(component.initContainers)
    ? (component.initContainers as V1Container[]).map((c) => (restricted ? { ...c, securityContext: mergedContainerSecurity(c.securityContext) } : c))
    : [];
  const initContainers = [...userInit, ...storage.initContainers];
  return {
    ...passedPodFields(component),
    ...(component.serviceAccountName ? { serviceAccountName: component.serviceAccountName } : {}),
    // The restricted pod defaults under the user's fields where the pods are built for that level (the pod
    // security check ran on the same merge); else the user's, or {} as setDefaultPodSpec leaves it (deployment_reconciler.go).
    securityContext: restricted ? mergedPodSecurity(component.securityContext) : ((component.securityContext as V1PodSpec['securityContext']) ?? {}),
    // A model car reaches the server through /proc: the pod shares one process namespace.
    ...(storage.shareProcessNamespace ? { shareProcessNamespace: true } : {}),
    ...(initContainers.length > 0 ? { initContainers } : {}),
    containers: [...containers.map(withKServeReadiness), ...(storage.sidecars ?? [])],
    ...(volumes.length > 0 ? { volumes } : {}),
  };
}

export interface ServerDefaults {
  /** Built-in images run as non-root; a user's image may not allow it. */
  nonRoot: boolean;
  runAsUser?: number;
  /**
   * Used when the container has none: modelhooks' model-aware probe (runtime/container.ts
   * readinessFor) where `modelReadiness` asks for it. Without it, podSpecFor gives KServe's TCP
   * probe to the containers KServe gives one (withKServeReadiness).
   */
  readinessProbe?: V1Probe;
  /** inferenceService.resource from KServe's ConfigMap (config.ts), in place of DEFAULT_RESOURCES; `none`: the container's own only (a runtime's). */
  resources?: DefaultResources | 'none';
  /** The pods are built for the restricted Pod Security Standard: its fields under the user's. */
  restricted?: boolean;
}

/**
 * A user's container with our defaults under it: what the user wrote wins, field by field
 * (resources and securityContext merged one level deeper), unknown fields are kept.
 */
export function withDefaults(c: ContainerSpec, name: string, d: ServerDefaults): V1Container {
  // Restricted: its fields under the user's (and the runtime's). Else what was written, as KServe leaves it.
  const security: V1SecurityContext | undefined = d.restricted
    ? mergedContainerSecurity(
        c.securityContext,
        restrictedContainer({ ...(d.nonRoot ? { runAsNonRoot: true } : {}), ...(d.runAsUser !== undefined ? { runAsUser: d.runAsUser } : {}) }),
      )
    : (c.securityContext as V1SecurityContext | undefined);
  const { name: own, ...fields } = c;
  const startupProbe = c.startupProbe as V1Probe | undefined;
  const livenessProbe = c.livenessProbe as V1Probe | undefined;
  return {
    // KServe's defaulting webhook stores a predictor's unnamed model as `name: ""` (corev1.Container's name has no omitempty): the default name.
    name: own || name,
    ...(fields as Omit<V1Container, 'name'>),
    imagePullPolicy: pullPolicyOf(c),
    ...(c.ports && c.ports.length > 0 ? { ports: portsOf(c) } : {}),
    ...(d.resources === 'none' ? {} : { resources: resourcesOf(c, d.resources) }),
    ...(security ? { securityContext: security } : {}),
    // KServe's setDefaultPodSpec (reconcilers/deployment/deployment_reconciler.go) adds a
    // readiness probe only (withKServeReadiness): no startup or liveness probe unless the container (or its
    // runtime) declares one, so a model that loads for an hour is NotReady, never restarted.
    ...(c.readinessProbe || d.readinessProbe ? { readinessProbe: (c.readinessProbe as V1Probe | undefined) ?? d.readinessProbe } : {}),
    ...(startupProbe ? { startupProbe } : {}),
    ...(livenessProbe ? { livenessProbe } : {}),
  };
}

/**
 * A container beside the server (a log shipper, a proxy, a collocated transformer) as KServe
 * leaves it: only setDefaultPodSpec's IfNotPresent (reconcilers/deployment/deployment_reconciler.go)
 * — no resources (setResourceRequirementDefaults defaults only the first container:
 * predictor_custom.go, transformer_custom.go Default) — and the restricted security fields
 * under the user's where the pods are built for that level.
 */
export function sidecarWithDefaults(c: ContainerSpec, name: string, restricted = false): V1Container {
  const { name: own, ...fields } = c;
  return {
    // KServe's defaulting webhook stores a predictor's unnamed model as `name: ""` (corev1.Container's name has no omitempty): the default name.
    name: own || name,
    ...(fields as Omit<V1Container, 'name'>),
    imagePullPolicy: pullPolicyOf(c),
    ...(restricted ? { securityContext: mergedContainerSecurity(c.securityContext) } : {}),
  };
}

/**
 * KServe's default cpu and memory, per resource the user left entirely unset: a request
 * without a limit (or the reverse) is the user's choice, and a default beside it could
 * make the request exceed the limit.
 */
function resourcesOf(c: ContainerSpec, configured: DefaultResources | undefined): NonNullable<V1Container['resources']> {
  if (configured) return withResourceDefaults(c.resources, configured);
  const requests: Record<string, string | number> = { ...(c.resources?.requests ?? {}) };
  const limits: Record<string, string | number> = { ...(c.resources?.limits ?? {}) };
  for (const r of ['cpu', 'memory'] as const) {
    if (requests[r] !== undefined || limits[r] !== undefined) continue;
    requests[r] = DEFAULT_RESOURCES.requests[r];
    limits[r] = DEFAULT_RESOURCES.limits[r];
  }
  return { ...(c.resources ?? {}), requests, limits } as NonNullable<V1Container['resources']>;
}

/**
 * setResourceRequirementDefaults (pkg/apis/serving/v1beta1/inference_service_defaults.go), with
 * KServe's ConfigMap's inferenceService.resource: each request and limit the container lacks,
 * one by one; an entry the ConfigMap leaves empty is none.
 */
export function withResourceDefaults(resources: ContainerSpec['resources'], d: DefaultResources): NonNullable<V1Container['resources']> {
  return {
    ...(resources ?? {}),
    requests: { ...d.requests, ...(resources?.requests ?? {}) },
    limits: { ...d.limits, ...(resources?.limits ?? {}) },
  } as NonNullable<V1Container['resources']>;
}

/**
 * setDefaultPodSpec (reconcilers/deployment/deployment_reconciler.go) sets IfNotPresent on every
 * container of the Deployment's pod that has no policy: the API server's own default would be
 * Always for an image tagged `latest` or untagged (vllm/vllm-openai:latest).
 */
const pullPolicyOf = (c: ContainerSpec): string => (typeof c.imagePullPolicy === 'string' && c.imagePullPolicy !== '' ? c.imagePullPolicy : 'IfNotPresent');

/**
 * The container's ports, protocol TCP where unset (the API server's default). None is added to
 * a container that declares none: KServe's runtimes declare none, and its Service then targets
 * 8080 under a port named after the Service (service_reconciler.go createDefaultSvc).
 */
export function portsOf(c: ContainerSpec): V1ContainerPort[] {
  return (c.ports ?? []).map((p) => ({ ...(p as V1ContainerPort), protocol: p.protocol ?? 'TCP' }));
}

/** pkg/constants/constants.go TransformerContainerName: a collocated transformer. */
const TRANSFORMER_CONTAINER = 'transformer-container';

/**
 * setDefaultPodSpec (reconcilers/deployment/deployment_reconciler.go): a container named
 * kserve-container or transformer-container without a readiness probe gets a TCP probe on its
 * first port, or 8080 when it declares none; no other container gets one.
 */
export function withKServeReadiness(c: V1Container): V1Container {
  if (c.readinessProbe || (c.name !== SERVER_CONTAINER && c.name !== TRANSFORMER_CONTAINER)) return c;
  return { ...c, readinessProbe: tcpReadiness(c.ports?.[0]?.containerPort ?? HTTP_PORT) };
}

/** KServe v0.20's default readiness for a served container without one (deployment_reconciler.go). */
export const tcpReadiness = (port: number): V1Probe => ({
  tcpSocket: { port },
  timeoutSeconds: 1,
  periodSeconds: 10,
  successThreshold: 1,
  failureThreshold: 3,
});

/** Env of `base` overridden by `over` on the same name, order kept. */
export function mergeEnv(base: V1EnvVar[], over: V1EnvVar[]): V1EnvVar[] {
  const names = new Set(over.map((e) => e.name));
  return [...base.filter((e) => !names.has(e.name)), ...over];
}

/** The server container is named kserve-container unless the user named it. */
export const serverName = (c: ContainerSpec | undefined) => c?.name || SERVER_CONTAINER;
