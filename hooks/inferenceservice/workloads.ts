import { lastApplied, shortHash, type Composed, type KubeObject, type Parent } from '../kit/index.js';
import type { CanaryDecision } from './canary.js';
import type { ComponentPlan } from './components.js';
import { deploymentFor } from './deployment.js';
import { componentMeta } from './metadata.js';
import { autoscalerClassOf, hpaFor } from './hpa.js';
import type { Role } from './names.js';
import { serviceFor } from './service.js';
import { scalingOf, type InferenceServiceSpec } from './spec.js';

type IsvcParent = Parent<InferenceServiceSpec>;

/** The hash of what the predictor runs: its pod and pod metadata, not its scaling. */
export const predictorHash = (parent: IsvcParent, plan: ComponentPlan) => {
  const meta = componentMeta(parent, 'predictor', plan.spec, plan.runtime);
  return shortHash({ pod: plan.pod, labels: meta.labels, annotations: meta.podAnnotations, strategy: plan.spec.deploymentStrategy }, 16);
};

/** Deployment, Service and (for autoscalerClass hpa) HPA of one role. */
export function workloadFor(parent: IsvcParent, role: Role, plan: ComponentPlan, specHash?: string): Composed[] {
  const scaling = autoscalerClassOf(parent, plan.spec);
  // Only `none` pins the replicas; hpa and external autoscalers own them (setting them here
  // would undo every scaling decision on the next sync), as KServe does.
  const replicas = scaling === 'none' ? scalingOf(plan.spec).replicas : undefined;
  const meta = componentMeta(parent, role, plan.spec, plan.runtime);
  const deployment = deploymentFor(parent, { role, spec: plan.spec, pod: plan.pod, meta, ...(replicas !== undefined ? { replicas } : {}), ...(specHash ? { specHash } : {}) });
  return [deployment, serviceFor(parent, role, plan, meta), ...(scaling === 'hpa' ? [hpaFor(parent, role, plan.spec, meta)] : [])];
}

/**
 * The predictor's children: one Deployment with the new spec, or, while a canary runs, the
 * stable Deployment and Service kept exactly as last applied plus a `-canary` pair.
 */
export function predictorWorkloads(parent: IsvcParent, plan: ComponentPlan, decision: CanaryDecision, observedStableService: KubeObject | undefined, hash = predictorHash(parent, plan)): Composed[] {
  if (!decision.canary) return workloadFor(parent, 'predictor', plan, hash);
  const fresh = workloadFor(parent, 'predictor', plan, hash).filter((c) => c.kind === 'HorizontalPodAutoscaler');
  const stableService = observedStableService ? kept(observedStableService) : serviceFor(parent, 'predictor', plan, componentMeta(parent, 'predictor', plan.spec, plan.runtime));
  return [kept(decision.stable), stableService, ...fresh, ...workloadFor(parent, 'canary', plan, hash)];
}

/** An observed child exactly as last applied, its keys in the usual order for readers. */
function kept(observed: KubeObject): KubeObject {
  const { apiVersion, kind, metadata, ...rest } = lastApplied(observed);
  return { apiVersion, kind, metadata, ...rest };
}
