import type { V1Container, V1PodSpec, V1Probe, V1Volume } from '@kubernetes/client-node';
import type { Parent } from '../../kit/index.js';
import type { InferenceServiceConfig } from '../config.js';
import { HTTP_PORT } from '../names.js';
import type { BatcherSpec, ComponentName, LoggerSpec } from '../spec.js';

/*
 * KServe's `agent` sidecar (pkg/webhook/admission/pod/agent_injector.go, v0.20.0): payload logging
 * and request batching in front of the serving container. KServe's pod webhook adds it to each
 * pod; here it is part of the Deployment's pod template, built from the same inputs.
 */

/** constants.AgentContainerName, InferenceServiceDefaultAgentPort (pkg/constants/constants.go). */
export const AGENT_CONTAINER = 'agent';
export const AGENT_PORT = 9081;
/** constants.TransformerContainerName: a collocated transformer the agent and the Service front instead. */
export const TRANSFORMER_CONTAINER = 'transformer-container';
/** constants.LoggerCaBundleVolume, LoggerCaCertMountPath. */
export const CA_BUNDLE_VOLUME = 'agent-ca-bundle';
export const CA_CERT_MOUNT_PATH = '/etc/tls/logger';

/** What the agent does for one component: log, batch, or both (KServe: explainers only log). */
export interface AgentWork {
  logger?: LoggerSpec;
  batcher?: BatcherSpec;
}

/** The agent's work for a component: its own logger and batcher (an explainer has no batcher in KServe's pod annotations). */
export function agentWorkOf(role: ComponentName, spec: { logger?: LoggerSpec; batcher?: BatcherSpec }, fallbackLogger?: LoggerSpec): AgentWork | undefined {
  const logger = spec.logger ?? fallbackLogger;
  const batcher = role === 'explainer' ? undefined : spec.batcher;
  return logger || batcher ? { ...(logger ? { logger } : {}), ...(batcher ? { batcher } : {}) } : undefined;
}

/** The container the agent and the Service front: a collocated transformer, else the first (serving) container. */
export function frontedContainer(containers: V1Container[]): V1Container | undefined {
  return containers.find((c) => c.name === TRANSFORMER_CONTAINER) ?? containers[0];
}

/** The pod with the agent sidecar appended (and the logger CA bundle volume when configured). */
export function withAgent(
  pod: V1PodSpec,
  work: AgentWork | undefined,
  ctx: { parent: Parent<unknown>; role: ComponentName; config: InferenceServiceConfig; annotations: Record<string, string> },
): V1PodSpec {
  if (!work || pod.containers.some((c) => c.name === AGENT_CONTAINER)) return pod;
  const settings = ctx.config.logger;
  const fronted = frontedContainer(pod.containers);
  const caBundle = work.logger && settings.caBundle !== '';
  const agent: V1Container = {
    name: AGENT_CONTAINER,
    image: ctx.config.images.agent,
    args: agentArgs(work, ctx, fronted),
    ...agentEnv(fronted?.readinessProbe),
    ports: [{ name: 'agent-port', containerPort: AGENT_PORT, protocol: 'TCP' }],
    // KServe's `agent` config (image above, resources here; config.ts, kserve-config.ts).
    resources: ctx.config.agentResources,
    // KServe copies the first container's security context (restricted here, like every container).
    ...(pod.containers[0]?.securityContext ? { securityContext: pod.containers[0].securityContext } : {}),
    readinessProbe: {
      httpGet: { path: agentProbePath(fronted?.readinessProbe), port: AGENT_PORT, scheme: 'HTTP', httpHeaders: [{ name: 'K-Network-Probe', value: 'queue' }] },
    },
    ...(caBundle ? { volumeMounts: [{ name: CA_BUNDLE_VOLUME, mountPath: CA_CERT_MOUNT_PATH, readOnly: true }] } : {}),
  };
  const volumes: V1Volume[] = caBundle
    ? [...(pod.volumes ?? []), { name: CA_BUNDLE_VOLUME, configMap: { name: settings.caBundle, optional: true } }]
    : (pod.volumes ?? []);
  return { ...pod, containers: [...pod.containers, agent], ...(volumes.length > 0 ? { volumes } : {}) };
}

/** The agent's arguments in KServe's order: batcher, logger, TLS, then the component port. */
export function agentArgs(
  work: AgentWork,
  ctx: { parent: Parent<unknown>; role: ComponentName; config: InferenceServiceConfig; annotations: Record<string, string> },
  fronted: V1Container | undefined,
): string[] {
  const args: string[] = [];
  const { batcher, logger } = work;
  if (batcher) {
    args.push('--enable-batcher');
    if (batcher.maxBatchSize !== undefined) args.push('--max-batchsize', String(batcher.maxBatchSize));
    if (batcher.maxLatency !== undefined) args.push('--max-latency', String(batcher.maxLatency));
  }
  if (logger) {
    const settings = ctx.config.logger;
    args.push(
      '--log-url',
      logger.url ?? settings.defaultUrl,
      // KServe passes the pod's name; a pod template learns it from the downward API (POD_NAME).
      '--source-uri',
      '$(POD_NAME)',
      '--log-mode',
      logger.mode ?? 'all',
      '--inference-service',
      ctx.parent.metadata.name,
      '--namespace',
      ctx.parent.metadata.namespace ?? '',
      // The `endpoint` pod label: Knative's (default/canary); raw-mode pods have none.
      '--endpoint',
      '',
      '--component',
      ctx.role,
    );
    const store = logger.storage;
    if (store?.path) args.push('--log-store-path', store.path);
    if (store?.parameters?.format) args.push('--log-store-format', store.parameters.format);
    if (logger.marshallerUrl) args.push('--log-marshaller-url', logger.marshallerUrl);
    if (logger.batchSize !== undefined && logger.batchSize > 0) args.push('--log-batch-size', String(logger.batchSize));
    if (logger.batchInterval) args.push('--log-batch-interval', logger.batchInterval);
    if (logger.metadataHeaders) args.push('--metadata-headers', logger.metadataHeaders.join(','));
    if (logger.metadataAnnotations) {
      const pairs = logger.metadataAnnotations.filter((k) => ctx.annotations[k] !== undefined).map((k) => `${k}=${ctx.annotations[k]}`);
      args.push('--metadata-annotations', pairs.join(','));
    }
    if (settings.caCertFile !== '') args.push('--logger-ca-cert-file', settings.caCertFile);
    args.push('--logger-tls-skip-verify', String(settings.tlsSkipVerify));
  }
  args.push('--component-port', String(fronted?.ports?.[0]?.containerPort ?? HTTP_PORT));
  return args;
}

/**
 * Raw mode has no queue-proxy: the agent probes the fronted container itself, from the
 * container's readiness probe as JSON (SERVING_READINESS_PROBE, an exec probe is skipped).
 */
function agentEnv(probe: V1Probe | undefined): Pick<V1Container, 'env'> {
  const env: NonNullable<V1Container['env']> = [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }];
  if (probe && (probe.httpGet || probe.tcpSocket)) env.push({ name: 'SERVING_READINESS_PROBE', value: goProbeJson(probe) });
  return { env };
}

/** The agent's own readiness path: the fronted container's httpGet path, else `/`. */
function agentProbePath(probe: V1Probe | undefined): string {
  return probe?.httpGet?.path ? probe.httpGet.path : '/';
}

/**
 * A probe as KServe's webhook marshals it: the pod's probe after the API server's defaults
 * (timeout 1 s, period 10 s, thresholds 1 and 3, HTTP scheme), fields in Go's struct order,
 * zero values omitted.
 */
export function goProbeJson(p: V1Probe): string {
  const handler: Record<string, unknown> = {};
  if (p.exec) handler.exec = { command: p.exec.command };
  if (p.httpGet) {
    const h = p.httpGet;
    handler.httpGet = omitEmpty({
      path: h.path,
      port: h.port,
      host: h.host,
      scheme: h.scheme ?? 'HTTP',
      httpHeaders: h.httpHeaders?.length ? h.httpHeaders.map((x) => ({ name: x.name, value: x.value })) : undefined,
    });
  }
  if (p.tcpSocket) handler.tcpSocket = omitEmpty({ port: p.tcpSocket.port, host: p.tcpSocket.host });
  if (p.grpc) handler.grpc = omitEmpty({ port: p.grpc.port, service: p.grpc.service });
  return JSON.stringify({
    ...handler,
    ...omitEmpty({
      initialDelaySeconds: p.initialDelaySeconds || undefined,
      timeoutSeconds: p.timeoutSeconds || 1,
      periodSeconds: p.periodSeconds || 10,
      successThreshold: p.successThreshold || 1,
      failureThreshold: p.failureThreshold || 3,
      terminationGracePeriodSeconds: p.terminationGracePeriodSeconds ?? undefined,
    }),
  });
}

function omitEmpty(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== ''));
}
