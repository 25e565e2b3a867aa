import type { V1Container, V1EnvVar, V1PodSpec } from '@kubernetes/client-node';
import type { Parent } from '../kit/index.js';
import type { InferenceServiceConfig } from './config.js';
import { serviceName } from './names.js';
import { mergeEnv, podSpecFor, portsOf, serverName, sidecarWithDefaults, tcpReadiness, withDefaults } from './pod.js';
import { protocolOf, readinessProbeFor, runtimeFor, type Runtime } from './runtimes.js';
import { FRAMEWORK_KEYS, modelOf, type ComponentName, type ComponentSpec, type ContainerSpec, type InferenceServiceSpec, type ModelSpec } from './spec.js';
import { MODEL_DIR, storagePlanFor, type StorageContext } from './storage.js';
import { withKServeEnv } from './env.js';
import { modelStorageSource, serverWithStorage, storageUrisOf } from './storage-source.js';

/** One component's pod and the port its Service targets. */
export interface ComponentPlan {
  role: ComponentName;
  spec: ComponentSpec;
  pod: V1PodSpec;
  port: { containerPort: number; name: string };
  /** The built-in runtime serving the predictor's model, whose annotations the pods get. */
  runtime?: string;
  /** KServe's agent sidecar logs or batches in front of the server: the Service targets it (agent.ts). */
  agent?: boolean;
}

export type PredictorOutcome = { plan: ComponentPlan } | { failure: { reason: string; message: string } };

export interface BuildContext {
  parent: Parent<InferenceServiceSpec>;
  config: InferenceServiceConfig;
  /** The related ServiceAccounts and Secrets the storage initializer's credentials come from. */
  storage: StorageContext;
}

const STORAGE_URI_ENV = 'STORAGE_URI';

/** Every component's pod, predictor first; a model no runtime serves is a failure. */
export function componentPlans(ctx: BuildContext): { plans: ComponentPlan[] } | { failure: { reason: string; message: string } } {
  const predictor = predictorPlan(ctx);
  if ('failure' in predictor) return predictor;
  const others = (['transformer', 'explainer'] as const).flatMap((role) => {
    const spec = ctx.parent.spec[role];
    return spec ? [customPlan(ctx, role, spec)] : [];
  });
  return { plans: [predictor.plan, ...others] };
}

/** The predictor: a built-in runtime for the model, or the user's own containers. */
function predictorPlan(ctx: BuildContext): PredictorOutcome {
  const spec = ctx.parent.spec.predictor;
  const model = modelOf(spec);
  if (!model) return { plan: customPlan(ctx, 'predictor', spec) };
  const protocol = protocolOf(model, FRAMEWORK_KEYS.some((k) => spec[k] !== undefined));
  const choice = runtimeFor(model, protocol);
  if ('reason' in choice) return { failure: { reason: choice.reason, message: choice.message } };
  const container = runtimeContainer(ctx, choice.runtime, model, protocol);
  const field = `spec.predictor.${FRAMEWORK_KEYS.find((k) => spec[k] !== undefined) ?? 'model'}`;
  const storage = storagePlanFor(modelStorageSource(spec, model, field), ctx.storage, { name: spec.serviceAccountName, field: 'spec.predictor.serviceAccountName' });
  const server = serverWithStorage(container, storage);
  const shm = choice.runtime.sharedMemory ? [{ name: 'devshm', emptyDir: { medium: 'Memory' } }] : [];
  const pod = withKServeEnv(podSpecFor(spec, [server, ...extraContainers(spec)], storage, shm), 'predictor', ctx.parent.metadata.name);
  return { plan: { role: 'predictor', spec, pod, port: portOf(server), runtime: choice.runtime.name } };
}

/** The runtime's container with the user's model fields over it, as KServe merges them. */
function runtimeContainer(ctx: BuildContext, runtime: Runtime, model: ModelSpec, protocol: string): V1Container {
  const name = ctx.parent.metadata.name;
  const { storageUri: _u, protocolVersion: _p, runtimeVersion, modelFormat: _f, runtime: _r, storage: _s, ...fields } = model;
  const base = ctx.config.images[runtime.image];
  const image = fields.image ?? (runtimeVersion ? `${base.replace(/:[^:/]+$/, '')}:${runtimeVersion}` : base);
  const env = mergeEnv(runtime.env?.(protocol) ?? [], (fields.env ?? []) as V1EnvVar[]);
  const user: ContainerSpec = {
    ...fields,
    image,
    ...(runtime.command && !fields.command ? { command: runtime.command } : {}),
    args: [...runtime.args(name), ...(fields.args ?? [])],
    ...(env.length > 0 ? { env: env as ContainerSpec['env'] } : {}),
  };
  const container = withDefaults(user, serverName(fields), { nonRoot: true, ...(runtime.runAsUser !== undefined ? { runAsUser: runtime.runAsUser } : {}), readinessProbe: readinessProbeFor(runtime, name, protocol) });
  return runtime.sharedMemory ? { ...container, volumeMounts: [...(container.volumeMounts ?? []), { name: 'devshm', mountPath: '/dev/shm' }] } : container;
}

/**
 * A component of the user's own containers (the custom predictor, a transformer, an
 * explainer): the first container serves; a STORAGE_URI env is downloaded as KServe does.
 */
function customPlan(ctx: BuildContext, role: ComponentName, spec: ComponentSpec): ComponentPlan {
  const [first = {}, ...rest] = spec.containers ?? [];
  const uri = (first.env ?? []).find((e) => e.name === STORAGE_URI_ENV && typeof e.value === 'string' && e.value !== '')?.value as string | undefined;
  const uris = storageUrisOf(spec);
  const source = uris.length > 0 ? { uris, legacy: false, field: `spec.${role}.storageUris` } : { uris: uri ? [{ uri, mountPath: MODEL_DIR }] : [], legacy: true, field: `spec.${role}.containers[0].env` };
  const storage = storagePlanFor(source, ctx.storage, { name: spec.serviceAccountName, field: `spec.${role}.serviceAccountName` });
  const env = uri ? (first.env ?? []).map((e) => (e.name === STORAGE_URI_ENV ? { name: STORAGE_URI_ENV, value: MODEL_DIR } : e)) : first.env;
  // KServe gives a transformer and an explainer the same three arguments.
  const args = role === 'predictor' ? first.args : componentArgs(ctx.parent, first.args ?? []);
  const user: ContainerSpec = { ...first, ...(env ? { env } : {}), ...(args ? { args } : {}) };
  const port = portsOf(user)[0]?.containerPort ?? 8080;
  const main = withDefaults(user, serverName(first), { nonRoot: false, readinessProbe: tcpReadiness(port) });
  const server = serverWithStorage(main, storage);
  const others = rest.map((c, i) => sidecarWithDefaults(c, `${role}-container-${i + 1}`));
  return { role, spec, pod: withKServeEnv(podSpecFor(spec, [server, ...others], storage), role, ctx.parent.metadata.name), port: portOf(server) };
}

/** KServe's transformer and explainer arguments, each added only when the user did not pass it. */
function componentArgs(parent: Parent<unknown>, args: string[]): string[] {
  const has = (flag: string) => args.some((a) => a === flag || a.startsWith(`${flag}=`));
  const extra: string[] = [];
  if (!has('--model_name')) extra.push('--model_name', parent.metadata.name);
  if (!has('--predictor_host')) extra.push('--predictor_host', `${serviceName(parent, 'predictor')}.${parent.metadata.namespace}`);
  if (!has('--http_port')) extra.push('--http_port', '8080');
  return [...args, ...extra];
}

/** Containers beside a model (KServe's collocated transformer), kept as the user wrote them. */
function extraContainers(spec: ComponentSpec): V1Container[] {
  return (spec.containers ?? []).map((c, i) => sidecarWithDefaults(c, `container-${i + 1}`));
}

function portOf(c: V1Container): { containerPort: number; name: string } {
  const p = c.ports?.[0];
  return { containerPort: p?.containerPort ?? 8080, name: p?.name ?? 'http' };
}

