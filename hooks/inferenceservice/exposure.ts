import { keepAll, type Composed, type KubeObject } from '../kit/index.js';
import { HTTPROUTE, httpRoutesFor, type Backend } from './httproute.js';
import { ingressFor } from './ingress.js';
import type { Input, Plan } from './plan.js';

/** The Ingress or the HTTPRoutes the plan chose; nothing when cluster-local. */
export function exposureFor(input: Input, plan: Plan): Composed[] {
  const { parent, config } = input;
  if (plan.exposure.kind === 'ingress') return [ingressFor(parent, config.ingress, plan.hosts, plan.entry)];
  if (plan.exposure.kind === 'httproutes') return httpRoutesFor(parent, config.gateway, plan.hosts, plan.entry, predictorBackends(plan));
  // A host the domain template made invalid must not take the live Ingress or routes down with it.
  return plan.exposure.why === 'invalid-host' ? keptExposure(input) : [];
}

/** The predictor's backends: the stable one alone, or weighted beside its canary. */
function predictorBackends(plan: Plan): Backend[] {
  return plan.canary.canary
    ? [{ role: 'predictor', weight: 100 - plan.canary.percent }, { role: 'canary', weight: plan.canary.percent }]
    : [{ role: 'predictor' }];
}

function keptExposure(input: Input): KubeObject[] {
  return keepAll([...input.observed.list('networking.k8s.io/v1', 'Ingress'), ...input.observed.list(HTTPROUTE.apiVersion, HTTPROUTE.kind)]);
}
