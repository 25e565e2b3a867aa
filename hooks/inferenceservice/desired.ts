import type { HookConfig } from '../config.js';
import { lastApplied, shortHash, type KubeObject, type Parent } from '../kit/index.js';
import type { CanaryDecision } from './canary.js';
import type { ComponentPlan } from './components.js';
import { deploymentFor } from './deployment.js';
import { externalHost, isValidHost } from './hosts.js';
import { autoscalerClassOf, hpaFor } from './hpa.js';
import { httpRoutesFor, type Backend } from './httproute.js';
import { ingressFor } from './ingress.js';
import { type Role } from './names.js';
import { serviceFor } from './service.js';
import { scalingOf, type ComponentName, type InferenceServiceSpec } from './spec.js';

type IsvcParent = Parent<InferenceServiceSpec>;

/** The hash of what the predictor runs: its pod and pod metadata, not its scaling. */
export const predictorHash = (plan: ComponentPlan) => shortHash({ pod: plan.pod, labels: plan.spec.labels, annotations: plan.spec.annotations }, 16);

/** Deployment, Service and (for autoscalerClass hpa) HPA of one role. */
export function workloadFor(parent: IsvcParent, role: Role, plan: ComponentPlan, specHash?: string): KubeObject[] {
  const scaling = autoscalerClassOf(parent, plan.spec);
  // Only `none` pins the replicas; hpa and external autoscalers own them (setting them here
  // would undo every scaling decision on the next sync), as KServe does.
  const replicas = scaling === 'none' ? scalingOf(plan.spec).replicas : undefined;
  const deployment = deploymentFor(parent, { role, spec: plan.spec, pod: plan.pod, ...(replicas !== undefined ? { replicas } : {}), ...(specHash ? { specHash } : {}) });
  const children = [deployment as KubeObject, serviceFor(parent, role, plan.port) as KubeObject];
  if (scaling === 'hpa') children.push(hpaFor(parent, role, plan.spec) as unknown as KubeObject);
  return children;
}

/**
 * The predictor's children: one Deployment with the new spec, or, while a canary runs, the
 * stable Deployment and Service kept exactly as last applied plus a `-canary` pair.
 */
export function predictorWorkloads(parent: IsvcParent, plan: ComponentPlan, decision: CanaryDecision, observedStableService: KubeObject | undefined): KubeObject[] {
  const hash = predictorHash(plan);
  if (!decision.canary) return workloadFor(parent, 'predictor', plan, hash);
  const fresh = workloadFor(parent, 'predictor', plan, hash).filter((c) => c.kind === 'HorizontalPodAutoscaler');
  const stableService = observedStableService ? kept(observedStableService) : (serviceFor(parent, 'predictor', plan.port) as KubeObject);
  return [kept(decision.stable), stableService, ...fresh, ...workloadFor(parent, 'canary', plan, hash)];
}

/** An observed child exactly as last applied, its keys in the usual order for readers. */
function kept(observed: KubeObject): KubeObject {
  const { apiVersion, kind, metadata, ...rest } = lastApplied(observed);
  return { apiVersion, kind, metadata, ...rest };
}

export type Exposure = { kind: 'none'; why: 'cluster-local' | 'invalid-host' } | { kind: 'ingress'; objects: KubeObject[] } | { kind: 'httproutes'; objects: KubeObject[] };

/** The Ingress or HTTPRoutes, by what the CompositeController declares (HTTPRoutes win). */
export function exposureFor(parent: IsvcParent, config: HookConfig, opts: { clusterLocal: boolean; gatewayApi: boolean; decision: CanaryDecision }): Exposure {
  if (opts.clusterLocal) return { kind: 'none', why: 'cluster-local' };
  const hosts = [externalHost(parent, config), ...(['predictor', 'transformer', 'explainer'] as ComponentName[]).filter((r) => parent.spec[r]).map((r) => externalHost(parent, config, r))];
  if (!hosts.every(isValidHost)) return { kind: 'none', why: 'invalid-host' };
  if (!opts.gatewayApi) return { kind: 'ingress', objects: [ingressFor(parent, config) as KubeObject] };
  const predictor: Backend[] = opts.decision.canary
    ? [{ role: 'predictor', weight: 100 - opts.decision.percent }, { role: 'canary', weight: opts.decision.percent }]
    : [{ role: 'predictor' }];
  return { kind: 'httproutes', objects: httpRoutesFor(parent, config, predictor) };
}
