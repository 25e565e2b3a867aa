import {
  condition,
  conditionsFor,
  findCondition,
  fromReadiness,
  httpRouteReadiness,
  isRecord,
  READY,
  readyConditions,
  refusedCondition,
  type Blocker,
  type Cond,
  type KubeObject,
  type ObservedCondition,
  type Readiness,
  type Refusal,
  type StampInput,
} from '../kit/index.js';
import { HOST_CONFLICT, hostConflictCondition, type HostConflict } from '../kserve/host-conflicts.js';
import { trafficOf } from './canary.js';
import { credentialsCondition, STORAGE_SECRET_FOUND } from './storage/credentials/status.js';
import { hostOf, internalUrl } from './children/hosts.js';
import { serviceName, workloadName, type Role } from './names.js';
import type { Plan } from './plan.js';
import type { Input } from './sync-input.js';
import { resumedCondition, STOP_ANNOTATION, STOPPED, STOPPED_REASON, stoppedConditions } from './stop.js';
import { entryComponentOf, type ComponentName } from './spec.js';
import { IGNORED_FIELDS, ignoredFieldsCondition } from './input/ignored-fields.js';
import { modelStatusFrom } from './status/model-status.js';
import { UNSUPPORTED_REASON } from './runtime/implementations.js';
import { KSERVE_CONFIG, kserveConfigCondition } from './input/kserve-config.js';
import { CANARY_PREDICTOR_READY, canariesCondition, canaryStatuses, type CanaryVariant } from './status/canary-variants.js';
import { runtimeStatus } from './runtime/rules.js';
import type { ComponentPlan } from './components.js';

export const PREDICTOR_READY = 'PredictorReady';
export const TRANSFORMER_READY = 'TransformerReady';
export const EXPLAINER_READY = 'ExplainerReady';
export const INGRESS_READY = 'IngressReady';
export const TRAFFIC_SPLIT = 'CanaryTrafficSplit';
/** Informational, like TRAFFIC_SPLIT: a bucket may be public, so it does not block Ready. */
export { STORAGE_SECRET_FOUND };

/** Ready ← every component and the way in; the traffic split and the storage Secret are reported beside it. */
export const conditionTree = readyConditions(
  [
    {
      type: PREDICTOR_READY,
      means: 'the predictor Deployment, judged as KServe judges it',
      reasons: { noRuntime: 'NoSupportingRuntime', unknownRuntime: 'RuntimeNotRecognized' },
    },
    {
      type: CANARY_PREDICTOR_READY,
      means:
        '(while a canary runs) the -canary Deployment; with spec.canary[] and no such canary, ' + "every entry's Deployment, reported without gating Ready",
      reasons: { allReady: 'AllCanariesReady', notReady: 'CanariesNotReady' },
    },
    {
      type: TRANSFORMER_READY,
      means: '(with a transformer) its Deployment; False when it has no containers',
      reasons: { unsupported: UNSUPPORTED_REASON.transformer },
    },
    {
      type: EXPLAINER_READY,
      means: '(with an explainer) its Deployment; False when it is neither art nor containers',
      reasons: { unsupported: UNSUPPORTED_REASON.explainer },
    },
    {
      type: INGRESS_READY,
      means:
        'the Ingress exists or the HTTPRoutes are accepted; True when cluster-local; False while the Ingress waits for the predictor ' +
        '(and the transformer, else the explainer) to be ready, and when another parent routes a host',
      reasons: {
        ingress: 'IngressCreated',
        predictorNotReady: 'PredictorNotReady',
        transformerNotReady: 'TransformerNotReady',
        explainerNotReady: 'ExplainerNotReady',
        routes: 'HTTPRoutesAccepted',
        clusterLocal: 'ClusterLocal',
        invalidHost: 'InvalidHost',
        stopped: STOPPED_REASON,
        conflict: HOST_CONFLICT,
      },
    },
  ],
  {
    ready: { reason: 'InferenceServiceReady', message: 'every component is ready' },
    informational: [
      {
        type: STORAGE_SECRET_FOUND,
        means: '(with storage credentials) the ServiceAccount and Secrets they come from exist',
        reasons: { found: 'StorageSecretFound', notFound: 'StorageSecretNotFound', noServiceAccount: 'ServiceAccountNotFound', invalid: 'InvalidStorageSpec' },
      },
      {
        type: TRAFFIC_SPLIT,
        means: '(with canaryTrafficPercent below 100) traffic is split by weight; False: no split is possible and the spec rolls out in place',
        reasons: { split: 'TrafficSplit', inPlace: 'RolledOutInPlace' },
      },
      { type: STOPPED, means: `annotation ${STOP_ANNOTATION} is "true" and nothing serves`, reasons: { stopped: STOPPED_REASON, serving: 'Serving' } },
      { type: IGNORED_FIELDS, means: '(when the spec has fields modelhooks does not act on) their JSON paths', reasons: { ignored: 'FieldsIgnored' } },
      {
        type: KSERVE_CONFIG,
        means: "(when KServe's inferenceservice-config exists) the fields read from it; False names those that could not be",
        reasons: { read: 'ConfigRead', invalid: 'InvalidConfig' },
      },
    ],
  },
);

/**
 * A component's readiness from its Deployment, in KServe's order (PropagateRawStatus):
 * Available=True → ready; Progressing=False with a message → failed; Progressing=True →
 * ready when NewReplicaSetAvailable, else rolling out; Available=False or
 * ReplicaFailure=True → failed. A Deployment not yet observed by its controller is pending.
 */
export function componentReadiness(d: KubeObject | undefined): Readiness {
  if (!d) return { status: 'Unknown', reason: 'DeploymentNotFound', message: 'the Deployment has not been created yet' };
  const s = isRecord(d.status) ? d.status : {};
  const name = d.metadata.name;
  if ((typeof s.observedGeneration === 'number' ? s.observedGeneration : 0) < (d.metadata.generation ?? 0)) {
    return { status: 'Unknown', reason: 'RolloutPending', message: `Deployment ${name} has not observed its latest spec` };
  }
  const of = (c: ObservedCondition | undefined, status: Readiness['status'], fallback: string): Readiness => ({
    status,
    reason: c?.reason || fallback,
    message: c?.message ?? '',
  });
  const available = findCondition(s.conditions, 'Available');
  const progressing = findCondition(s.conditions, 'Progressing');
  const failure = findCondition(s.conditions, 'ReplicaFailure');
  let r: Readiness = { status: 'Unknown', reason: 'DeploymentPending', message: `Deployment ${name} has reported no conditions yet` };
  if (available?.status === 'True') r = of(available, 'True', 'MinimumReplicasAvailable');
  if (progressing?.status === 'False' && progressing.message) r = of(progressing, 'False', 'ProgressDeadlineExceeded');
  if (progressing?.status === 'True') {
    if (progressing.reason === 'NewReplicaSetAvailable') r = of(progressing, 'True', 'NewReplicaSetAvailable');
    else if (available?.status !== 'True') r = of(progressing, 'Unknown', 'ReplicaSetUpdated');
  }
  if (available?.status === 'False') r = of(available, 'False', 'MinimumReplicasUnavailable');
  if (failure?.status === 'True') r = of(failure, 'False', 'ReplicaFailure');
  return r;
}

/** IngressReady as KServe sets it in raw mode: True once the Ingress exists. */
export function ingressCondition(ingress: KubeObject | undefined): Cond {
  return ingress
    ? condition.true(INGRESS_READY, 'IngressCreated', `Ingress ${ingress.metadata.name} exists`)
    : condition.unknown(INGRESS_READY, 'IngressNotFound', 'the Ingress has not been created yet');
}

/**
 * IngressReady while the Ingress waits for a component: False, as KServe sets it ("Predictor
 * ingress not created", "Transformer …", "Explainer …": kube_ingress_reconciler.go createRawIngress),
 * with a reason of the form a condition's reason takes.
 */
export function ingressWaitingCondition(role: ComponentName): Cond {
  const name = `${role[0]?.toUpperCase()}${role.slice(1)}`;
  return condition.false(INGRESS_READY, `${name}NotReady`, `${name} ingress not created: the Ingress is made once the ${role} is ready, as KServe makes it`);
}

/** IngressReady with Gateway API: every HTTPRoute accepted by its gateway (the least ready wins). */
export function routesCondition(routes: Array<KubeObject | undefined>): Cond {
  const states = routes.map(httpRouteReadiness);
  const worst = states.find((r) => r.status === 'False') ?? states.find((r) => r.status === 'Unknown');
  return worst ? fromReadiness(INGRESS_READY, worst) : condition.true(INGRESS_READY, 'HTTPRoutesAccepted', `${routes.length} HTTPRoutes accepted`);
}

/** The observed children the status is judged from. */
export interface Observed {
  deployments: Partial<Record<Role, KubeObject>>;
  ingress: KubeObject | undefined;
  routes: Array<KubeObject | undefined>;
  /** The predictor's pods, when a related rule lists them (optional: Loading is told only then). */
  predictorPods?: readonly KubeObject[];
}

/**
 * What the status is judged from besides the plan and the observed children, each found
 * before the condition tree summarises (none of it is patched in after). Left out where the
 * children are kept as they run (missing credentials): the conditions alone say why.
 */
export interface StatusInputs {
  /** Per role, the Deployment changes the API server would refuse (its selector), kept out of the children. */
  refused?: Partial<Record<Role, Refusal[]>>;
  /** The runtime the predictor runs: status.servingRuntimeName or clusterServingRuntimeName. */
  runtime?: ComponentPlan['runtime'];
  /** The first thing keeping the components' pods from running: it tells a Ready that is not True why. */
  blocker?: Blocker;
  /** Hosts of this service another parent of the namespace already routes: IngressReady and Ready False/HostConflict. */
  conflicts?: readonly HostConflict[];
  /** spec.canary[] as planned: status.canaryStatuses, and CanaryPredictorReady beside the tree (canary-variants.ts). */
  variants?: readonly CanaryVariant[];
  /** The component not Ready yet that the Ingress, not made yet, waits for (exposure.ts ingressWaitsFor): IngressReady False. */
  ingressWaitsFor?: ComponentName;
}

export function statusFrom(input: Input, plan: Plan, observed: Observed, inputs: StatusInputs = {}): Record<string, unknown> {
  const { parent, config } = input;
  const { refused = {}, variants = [] } = inputs;
  // The tree puts the conditions in order: the canary's comes after the predictor's.
  const roles: Role[] = [...plan.components.map((c) => c.role), ...(plan.canary.canary ? ['canary' as const] : [])];
  const readiness = new Map(roles.map((role) => [role, componentReadiness(observed.deployments[role])]));
  const byRole = (role: Role) => fromReadiness(READY_TYPE[role], readiness.get(role) as Readiness);
  const decided = [
    ...roles.map((role) => refusedCondition(READY_TYPE[role], refused[role] ?? []) ?? byRole(role)),
    exposureCondition(plan, observed, inputs.ingressWaitsFor),
  ];
  // A component modelhooks cannot serve: False, saying why; the others are judged as usual.
  for (const u of plan.unserved) decided.push(condition.false(READY_TYPE[u.role], u.reason, u.message));
  const credentials = credentialsCondition(input, plan);
  if (credentials) decided.push(credentials);
  if (plan.canary.canary) decided.push(trafficSplitNote(input, plan.canary.percent));
  if (plan.inPlace) decided.push(inPlaceNote(input, plan.inPlace));
  const resumed = resumedCondition(input);
  if (resumed) decided.push(resumed);
  const ignored = ignoredFieldsCondition(parent.spec);
  if (ignored) decided.push(ignored);
  // What KServe's inferenceservice-config gave, or could not, as `configured` read it (kserve-config.ts).
  const kserve = kserveConfigCondition(config);
  if (kserve) decided.push(kserve);
  // Without the Ingress KServe was told not to make, the URLs are the same (createRawURL).
  const exposed = plan.exposure.kind !== 'none' || plan.exposure.why === 'disabled';
  const urlOf = (role?: ComponentName) => (exposed ? `${config.ingress.urlScheme}://${hostOf(plan.hosts, role)}` : internalUrl(parent, role ?? plan.entry));
  const components = Object.fromEntries(
    plan.components.map(({ role }) => {
      const traffic =
        role === 'predictor' && plan.split ? trafficOf(plan.canary, workloadName(parent, 'predictor'), workloadName(parent, 'canary')) : undefined;
      return [role, { ...(readiness.get(role)?.status === 'True' ? { url: urlOf(role) } : {}), ...(traffic ? { traffic } : {}) }];
    }),
  );
  // KServe's Ready does not wait for spec.canary[] (inference_service_status.go: conditionSet lists PredictorReady and IngressReady).
  const statuses = canaryStatuses(parent, variants, (name) => input.observed.get('apps/v1', 'Deployment', name));
  const conflict = hostConflictCondition(INGRESS_READY, inputs.conflicts ?? []);
  const summary = conditionTree.summarise(input, decided, {
    ...(inputs.blocker ? { blocker: inputs.blocker } : {}),
    overrides: conflict ? [conflict] : [],
    beside: variants.length > 0 ? [canariesCondition(statuses, variants)] : [],
  });
  const url = topUrl(input, plan, decided, urlOf());
  // modelStatus as KServe judges it: from the components and the way in, not what modelhooks tells Ready besides.
  const ready = summary.derived.status === 'True';
  return {
    ...(url ? { url } : {}),
    address: addressOf(input, plan.entry),
    components,
    conditions: summary.conditions,
    deploymentMode: RAW_DEPLOYMENT,
    modelStatus: modelStatusFrom({
      predictor: byRole('predictor'),
      ready,
      deployment: observed.deployments.predictor,
      pods: observed.predictorPods,
      previous: parent.status.modelStatus,
    }),
    ...runtimeStatus(inputs.runtime),
    ...(variants.length > 0 ? { canaryStatuses: statuses } : {}),
  };
}

/**
 * KServe sets `status.url` only after it created the Ingress (or the HTTPRoutes were accepted),
 * which it does once the entry components are Ready (kube_ingress_reconciler.go
 * createRawIngress, httproute_reconciler.go Reconcile); a cluster-local service has its URL at
 * once. Until then the URL written before stays, as KServe never clears it — if it is still
 * this service's URL.
 */
function topUrl(input: Input, plan: Plan, decided: Cond[], url: string): string | undefined {
  if (plan.exposure.kind === 'none') return plan.exposure.why === 'invalid-host' ? undefined : url;
  const ready = (type: string) => decided.find((c) => c.type === type)?.status === 'True';
  // An explainer that cannot be served does not hold back the predictor's URL (a transformer does: callers enter through it).
  const explainer = input.parent.spec.explainer !== undefined && !plan.unserved.some((u) => u.role === 'explainer');
  const entry = [PREDICTOR_READY, ...(input.parent.spec.transformer ? [TRANSFORMER_READY] : explainer ? [EXPLAINER_READY] : [])];
  if (ready(INGRESS_READY) && entry.every(ready)) return url;
  return input.parent.status.url === url ? url : undefined;
}

const READY_TYPE: Record<Role, string> = {
  predictor: PREDICTOR_READY,
  canary: CANARY_PREDICTOR_READY,
  transformer: TRANSFORMER_READY,
  explainer: EXPLAINER_READY,
};
/** v0.20 writes the normalised mode (constants.ParseDeploymentMode: RawDeployment → Standard). */
const RAW_DEPLOYMENT = 'Standard';

function exposureCondition(plan: Plan, observed: Observed, waitsFor: ComponentName | undefined): Cond {
  if (plan.exposure.kind === 'ingress') return waitsFor ? ingressWaitingCondition(waitsFor) : ingressCondition(observed.ingress);
  if (plan.exposure.kind === 'httproutes') return routesCondition(observed.routes);
  if (plan.exposure.why === 'disabled') {
    return condition.true(INGRESS_READY, 'IngressCreationDisabled', 'inferenceservice-config ingress.disableIngressCreation: no Ingress or HTTPRoute is made');
  }
  if (plan.exposure.why === 'cluster-local')
    return condition.true(INGRESS_READY, 'ClusterLocal', 'networking.kserve.io/visibility is cluster-local: served inside the cluster only');
  return condition.false(INGRESS_READY, 'InvalidHost', `the domain template gives a host that is not a valid DNS name (${plan.hosts.service})`);
}

function trafficSplitNote(input: Input, percent: number): Cond {
  const canary = serviceName(input.parent, 'canary');
  return condition.true(TRAFFIC_SPLIT, 'TrafficSplit', `${percent}% of traffic to ${canary}, ${100 - percent}% to ${serviceName(input.parent, 'predictor')}`);
}

/** canaryTrafficPercent where nothing can split traffic: KServe raw mode's in-place rollout, said out loud. */
function inPlaceNote(input: Input, inPlace: NonNullable<Plan['inPlace']>): Cond {
  const why = {
    ingress: 'an Ingress cannot split traffic by weight (HTTPRoutes, the gateway-api variant, can)',
    transformer: `the transformer calls ${serviceName(input.parent, 'predictor')} directly, so no route can split its calls`,
    'no-route': 'no Ingress or HTTPRoute leads to the predictor, so nothing can split its traffic',
  }[inPlace.why];
  return condition.false(
    TRAFFIC_SPLIT,
    'RolledOutInPlace',
    `canaryTrafficPercent ${inPlace.percent} is not applied: ${why}; a new predictor spec rolls out in place on ${workloadName(input.parent, 'predictor')}, as KServe raw mode does`,
  );
}

/** The entry Service's in-cluster URL, on KServe's port 8080 where that Service is headless (createAddress, kube_ingress_reconciler.go). */
function addressOf(input: Input, role: Role): { url: string } {
  const service = input.observed.get('v1', 'Service', serviceName(input.parent, role)) as { spec?: { clusterIP?: string } } | undefined;
  return { url: `${internalUrl(input.parent, role)}${service?.spec?.clusterIP === 'None' ? ':8080' : ''}` };
}

/** No runtime serves the model: PredictorReady says why (the children are kept as last applied). */
export function noRuntimeStatus(input: Input, failure: { reason: string; message: string }): Record<string, unknown> {
  const predictor = condition.false(PREDICTOR_READY, failure.reason, failure.message);
  const previous = input.parent.status;
  return {
    ...(typeof previous.url === 'string' ? { url: previous.url } : {}),
    address: addressOf(input, entryComponentOf(input.parent.spec)),
    conditions: conditionTree.summarise(input, [predictor, ...[resumedCondition(input)].filter((c) => c !== undefined)]).conditions,
    deploymentMode: RAW_DEPLOYMENT,
    modelStatus: modelStatusFrom({ predictor, ready: false, previous: previous.modelStatus }),
  };
}

/**
 * A stopped InferenceService, as KServe v0.20 leaves it (components/predictor.go clears the
 * status but for deploymentMode): no url, address, components or modelStatus; every
 * component and IngressReady False with reason Stopped, Stopped=True, so Ready is False.
 */
export function stoppedStatus(input: Input): Record<string, unknown> {
  const decided = stoppedConditions(input.parent.spec, READY_TYPE, INGRESS_READY);
  return { conditions: conditionTree.summarise(input, decided).conditions, deploymentMode: RAW_DEPLOYMENT };
}

/** ModelMesh mode belongs to ModelMesh's controller: Ready says so. */
export function unsupportedModeStatus(input: StampInput): Record<string, unknown> {
  const ready = condition.false(
    READY,
    'UnsupportedDeploymentMode',
    'deploymentMode ModelMesh is not served by modelhooks (raw deployments only); nothing was changed',
  );
  return { conditions: conditionsFor(input, [ready]), deploymentMode: 'ModelMesh' };
}
