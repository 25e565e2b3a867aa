import type { SyncInput } from '../kit/index.js';
import { canaryDecision, type CanaryDecision } from './canary.js';
import { canaryPredictorSpec, canaryReplicaCount, stableMinReplicas, type CanaryVariant } from './canary-variants.js';
import { componentPlans, type ComponentPlan } from './components.js';
import type { InferenceServiceConfig } from './config.js';
import { externalHostsFor, isClusterLocal, type ExternalHosts } from './hosts.js';
import { HTTPROUTE } from './httproute.js';
import { builtinRuntimes } from './kserve-runtimes.js';
import { CLUSTER_SERVING_RUNTIME, runtimesFrom, SERVING_RUNTIME } from './runtimes.js';
import { STORAGE_SECRET_ANNOTATION, workloadName } from './names.js';
import { emptyReport, type CredentialReport } from './storage.js';
import { componentsOf, entryComponentOf, type ComponentName, type InferenceServiceSpec } from './spec.js';
import { predictorIdentity, type PredictorIdentity } from './workloads.js';
import { agentWorkOf, withAgent } from './agent.js';
import { trustyaiLoggerFor, trustyaiServiceFor } from './trustyai-logger.js';

export type Input = SyncInput<InferenceServiceSpec, InferenceServiceConfig>;

/** How callers reach the service: an Ingress, HTTPRoutes, or nothing (and why). */
export type Exposure = { kind: 'none'; why: 'cluster-local' | 'invalid-host' } | { kind: 'ingress' } | { kind: 'httproutes' };

/** Every decision of one sync, made once, before status and children are written. */
export interface Plan {
  /** What each component runs, predictor first. */
  components: ComponentPlan[];
  /** The component the service's own host and address lead to. */
  entry: ComponentName;
  hosts: ExternalHosts;
  canary: CanaryDecision;
  /** The predictor's metadata and the hash of what it runs (workloads.ts), worked out once per sync. */
  predictor: PredictorIdentity;
  exposure: Exposure;
  /** Whether traffic really splits between the stable predictor and its canary. */
  split: boolean;
  /** canaryTrafficPercent below 100 where no split is possible: the new spec rolls out in place. */
  inPlace?: { percent: number; why: 'ingress' | 'transformer' | 'no-route' };
  /** What the storage credentials lookups found: missing objects, problems, the ServiceAccounts' Secret names. */
  credentials: CredentialReport;
  /** spec.canary[]: KServe v0.20's named canaries, each its own Deployment and Service (canary-variants.ts). */
  variants: CanaryVariant[];
}

export type PlanOutcome = { plan: Plan } | { failure: { reason: string; message: string } };

export function planFor(input: Input): PlanOutcome {
  const { parent, config } = input;
  const credentials = emptyReport();
  const storage = {
    image: config.images['storage-initializer'],
    related: input.related,
    annotations: parent.metadata.annotations ?? {},
    annotation: STORAGE_SECRET_ANNOTATION,
    report: credentials,
  };
  const runtimes = runtimesFrom(
    [...input.related.list(SERVING_RUNTIME.apiVersion, SERVING_RUNTIME.kind), ...input.related.list(CLUSTER_SERVING_RUNTIME.apiVersion, CLUSTER_SERVING_RUNTIME.kind)],
    parent.metadata.namespace ?? '',
    builtinRuntimes(config.images),
  );
  const planned = componentPlans({ parent, config, storage, runtimes });
  if ('failure' in planned) return planned;
  const entries = parent.spec.canary ?? [];
  const plans = withStableMin(withAgents(input, planned.plans), entries);
  const [predictor] = plans as [ComponentPlan];
  const variants = entries.map((entry): CanaryVariant => {
    const replicas = canaryReplicaCount(parent.spec.predictor, entry);
    const spec = { predictor: canaryPredictorSpec(parent.spec.predictor, entry, replicas) };
    const built = componentPlans({ parent: { ...parent, spec }, config, storage, runtimes });
    const outcome = 'failure' in built ? built : { plan: withAgents(input, built.plans)[0] as ComponentPlan };
    return { name: typeof entry.predictor.name === 'string' ? entry.predictor.name : '', trafficPercent: entry.trafficPercent, replicas, outcome };
  });
  const hosts = externalHostsFor(parent, config.ingress, componentsOf(parent.spec));
  const exposure = exposureOf(input, hosts);
  // Weights split traffic only on HTTPRoutes, and only when callers reach the predictor
  // through them: a transformer calls <n>-predictor directly. Where no split can happen a
  // canary would wait forever, so the new spec rolls out in place, as KServe raw mode does.
  const percent = parent.spec.predictor.canaryTrafficPercent;
  const noSplit = splitBlocker(exposure, parent.spec.transformer !== undefined);
  // The stable predictor, as observed, decides whether a canary runs.
  const stable = input.observed.get('apps/v1', 'Deployment', workloadName(parent, 'predictor'));
  const identity = predictorIdentity(parent, predictor);
  const canary: CanaryDecision = noSplit ? { canary: false } : canaryDecision(percent, stable, identity);
  const plan: Plan = { components: plans, entry: entryComponentOf(parent.spec), hosts, canary, predictor: identity, exposure, split: canary.canary, credentials, variants };
  if (noSplit && percent !== undefined && percent < 100) plan.inPlace = { percent, why: noSplit };
  return { plan };
}

/** The stable predictor's minReplicas less the canaries' replicas (canary-variants.ts stableMinReplicas). */
function withStableMin(plans: ComponentPlan[], entries: NonNullable<InferenceServiceSpec['canary']>): ComponentPlan[] {
  const [predictor, ...rest] = plans;
  const min = predictor ? stableMinReplicas(predictor.spec, entries) : undefined;
  if (!predictor || min === predictor.spec.minReplicas) return plans;
  return [{ ...predictor, spec: { ...predictor.spec, minReplicas: min } }, ...rest];
}

/** Why traffic cannot be split by weight here, if it cannot. */
function splitBlocker(exposure: Exposure, transformer: boolean): NonNullable<Plan['inPlace']>['why'] | undefined {
  if (exposure.kind === 'ingress') return 'ingress';
  if (exposure.kind === 'none') return 'no-route';
  return transformer ? 'transformer' : undefined;
}

/** HTTPRoutes where the CompositeController declares them, else an Ingress; none when cluster-local or a host is invalid. */
function exposureOf(input: Input, hosts: ExternalHosts): Exposure {
  if (isClusterLocal(input.parent)) return { kind: 'none', why: 'cluster-local' };
  if (!hosts.valid) return { kind: 'none', why: 'invalid-host' };
  return input.declares(HTTPROUTE.apiVersion, HTTPROUTE.kind) ? { kind: 'httproutes' } : { kind: 'ingress' };
}

/**
 * Each component's pod with KServe's agent sidecar where it logs or batches. Without a logger
 * of its own, the predictor logs to the namespace's TrustyAIService (trustyai-logger.ts).
 */
function withAgents(input: Input, plans: ComponentPlan[]): ComponentPlan[] {
  const { parent, config } = input;
  const namespace = parent.metadata.namespace;
  const trustyai = trustyaiLoggerFor(trustyaiServiceFor(input.related, namespace), namespace);
  return plans.map((plan) => {
    const work = agentWorkOf(plan.role, plan.spec, plan.role === 'predictor' ? trustyai : undefined);
    const annotations = { ...(parent.metadata.annotations ?? {}), ...(plan.spec.annotations ?? {}) };
    return work ? { ...plan, pod: withAgent(plan.pod, work, { parent, role: plan.role, config, annotations }), agent: true } : plan;
  });
}
