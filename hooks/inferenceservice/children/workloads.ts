import { lastApplied, shortHash, type Composed, type KubeObject, type Parent } from '../../kit/index.js';
import type { ComponentPlan } from '../components.js';
import { deploymentFor } from './deployment.js';
import { componentMeta, type ComponentMeta } from './metadata.js';
import { autoscalerClassOf, hpaFor } from './hpa.js';
import { LEGACY_SPEC_HASH_LENGTH, SPEC_HASH_LENGTH, type Role } from '../names.js';
import { serviceFor } from './service.js';
import { scalingOf, type InferenceServiceSpec } from '../spec.js';

type IsvcParent = Parent<InferenceServiceSpec>;

/** What the predictor runs, worked out once per sync: its metadata (metadata.ts) and the hash of its pod. */
export interface PredictorIdentity {
  meta: ComponentMeta;
  hash: string;
  /** The hash as modelhooks 0.1.0 wrote it (16 hex digits, of the keys sorted first): a stable Deployment it annotated runs this spec too. */
  legacyHash: () => string;
}

/**
 * The predictor's metadata, and the hash of what it runs: its pod and pod metadata, not its
 * scaling. The text hashed is JSON.stringify's: every object in it is built here in a fixed
 * key order, from a spec whose keys Metacontroller always sends in the same (Go's sorted)
 * order, so equal specs give equal text without sorting every key again.
 */
export function predictorIdentity(parent: IsvcParent, plan: ComponentPlan): PredictorIdentity {
  const meta = componentMeta(parent, 'predictor', plan.spec, plan.runtime, plan.annotations);
  const runs = { pod: plan.pod, labels: meta.podLabels, annotations: meta.podAnnotations, strategy: plan.spec.deploymentStrategy };
  return { meta, hash: shortHash(JSON.stringify(runs), SPEC_HASH_LENGTH), legacyHash: () => shortHash(runs, LEGACY_SPEC_HASH_LENGTH) };
}

/** Deployment, Service and (for autoscalerClass hpa) HPA of one role; `meta` when the caller has it already. */
export function workloadFor(
  parent: IsvcParent,
  role: Role,
  plan: ComponentPlan,
  specHash?: string,
  meta = componentMeta(parent, role, plan.spec, plan.runtime, plan.annotations),
): Composed[] {
  const scaling = autoscalerClassOf(parent, plan.spec);
  // Only `none` pins the replicas; hpa and external autoscalers own them (setting them here
  // would undo every scaling decision on the next sync), as KServe does.
  const replicas = scaling === 'none' ? scalingOf(plan.spec).replicas : undefined;
  const rollout = plan.raw?.defaultRollout;
  const deployment = deploymentFor(parent, {
    role,
    spec: plan.spec,
    pod: plan.pod,
    meta,
    ...(replicas !== undefined ? { replicas } : {}),
    ...(specHash ? { specHash } : {}),
    ...(rollout ? { defaultRollout: rollout } : {}),
    ...(plan.podInjection === 'webhook' ? { podInjection: plan.podInjection } : {}),
  });
  return [deployment, serviceFor(parent, role, plan, meta), ...(scaling === 'hpa' ? [hpaFor(parent, role, plan.spec, meta)] : [])];
}

/** While a canary runs: the stable Deployment and Service as last applied (a Service not observed yet is built). */
export function stableKept(
  parent: IsvcParent,
  plan: ComponentPlan,
  stable: KubeObject,
  observedStableService: KubeObject | undefined,
  meta: ComponentMeta,
): Composed[] {
  return [kept(stable), observedStableService ? kept(observedStableService) : serviceFor(parent, 'predictor', plan, meta)];
}

/**
 * While a canary runs: the stable HPA as the spec asks for it (the stable Deployment and
 * Service go before it, as observed: stableKept), and the `-canary` trio.
 */
export function canaryWorkloads(parent: IsvcParent, plan: ComponentPlan, identity: PredictorIdentity): Array<{ role: Role; children: Composed[] }> {
  const hpa = autoscalerClassOf(parent, plan.spec) === 'hpa' ? [hpaFor(parent, 'predictor', plan.spec, identity.meta)] : [];
  return [
    { role: 'predictor', children: hpa },
    { role: 'canary', children: workloadFor(parent, 'canary', plan, identity.hash) },
  ];
}

/** An observed child exactly as last applied, its keys in the usual order for readers. */
function kept(observed: KubeObject): KubeObject {
  const { apiVersion, kind, metadata, ...rest } = lastApplied(observed);
  return { apiVersion, kind, metadata, ...rest };
}
