import type { V1Deployment, V1Service } from '@kubernetes/client-node';
import {
  checkDeploymentUpdate,
  defineComposition,
  HookContractError,
  keepObserved,
  lastApplied,
  MANAGED_BY,
  readyJsonPath,
  type Composed,
  type KubeObject,
  type RelatedRule,
  type Refusal,
} from '../kit/index.js';
import { hostConflicts, hostRules, HTTP_ROUTE } from '../kserve/host-conflicts.js';
import { inferenceserviceConfig, type InferenceServiceConfig } from './config.js';
import { kserveConfigMap, kserveConfigObject, kserveSettings } from './input/kserve-config.js';
import { ingressWaitsFor, keptExposure } from './children/exposure.js';
import { hostSourcesFor } from './children/hosts.js';
import { credentialRules, credentialsDecorator } from './storage/credentials/rules.js';
import { credentialsBlock } from './storage/credentials/status.js';
import { DEPLOYMENT_MODE_ANNOTATION, ingressName, routeName, serviceName, workloadName, type Role } from './names.js';
import { planFor, type Plan, type PlannedChildren } from './plan.js';
import type { Input } from './sync-input.js';
import { specProblems } from './input/spec-problems.js';
import { levelOf } from './input/pod-security-standards.js';
import { componentsOf, inferenceserviceSpec, inferenceserviceStatus, type ComponentName, type InferenceServiceSpec } from './spec.js';
import { componentReadiness, noRuntimeStatus, statusFrom, stoppedStatus, unsupportedModeStatus, type Observed } from './status.js';
import { isStopped } from './stop.js';
import { componentBlocker, workloadPodRules } from './pod/workload-pods.js';
import { stableKept } from './children/workloads.js';
import { withObservedClusterIP } from './children/service.js';
import { variantChildNames, variantWorkloads } from './status/canary-variants.js';
import { trustyaiRule } from './pod/trustyai-logger.js';
import { RUNTIME_CRDS } from './runtime/crds.js';
import { runtimeRules } from './runtime/rules.js';

export const inferenceservice = defineComposition<InferenceServiceSpec, InferenceServiceConfig>({
  name: 'inferenceservice',
  parent: {
    group: 'serving.kserve.io',
    kind: 'InferenceService',
    plural: 'inferenceservices',
    singular: 'inferenceservice',
    shortNames: ['isvc'],
    categories: [MANAGED_BY],
    versions: ['v1beta1'],
    printerColumns: [
      { name: 'URL', type: 'string', jsonPath: '.status.url' },
      { name: 'Ready', type: 'string', jsonPath: readyJsonPath('status') },
      { name: 'Prev', type: 'integer', jsonPath: '.status.components.predictor.traffic[?(@.tag=="prev")].percent', priority: 1 },
      { name: 'Latest', type: 'integer', jsonPath: '.status.components.predictor.traffic[?(@.latestRevision==true)].percent', priority: 1 },
      { name: 'Reason', type: 'string', jsonPath: readyJsonPath('reason'), priority: 1 },
    ],
  },
  spec: inferenceserviceSpec,
  config: inferenceserviceConfig,
  status: inferenceserviceStatus,
  children: [
    { apiVersion: 'apps/v1', kind: 'Deployment', resource: 'deployments' },
    { apiVersion: 'v1', kind: 'Service', resource: 'services' },
    { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', resource: 'horizontalpodautoscalers' },
    // Every cluster serves the Ingress API; without a controller an Ingress is harmless.
    { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', resource: 'ingresses' },
  ],
  optionalChildren: [HTTP_ROUTE],
  // Runtimes are read from the cluster: their CRDs ship too, for clusters without KServe.
  upstreamCrds: RUNTIME_CRDS,
  variants: [
    { name: 'gateway-api', description: 'Gateway API: HTTPRoutes (with canary traffic splits) instead of an Ingress', optionalChildren: ['httproutes'] },
  ],

  // Its own status write asks for no sync: no answer waits for it (test/inferenceservice/status-echo.test.ts).
  ignoreStatusChanges: true,
  // Keeps the summary of its Secrets on each ServiceAccount, which customize asks for by name (credentials/summary.ts).
  decorator: credentialsDecorator,

  customize(parent, _config, declares) {
    // Storage credentials: ServiceAccounts and Secrets by name, in the parent's namespace (credentials/rules.ts).
    const rules: RelatedRule[] = credentialRules(parent);
    // The namespace's TrustyAIServices: the predictor logs to one unless it has a logger (trustyai-logger.ts).
    if (parent.spec.predictor.logger === undefined) rules.push(trustyaiRule(parent.metadata.namespace));
    // The runtimes the model's runtime is chosen among: by name where the spec names it (runtime/rules.ts).
    rules.push(...runtimeRules(parent));
    // Each component's pods: why they do not run goes to its condition (workload-pods.ts).
    rules.push(...workloadPodRules(parent));
    // The Ingresses (and HTTPRoutes) that may route one of its hosts: a host another parent already routes is a HostConflict.
    rules.push(...hostRules(parent.metadata.namespace, hostSourcesFor(parent, componentsOf(parent.spec)), declares(HTTP_ROUTE.apiVersion, HTTP_ROUTE.kind)));
    return rules;
  },

  // KServe's inferenceservice-config, by name from KServe's namespace: its settings over the MODELHOOKS_* ones (kserve-config.ts).
  systemObjects: (config) => [kserveConfigObject(config)],
  configured: (config, related) => kserveSettings(config, kserveConfigMap(config, related)).config,

  // Pod and container fields the server's pod security level forbids: InvalidSpec, naming the field.
  validate: (spec, config, metadata) => specProblems(spec, { level: levelOf(config.podSecurity), annotations: metadata.annotations ?? {} }),

  childNames: (parent) => {
    const roles = [...componentsOf(parent.spec), 'canary' as const];
    return [
      { apiVersion: 'apps/v1', kind: 'Deployment', names: roles.map((r) => workloadName(parent, r)) },
      { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', names: roles.map((r) => workloadName(parent, r)) },
      { apiVersion: 'v1', kind: 'Service', names: roles.map((r) => serviceName(parent, r)) },
      { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', names: [ingressName(parent)] },
      // spec.canary[]: `<n>-<name>-predictor` (canary-variants.ts).
      ...variantChildNames(parent),
      { apiVersion: HTTP_ROUTE.apiVersion, kind: HTTP_ROUTE.kind, names: [routeName(parent), ...componentsOf(parent.spec).map((r) => routeName(parent, r))] },
    ];
  },

  sync(input) {
    // 0. ModelMesh is another controller's job: change nothing, say so.
    if (input.parent.metadata.annotations?.[DEPLOYMENT_MODE_ANNOTATION] === 'ModelMesh') {
      return { status: unsupportedModeStatus(input), children: keepObserved(input) };
    }
    // Stopped (serving.kserve.io/stop): no children, so Metacontroller deletes every one, as
    // KServe's raw reconcilers delete them; PVCs and Secrets are never children.
    if (isStopped(input.parent)) return { status: stoppedStatus(input), children: [] };
    // 1. Decide once: each component's pod, the entry component, the hosts, the canary, the exposure.
    const outcome = planFor(input);
    // An unservable model keeps whatever runs now and says why.
    if ('failure' in outcome) return { status: noRuntimeStatus(input, outcome.failure), children: keepObserved(input) };
    const { plan } = outcome;

    // 2. Observe the children the status is judged from.
    const observed = observe(input, plan);
    // Credentials that are missing, or a storage spec they cannot serve: keep what runs, say why.
    if (credentialsBlock(plan)) return { status: statusFrom(input, plan, observed), children: keepObserved(input) };

    // The Ingress waits for the components callers enter through, as KServe's does (exposure.ts ingressWaitsFor).
    const waiting = ingressWaiting(input, plan, observed);

    // 3. Desired children, less the Deployment changes the API server would refuse.
    const { children, refused } = childrenFor(input, plan, waiting);

    // 4. Status from what was observed and what could not be applied.
    return { status: statusOf(input, plan, observed, refused, waiting), children };
  },
});

function observe(input: Input, plan: Plan): Observed {
  const { parent, observed } = input;
  const deployments: Observed['deployments'] = {};
  for (const role of [...componentsOf(parent.spec), ...(plan.canary.canary ? ['canary' as const] : [])]) {
    deployments[role] = observed.get('apps/v1', 'Deployment', workloadName(parent, role));
  }
  const routeNames = [routeName(parent), ...componentsOf(parent.spec).map((role) => routeName(parent, role))];
  return {
    deployments,
    ingress: observed.get('networking.k8s.io/v1', 'Ingress', ingressName(parent)),
    routes: routeNames.map((name) => observed.get(HTTP_ROUTE.apiVersion, HTTP_ROUTE.kind, name)),
  };
}

/**
 * The plan's children (no Ingress while it waits for a component), the Ingress or HTTPRoutes kept as observed where the host is invalid,
 * and each spec.canary[] entry's Deployment, Service and HPA (canary-variants.ts); a
 * Deployment's selector is immutable, so a changed one is never asked for: `refused` says so,
 * for the role the plan handed its Deployment out with.
 */
function childrenFor(input: Input, plan: Plan, waiting: ComponentName | undefined): { children: Composed[]; refused: Partial<Record<Role, Refusal[]>> } {
  const refused: Partial<Record<Role, Refusal[]>> = {};
  const checked = ({ role, children }: { role?: Role; children: readonly Composed[] }): Composed[] =>
    children.map((child) => {
      if (child.kind === 'Service' && child.metadata?.name)
        return withObservedClusterIP(child as V1Service, input.observed.get('v1', 'Service', child.metadata.name) as V1Service | undefined);
      if (child.kind !== 'Deployment' || !child.metadata?.name) return child;
      const check = checkDeploymentUpdate(child as V1Deployment, input.observed.get('apps/v1', 'Deployment', child.metadata.name));
      if (role && check.refusals.length > 0) refused[role] = check.refusals;
      return check.child;
    });
  const { workloads, exposure } = settledChildrenOf(input, plan);
  const observed = (apiVersion: string, kind: string, name: string) => input.observed.get(apiVersion, kind, name);
  const children = [
    ...workloads.flatMap(checked),
    ...(waiting ? [] : exposure),
    ...(plan.exposure.kind === 'none' && plan.exposure.why === 'invalid-host' ? keptExposure(input) : []),
    ...plan.variants.flatMap((v) => checked({ children: variantWorkloads(input.parent, v, observed) })),
    ...plan.unserved.flatMap(({ role }) => checked({ role, children: keptWorkload(input, role) })),
  ];
  return { children, refused };
}

/** A component that cannot be served keeps what it last ran: its Deployment, Service and HPA as observed. */
function keptWorkload(input: Input, role: Role): KubeObject[] {
  const { parent, observed } = input;
  const found = [
    observed.get('apps/v1', 'Deployment', workloadName(parent, role)),
    observed.get('v1', 'Service', serviceName(parent, role)),
    observed.get('autoscaling/v2', 'HorizontalPodAutoscaler', workloadName(parent, role)),
  ];
  return found.filter((o): o is KubeObject => o !== undefined).map(lastApplied);
}

/**
 * The plan's children (built once per spec and settled inputs, plan.ts), with the stable
 * Deployment and Service as observed while a canary runs.
 */
function settledChildrenOf(input: Input, plan: Plan): PlannedChildren {
  const { settledChildren: settled, canary } = plan;
  if (!canary.canary) return settled.stable;
  const [predictor] = plan.components;
  if (!predictor || !settled.canary) throw new HookContractError('inferenceservice: a canary runs only where the settled plan built its children');
  const observedService = input.observed.get('v1', 'Service', serviceName(input.parent, 'predictor'));
  const kept = stableKept(input.parent, predictor, canary.stable, observedService, plan.predictor.meta);
  return { workloads: [{ role: 'predictor', children: kept }, ...settled.canary.workloads], exposure: settled.canary.exposure };
}

/** statusFrom, with the runtime, why pods do not run, the hosts another parent routes, and the canary variants as its inputs. */
function statusOf(
  input: Input,
  plan: Plan,
  observed: Observed,
  refused: Partial<Record<Role, Refusal[]>>,
  waiting: ComponentName | undefined,
): Record<string, unknown> {
  const hosts = plan.exposure.kind === 'none' ? [] : [plan.hosts.service, ...Object.values(plan.hosts.components)];
  return statusFrom(input, plan, observed, {
    refused,
    runtime: plan.components[0]?.runtime,
    blocker: componentBlocker(input, observed.deployments),
    conflicts: hostConflicts(input.parent, hosts, input.related),
    variants: plan.variants,
    ...(waiting ? { ingressWaitsFor: waiting } : {}),
  });
}

/** With an Ingress to make and none observed yet: the component it waits for, if one is not Ready. */
function ingressWaiting(input: Input, plan: Plan, observed: Observed): ComponentName | undefined {
  if (plan.exposure.kind !== 'ingress' || observed.ingress) return undefined;
  const ready = (role: ComponentName) => componentReadiness(observed.deployments[role]).status === 'True';
  return ingressWaitsFor(
    input.parent.spec,
    plan.unserved.map((u) => u.role),
    ready,
  );
}
