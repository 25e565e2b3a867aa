import { hash } from 'node:crypto';
import { keptJson, memoOnSpec, ObjectIndex, type Composed, type KubeObject } from '../kit/index.js';
import { HTTP_ROUTE } from '../kserve/host-conflicts.js';
import { canaryDecision, type CanaryDecision } from './canary.js';
import { canaryPredictorSpec, canaryReplicaCount, stableMinReplicas, type CanaryVariant } from './status/canary-variants.js';
import { componentPlans, type ComponentPlan, type Unserved } from './components.js';
import type { InferenceServiceConfig } from './config.js';
import { externalHostsFor, isClusterLocal, type ExternalHosts } from './children/hosts.js';
import { builtinRuntimes } from './runtime/kserve-runtimes.js';
import { CLUSTER_SERVING_RUNTIME, runtimesFrom, SERVING_RUNTIME } from './runtime/selection.js';
import { STORAGE_SECRET_ANNOTATION, workloadName, type Role } from './names.js';
import { joinFindings, type CredentialFindings } from './storage/credentials/findings.js';
import { secretsRead } from './storage/credentials/secrets-read.js';
import { componentsOf, entryComponentOf, modelOf, type ComponentName, type InferenceServiceSpec } from './spec.js';
import { webhookMetadata, withRuntimeLabels } from './children/metadata.js';
import { canaryWorkloads, predictorIdentity, workloadFor, type PredictorIdentity } from './children/workloads.js';
import { predictorBackends, routedExposure, type Exposure } from './children/exposure.js';
import type { Input } from './sync-input.js';
import { agentWorkOf, withAgent } from './pod/agent.js';
import { TRUSTYAI_API_VERSION, TRUSTYAI_KIND, trustyaiLoggerFor, trustyaiServiceFor } from './pod/trustyai-logger.js';

/** Every decision of one sync, made once, before status and children are written. */
export interface Plan {
  /** What each component runs, predictor first. */
  components: ComponentPlan[];
  /** The transformer or explainer modelhooks cannot serve (implementations.ts): a False condition each, their children kept as observed. */
  unserved: Unserved[];
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
  /** What the storage credentials lookups found (components, then canaries): missing objects, problems, the Secrets used. */
  credentials: CredentialFindings;
  /** spec.canary[]: KServe v0.20's named canaries, each its own Deployment and Service (canary-variants.ts). */
  variants: CanaryVariant[];
  /**
   * The children built with the rest of the plan from the same inputs: while no canary runs
   * (the predictor's, the other components', the Ingress or HTTPRoutes), and while one may run
   * (all but the stable Deployment and Service, kept as observed: workloads.ts stableKept).
   * Where a host is invalid they hold no Ingress or HTTPRoute: those are kept as observed
   * (exposure.ts keptExposure).
   */
  settledChildren: { stable: PlannedChildren; canary: PlannedChildren | undefined };
}

/** Children of one role (its Deployment first), handed out with it: a refused Deployment change is told to that role's condition. */
export interface RoleChildren {
  role: Role;
  children: readonly Composed[];
}

/** A plan's children: each role's, in the predictor's, canary's, transformer's, explainer's order, then the way in. */
export interface PlannedChildren {
  workloads: readonly RoleChildren[];
  exposure: readonly Composed[];
}

export type PlanOutcome = { plan: Plan } | { failure: { reason: string; message: string } };

export function planFor(input: Input): PlanOutcome {
  const { parent } = input;
  const made = settledPlan(parent.spec, settledInputs(input));
  if ('failure' in made) return made;
  const { noSplit, ...settled } = made.plan;
  const percent = parent.spec.predictor.canaryTrafficPercent;
  // The stable predictor, as observed, decides whether a canary runs.
  const stable = input.observed.get('apps/v1', 'Deployment', workloadName(parent, 'predictor'));
  const canary: CanaryDecision = noSplit ? { canary: false } : canaryDecision(percent, stable, settled.predictor);
  const plan: Plan = { ...settled, canary, split: canary.canary };
  if (noSplit && percent !== undefined && percent < 100) plan.inPlace = { percent, why: noSplit };
  return { plan };
}

/**
 * Everything planFor reads besides the spec and the observed children: the parent's identity,
 * labels and annotations, the configuration, whether HTTPRoutes are declared, and the related
 * objects a plan is made from (ServiceAccounts and Secrets for storage credentials, the
 * runtimes, the namespace's TrustyAIServices). settledPlan is handed nothing else, so nothing
 * else can change what it decides.
 */
export interface SettledInputs {
  apiVersion: string;
  kind: string;
  metadata: Input['parent']['metadata'];
  config: InferenceServiceConfig;
  httpRoutes: boolean;
  related: KubeObject[];
}

const SETTLED_RELATED = [
  { apiVersion: 'v1', kind: 'ServiceAccount' },
  SERVING_RUNTIME,
  CLUSTER_SERVING_RUNTIME,
  { apiVersion: TRUSTYAI_API_VERSION, kind: TRUSTYAI_KIND },
];

/** The parent's metadata a plan reads (never resourceVersion, generation or managedFields, which change with every write). */
export function settledInputs(input: Input): SettledInputs {
  const { name, namespace, uid, labels, annotations } = input.parent.metadata;
  const metadata: Input['parent']['metadata'] = { name, namespace };
  if (uid !== undefined) metadata.uid = uid;
  if (labels !== undefined) metadata.labels = labels;
  if (annotations !== undefined) metadata.annotations = annotations;
  return {
    apiVersion: input.parent.apiVersion,
    kind: input.parent.kind,
    metadata,
    config: input.config,
    httpRoutes: input.declares(HTTP_ROUTE.apiVersion, HTTP_ROUTE.kind),
    // The Secrets as a plan reads them: those it may use, without values (credentials/secrets-read.ts).
    related: [...SETTLED_RELATED.flatMap((t) => input.related.list(t.apiVersion, t.kind)), ...secretsRead(input.parent, input.related)],
  };
}

/**
 * What tells settled inputs apart: the SHA-256 of their JSON, as the answer cache keys a
 * request. A short key is looked up faster than the ~4 KB of text it stands for. The Secrets
 * in it hold no value (secretsRead), so neither does the key, nor does it hash one.
 */
export function settledKey(i: SettledInputs): string {
  return hash('sha256', JSON.stringify([i.apiVersion, i.kind, i.metadata, i.config, i.httpRoutes, i.related]), 'base64');
}

type SettledPlan = Omit<Plan, 'canary' | 'split' | 'inPlace'> & { noSplit: NonNullable<Plan['inPlace']>['why'] | undefined };

/**
 * The plan less the canary decision, made once per spec and settled inputs (kit memoOnSpec):
 * between two syncs of an unchanged InferenceService only the observed children change (their
 * status), so each sync asked the same questions of the same spec, runtimes and Secrets, and
 * building the pods and hashing the predictor's was over half of a sync. Many parents may share
 * one spec's text (a sample every team deploys): up to 64 plans per spec, 512 in all, each
 * about 30 KiB with its children's JSON (answer-json.ts; measured on the bench's hf-llm case),
 * and in bytes what every memo shares (MODELHOOKS_MEMO_BYTES): a parent with 250 KB of
 * annotations makes a plan of megabytes, as each child's JSON repeats them.
 * Why it stays (2026-11-26, aa67d9d, CPU per call on the bench's three cases): a hit costs 9–20 µs
 * against 140–470 µs to make the plan; npm run bench, server CPU per distinct request, medians of 4
 * interleaved runs: 740 µs with, 1,200 without (Hugging Face), 1,160 and 1,640 (canary). A miss
 * costs 550–1,430 µs (deepFreeze, the children's JSON for settledBytes, what is kept), so it pays
 * only where a parent syncs again before its plan is dropped: 64 per spec drops it after 64 other
 * parents of that spec (the live tier's 1,000 sample InferenceServices share one spec).
 */
const settledPlan = memoOnSpec(makeSettledPlan, settledKey, 64, 512, settledBytes);

/**
 * What a settled plan costs kept: its children's JSON (written now, once, as the answer will
 * write it: answer-json.ts keeps it), twice over for the objects and the rest of the plan,
 * which refer to the same strings. Measured this way, not by walking the plan: a walk cost
 * as much as a third of a distinct request.
 */
function settledBytes(made: ReturnType<typeof makeSettledPlan>): number {
  if (!('plan' in made)) return 1024;
  const { stable, canary } = made.plan.settledChildren;
  let text = 0;
  for (const planned of [stable, ...(canary ? [canary] : [])]) {
    for (const child of [...planned.workloads.flatMap((w) => w.children), ...planned.exposure]) text += keptJson(child)?.length ?? 4096;
  }
  return 4096 + 2 * text;
}

function makeSettledPlan(spec: InferenceServiceSpec, i: SettledInputs): { plan: SettledPlan } | { failure: { reason: string; message: string } } {
  // The InferenceService as KServe's defaulting webhook stores it (children/metadata.ts webhookMetadata).
  const parent: Input['parent'] = webhookMetadata(
    { apiVersion: i.apiVersion, kind: i.kind, metadata: i.metadata, spec, status: {} },
    modelOf(spec.predictor)?.modelFormat.name,
  );
  const { config } = i;
  const related = new ObjectIndex(i.related, parent.metadata.namespace);
  const storage = {
    image: config.images['storage-initializer'],
    // KServe's storageInitializer settings (inferenceservice-config).
    initializer: config.storageInitializer,
    related,
    annotations: parent.metadata.annotations ?? {},
    annotation: STORAGE_SECRET_ANNOTATION,
    restricted: config.podSecurity === 'restricted',
  };
  const runtimes = runtimesFrom(
    [...related.list(SERVING_RUNTIME.apiVersion, SERVING_RUNTIME.kind), ...related.list(CLUSTER_SERVING_RUNTIME.apiVersion, CLUSTER_SERVING_RUNTIME.kind)],
    parent.metadata.namespace ?? '',
    builtinRuntimes(config.images),
  );
  const planned = componentPlans({ parent, config, storage, runtimes });
  if ('failure' in planned) return planned;
  const entries = parent.spec.canary ?? [];
  const agents = (plans: ComponentPlan[]) => withAgents(parent, config, related, plans);
  const plans = withStableMin(agents(planned.plans), entries);
  const [predictor] = plans as [ComponentPlan];
  // Every child's metadata reads the InferenceService as KServe's controller holds it once the predictor is
  // reconciled: with the labels SetRuntimeDefaults added (modelClass, serviceEnvelope).
  const effective = withRuntimeLabels(parent, predictor.runtime?.isvcLabels);
  const variants = entries.map((entry): CanaryVariant => {
    const replicas = canaryReplicaCount(parent.spec.predictor, entry);
    const spec = { predictor: canaryPredictorSpec(parent.spec.predictor, entry, replicas) };
    const built = componentPlans({ parent: { ...parent, spec }, config, storage, runtimes });
    const outcome = 'failure' in built ? built : { plan: agents(built.plans)[0] as ComponentPlan };
    return { name: typeof entry.predictor.name === 'string' ? entry.predictor.name : '', trafficPercent: entry.trafficPercent, replicas, outcome };
  });
  // What the credentials lookups found, the components' first, then the canaries'.
  const canaryPlans = variants.flatMap((v) => ('plan' in v.outcome ? [v.outcome.plan] : []));
  const credentials = joinFindings([...plans, ...canaryPlans].map((p) => p.credentials));
  const hosts = externalHostsFor(effective, config.ingress, componentsOf(parent.spec));
  const exposure = exposureOf(effective, i.httpRoutes, hosts, config.ingress.disableIngressCreation === true);
  // Weights split traffic only on HTTPRoutes, and only when callers reach the predictor
  // through them: a transformer calls <n>-predictor directly. Where no split can happen a
  // canary would wait forever, so the new spec rolls out in place, as KServe raw mode does.
  const noSplit = splitBlocker(exposure, parent.spec.transformer !== undefined);
  const identity = predictorIdentity(effective, predictor);
  const entry = entryComponentOf(parent.spec);
  const others = plans.slice(1).map((c): RoleChildren => ({ role: c.role, children: workloadFor(effective, c.role, c) }));
  const routes = (canaryPercent?: number) => routedExposure(effective, config, { exposure, hosts, entry }, predictorBackends(canaryPercent));
  const percent = parent.spec.predictor.canaryTrafficPercent;
  // Where a canary may run (planFor decides from the observed stable Deployment).
  const mayCanary = !noSplit && percent !== undefined && percent < 100;
  const stable: RoleChildren = { role: 'predictor', children: workloadFor(effective, 'predictor', predictor, identity.hash, identity.meta) };
  const settledChildren = {
    stable: { workloads: [stable, ...others], exposure: routes() },
    canary: mayCanary ? { workloads: [...canaryWorkloads(effective, predictor, identity), ...others], exposure: routes(percent) } : undefined,
  };
  return {
    plan: { components: plans, unserved: planned.unserved, entry, hosts, predictor: identity, exposure, credentials, variants, noSplit, settledChildren },
  };
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

/** HTTPRoutes where the CompositeController declares them, else an Ingress; none when cluster-local, a host is invalid or creation is disabled. */
function exposureOf(parent: Input['parent'], httpRoutes: boolean, hosts: ExternalHosts, disabled: boolean): Exposure {
  if (isClusterLocal(parent)) return { kind: 'none', why: 'cluster-local' };
  if (!hosts.valid) return { kind: 'none', why: 'invalid-host' };
  if (disabled) return { kind: 'none', why: 'disabled' };
  return httpRoutes ? { kind: 'httproutes' } : { kind: 'ingress' };
}

/**
 * Each component's pod with KServe's agent sidecar where it logs or batches. Without a logger
 * of its own, the predictor logs to the namespace's TrustyAIService (trustyai-logger.ts).
 */
function withAgents(parent: Input['parent'], config: InferenceServiceConfig, related: ObjectIndex, plans: ComponentPlan[]): ComponentPlan[] {
  const namespace = parent.metadata.namespace;
  const trustyai = trustyaiLoggerFor(trustyaiServiceFor(related, namespace), namespace);
  return plans.map((plan) => {
    const work = agentWorkOf(plan.role, plan.spec, plan.role === 'predictor' ? trustyai : undefined);
    const annotations = { ...(parent.metadata.annotations ?? {}), ...(plan.spec.annotations ?? {}) };
    return work ? { ...plan, pod: withAgent(plan.pod, work, { parent, role: plan.role, config, annotations }), agent: true } : plan;
  });
}
