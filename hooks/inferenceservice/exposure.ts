import { keepAll, type Composed, type KubeObject } from '../kit/index.js';
import { HTTPROUTE, httpRoutesFor, type Backend } from './httproute.js';
import { ingressFor } from './ingress.js';
import type { Input, Plan } from './plan.js';

/** The Ingress or the HTTPRoutes the plan chose; nothing when cluster-local. */
export function exposureFor(input: Input, plan: Plan): Composed[] {
  // A host the domain template made invalid must not take the live Ingress or routes down with it.
  if (plan.exposure.kind === 'none' && plan.exposure.why === 'invalid-host') return keptExposure(input);
  return routedExposure(input.parent, input.config, plan, predictorBackends(plan.canary.canary ? plan.canary.percent : undefined));
}

/** The Ingress or HTTPRoutes to the plan's hosts, with these predictor backends; nothing without an exposure. */
export function routedExposure(parent: Input['parent'], config: Input['config'], plan: Pick<Plan, 'exposure' | 'hosts' | 'entry'>, backends: Backend[]): Composed[] {
  if (plan.exposure.kind === 'ingress') return [ingressFor(parent, config.ingress, plan.hosts, plan.entry)];
  if (plan.exposure.kind === 'httproutes') return httpRoutesFor(parent, config.gateway, plan.hosts, plan.entry, backends);
  return [];
}

/** The predictor's backends: the stable one alone, or weighted beside a canary taking `canaryPercent`. */
export function predictorBackends(canaryPercent: number | undefined): Backend[] {
  return canaryPercent !== undefined ? [{ role: 'predictor', weight: 100 - canaryPercent }, { role: 'canary', weight: canaryPercent }] : [{ role: 'predictor' }];
}

function keptExposure(input: Input): KubeObject[] {
  return keepAll([...input.observed.list('networking.k8s.io/v1', 'Ingress'), ...input.observed.list(HTTPROUTE.apiVersion, HTTPROUTE.kind)]);
}
