import { keepAll, type Composed, type KubeObject } from '../../kit/index.js';
import { HTTP_ROUTE } from '../../kserve/host-conflicts.js';
import { httpRoutesFor, type Backend } from './httproute.js';
import { ingressFor } from './ingress.js';
import type { ExternalHosts } from './hosts.js';
import type { ComponentName } from '../spec.js';
import type { Input } from '../sync-input.js';

/** How callers reach the service: an Ingress, HTTPRoutes, or nothing (and why: `disabled` is inferenceservice-config's disableIngressCreation). */
export type Exposure = { kind: 'none'; why: 'cluster-local' | 'invalid-host' | 'disabled' } | { kind: 'ingress' } | { kind: 'httproutes' };

/** The Ingress or HTTPRoutes to the plan's hosts, with these predictor backends; nothing without an exposure. */
export function routedExposure(
  parent: Input['parent'],
  config: Input['config'],
  plan: { exposure: Exposure; hosts: ExternalHosts; entry: ComponentName },
  backends: Backend[],
): Composed[] {
  if (plan.exposure.kind === 'ingress') return [ingressFor(parent, config.ingress, plan.hosts, plan.entry)];
  if (plan.exposure.kind === 'httproutes') return httpRoutesFor(parent, config.gateway, plan.hosts, plan.entry, backends);
  return [];
}

/** The predictor's backends: the stable one alone, or weighted beside a canary taking `canaryPercent`. */
export function predictorBackends(canaryPercent: number | undefined): Backend[] {
  return canaryPercent !== undefined
    ? [
        { role: 'predictor', weight: 100 - canaryPercent },
        { role: 'canary', weight: canaryPercent },
      ]
    : [{ role: 'predictor' }];
}

/**
 * The component KServe waits for before it makes the Ingress, if any (KServe v0.20
 * pkg/controller/v1beta1/inferenceservice/reconcilers/ingress/kube_ingress_reconciler.go
 * createRawIngress): the predictor; then, with a transformer, the transformer, else, with an
 * explainer, the explainer. An explainer modelhooks cannot serve does not hold it back (it holds
 * back no URL either: status.ts topUrl). Once it exists the Ingress stays, ready or not, as KServe
 * never deletes it for that.
 */
export function ingressWaitsFor(
  spec: { transformer?: unknown; explainer?: unknown },
  unserved: readonly ComponentName[],
  ready: (role: ComponentName) => boolean,
): ComponentName | undefined {
  if (!ready('predictor')) return 'predictor';
  if (spec.transformer !== undefined) return ready('transformer') ? undefined : 'transformer';
  if (spec.explainer !== undefined && !unserved.includes('explainer')) return ready('explainer') ? undefined : 'explainer';
  return undefined;
}

/** Where the domain template made a host invalid: the live Ingress and HTTPRoutes as last applied, not taken down. */
export function keptExposure(input: Input): KubeObject[] {
  const { observed } = input;
  return keepAll([...observed.list('networking.k8s.io/v1', 'Ingress'), ...observed.list(HTTP_ROUTE.apiVersion, HTTP_ROUTE.kind)]);
}
