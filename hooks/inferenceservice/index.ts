import type { HookConfig } from '../config.js';
import { condition, conditionsFor, defineComposition, keepAll, readyFrom, type KubeObject, type SyncInput } from '../kit/index.js';
import { canaryDecision, trafficOf } from './canary.js';
import { customPlan, predictorPlan } from './components.js';
import { exposureFor, predictorHash, predictorWorkloads, workloadFor } from './desired.js';
import { externalHost, internalUrl, isClusterLocal } from './hosts.js';
import { HTTPROUTE } from './httproute.js';
import { DEPLOYMENT_MODE_ANNOTATION, ingressName, serviceName, STORAGE_SECRET_ANNOTATION, workloadName, type Role } from './names.js';
import { inferenceServiceSpecSchema, inferenceServiceStatusSchema, type ComponentName, type InferenceServiceSpec } from './spec.js';
import {
  CANARY_READY,
  componentReadiness,
  EXPLAINER_READY,
  fromReadiness,
  INGRESS_READY,
  ingressCondition,
  modelStatusFrom,
  PREDICTOR_READY,
  routesCondition,
  statusFrom,
  STORAGE_SECRET_FOUND,
  TRAFFIC_SPLIT,
  TRANSFORMER_READY,
} from './status.js';

const READY_TYPE: Record<ComponentName, string> = { predictor: PREDICTOR_READY, transformer: TRANSFORMER_READY, explainer: EXPLAINER_READY };
type Input = SyncInput<InferenceServiceSpec, HookConfig>;

export const inferenceservice = defineComposition<InferenceServiceSpec, HookConfig>({
  name: 'inferenceservice',
  parent: {
    group: 'serving.kserve.io',
    kind: 'InferenceService',
    plural: 'inferenceservices',
    singular: 'inferenceservice',
    shortNames: ['isvc'],
    categories: ['modelhooks'],
    versions: ['v1beta1'],
    printerColumns: [
      { name: 'URL', type: 'string', jsonPath: '.status.url' },
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Prev', type: 'integer', jsonPath: '.status.components.predictor.traffic[?(@.tag=="prev")].percent', priority: 1 },
      { name: 'Latest', type: 'integer', jsonPath: '.status.components.predictor.traffic[?(@.latestRevision==true)].percent', priority: 1 },
      { name: 'Reason', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].reason', priority: 1 },
    ],
  },
  spec: inferenceServiceSpecSchema,
  status: inferenceServiceStatusSchema,
  children: [
    { apiVersion: 'apps/v1', kind: 'Deployment', resource: 'deployments' },
    { apiVersion: 'v1', kind: 'Service', resource: 'services' },
    { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', resource: 'horizontalpodautoscalers' },
    // Every cluster serves the Ingress API; without a controller an Ingress is harmless.
    { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', resource: 'ingresses' },
  ],
  optionalChildren: [{ ...HTTPROUTE, resource: 'httproutes' }],
  variants: [{ name: 'gateway-api', description: 'Gateway API: HTTPRoutes (with canary traffic splits) instead of an Ingress', optionalChildren: ['httproutes'] }],

  customize(parent) {
    // Storage credentials: only the Secret's key names are read, never its values.
    const secret = parent.metadata.annotations?.[STORAGE_SECRET_ANNOTATION];
    return secret ? [{ apiVersion: 'v1', resource: 'secrets', names: [secret] }] : [];
  },

  sync(input) {
    const { parent } = input;
    // 0. ModelMesh is another controller's job: change nothing, say so.
    if (parent.metadata.annotations?.[DEPLOYMENT_MODE_ANNOTATION] === 'ModelMesh') return unsupportedMode(input);

    // 1. Plan each component's pod from the spec.
    const secretName = parent.metadata.annotations?.[STORAGE_SECRET_ANNOTATION];
    const ctx = { parent, config: input.config, storageSecret: secretName ? input.related.get('v1', 'Secret', secretName) : undefined };
    const predictor = predictorPlan(ctx);
    // An unservable model keeps whatever runs now (rule 3) and says why.
    if ('failure' in predictor) return noRuntime(input, predictor.failure);
    const aux = (['transformer', 'explainer'] as const).flatMap((role) => {
      const spec = parent.spec[role];
      return spec ? [customPlan(ctx, role, spec)] : [];
    });

    // 2. Observe: the stable predictor decides whether a canary runs.
    const deployment = (role: Role) => input.observed.get('apps/v1', 'Deployment', workloadName(parent, role));
    const decision = canaryDecision(parent.spec.predictor.canaryTrafficPercent, deployment('predictor'), predictorHash(predictor.plan));
    const clusterLocal = isClusterLocal(parent);
    const gatewayApi = input.declares(HTTPROUTE.apiVersion, HTTPROUTE.kind);
    const exposure = exposureFor(parent, input.config, { clusterLocal, gatewayApi, decision });

    // 3. Status from what was observed.
    const components = (['predictor', ...aux.map((a) => a.role)] as ComponentName[]).map((role) => ({ role, readiness: componentReadiness(deployment(role)) }));
    const conditions = components.map((c) => fromReadiness(READY_TYPE[c.role], c.readiness));
    const notes = [];
    if (secretName) notes.push(storageSecretNote(input, secretName, ctx.storageSecret !== undefined));
    // Weights split traffic only on HTTPRoutes, and only when callers reach the predictor
    // through them: a transformer calls <n>-predictor directly.
    const split = decision.canary && exposure.kind === 'httproutes' && !parent.spec.transformer;
    if (decision.canary) {
      conditions.splice(1, 0, fromReadiness(CANARY_READY, componentReadiness(deployment('canary'))));
      notes.push(trafficSplitNote(input, decision.percent, split));
    }
    conditions.push(exposureCondition(input, exposure));
    const entry: ComponentName = parent.spec.transformer ? 'transformer' : 'predictor';
    const exposed = exposure.kind !== 'none';
    const urlOf = (role?: ComponentName) => (exposed ? `${input.config.ingress.urlScheme}://${externalHost(parent, input.config, role)}` : internalUrl(parent, role ?? entry));
    const componentStatus = Object.fromEntries(
      components.map((c) => {
        const traffic = c.role === 'predictor' && split ? trafficOf(decision, workloadName(parent, 'predictor'), workloadName(parent, 'canary')) : undefined;
        return [c.role, { ...(c.readiness.status === 'True' ? { url: urlOf(c.role) } : {}), ...(traffic ? { traffic } : {}) }];
      }),
    );
    const status = statusFrom(input, {
      conditions,
      notes,
      ...(exposure.kind === 'none' && exposure.why === 'invalid-host' ? {} : { url: urlOf() }),
      addressUrl: internalUrl(parent, entry),
      components: componentStatus,
      modelStatus: modelStatusFrom(conditions[0]!, deployment('predictor')),
    });

    // 4. Desired children.
    const children: KubeObject[] = [
      ...predictorWorkloads(parent, predictor.plan, decision, input.observed.get('v1', 'Service', serviceName(parent, 'predictor'))),
      ...aux.flatMap((plan) => workloadFor(parent, plan.role, plan)),
      ...(exposure.kind !== 'none' ? exposure.objects : exposure.why === 'invalid-host' ? keptExposure(input) : []),
    ];
    return { status, children };
  },
});

function exposureCondition(input: Input, exposure: ReturnType<typeof exposureFor>) {
  const { parent, observed } = input;
  if (exposure.kind === 'ingress') return ingressCondition(observed.get('networking.k8s.io/v1', 'Ingress', ingressName(parent)));
  if (exposure.kind === 'httproutes') return routesCondition(exposure.objects.map((r) => observed.get(HTTPROUTE.apiVersion, HTTPROUTE.kind, r.metadata.name)));
  if (exposure.why === 'cluster-local') return condition.true(INGRESS_READY, 'ClusterLocal', 'networking.kserve.io/visibility is cluster-local: served inside the cluster only');
  return condition.false(INGRESS_READY, 'InvalidHost', `the domain template gives a host that is not a valid DNS name (${externalHost(parent, input.config)})`);
}

/**
 * Metacontroller caches the customize answer per (uid, generation): an annotation added later
 * reaches the hook only after the next spec change or within 20 minutes. Say so, rather than
 * silently starting the storage initializer without credentials.
 */
function storageSecretNote(input: Input, name: string, found: boolean) {
  const ns = input.parent.metadata.namespace;
  return found
    ? condition.true(STORAGE_SECRET_FOUND, 'StorageSecretFound', `storage credentials from Secret ${name}`)
    : condition.false(
        STORAGE_SECRET_FOUND,
        'StorageSecretNotFound',
        `Secret ${name} (annotation ${STORAGE_SECRET_ANNOTATION}) was not found in ${ns}; the storage initializer runs without credentials. A Secret or annotation added after the last spec change is seen within 20 minutes, or at once on the next spec change`,
      );
}

function trafficSplitNote(input: Input, percent: number, split: boolean) {
  const canary = serviceName(input.parent, 'canary');
  if (split) return condition.true(TRAFFIC_SPLIT, 'TrafficSplit', `${percent}% of traffic to ${canary}, ${100 - percent}% to ${serviceName(input.parent, 'predictor')}`);
  const why = input.parent.spec.transformer
    ? `the transformer calls ${serviceName(input.parent, 'predictor')} directly, so no route can split its calls`
    : 'it needs HTTPRoutes (the gateway-api variant): the Ingress sends all traffic to the stable predictor';
  return condition.false(TRAFFIC_SPLIT, 'TrafficSplitUnavailable', `canaryTrafficPercent ${percent}: ${why}; the canary is reachable in the cluster at ${canary}`);
}

/** A host the domain template made invalid must not take the live Ingress or routes down with it. */
function keptExposure(input: Input): KubeObject[] {
  return keepAll([...input.observed.list('networking.k8s.io/v1', 'Ingress'), ...input.observed.list(HTTPROUTE.apiVersion, HTTPROUTE.kind)]);
}

/** No runtime serves the model: every child stays as last applied, PredictorReady says why. */
function noRuntime(input: Input, failure: { reason: string; message: string }) {
  const predictor = condition.false(PREDICTOR_READY, failure.reason, failure.message);
  const ready = readyFrom([predictor]);
  const previous = input.parent.status;
  return {
    status: {
      ...(typeof previous.url === 'string' ? { url: previous.url } : {}),
      address: { url: internalUrl(input.parent, input.parent.spec.transformer ? 'transformer' : 'predictor') },
      conditions: conditionsFor(input, [ready, predictor]),
      deploymentMode: 'RawDeployment',
      modelStatus: modelStatusFrom(predictor),
    },
    children: keepAll(input.observed.all()),
  };
}

/** ModelMesh mode belongs to ModelMesh's controller: keep everything, report it. */
function unsupportedMode(input: Input) {
  const ready = condition.false('Ready', 'UnsupportedDeploymentMode', 'deploymentMode ModelMesh is not served by modelhooks (raw deployments only); nothing was changed');
  return { status: { conditions: conditionsFor(input, [ready]), deploymentMode: 'ModelMesh' }, children: keepAll(input.observed.all()) };
}
