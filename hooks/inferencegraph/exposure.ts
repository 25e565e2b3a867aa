import type { V1Ingress } from '@kubernetes/client-node';
import { childMeta, keepAll, type Composed, type KubeObject, type Parent, type SyncInput } from '../kit/index.js';
import { hostLabels, HTTP_ROUTE, INGRESS } from '../kserve/host-conflicts.js';
import { hostSourcesFor, isClusterLocal, isValidHost, renderDomain } from '../inferenceservice/children/hosts.js';
import type { InferenceGraphConfig } from './config.js';
import { annotationsFor } from './metadata.js';
import { exposureName, labelsFor, serviceName, SERVICE_PORT } from './names.js';
import type { InferenceGraphSpec } from './spec.js';

/**
 * How the graph is reached from outside. KServe v0.20's raw reconciler gives a graph no
 * Ingress (raw_kube_reconciler.go: Deployment, Service and HPA only), yet writes
 * `http://<host>` into its status from the domain template (createRawURL,
 * ingress/domain.go GenerateDomainName). Here that host is routed, as an InferenceService's
 * is: an Ingress, or an HTTPRoute where the CompositeController declares HTTPRoutes.
 */
export type Exposure = { kind: 'none'; why: 'cluster-local' | 'invalid-host'; host: string } | { kind: 'ingress' | 'httproute'; host: string };

export function exposureOf(parent: Parent<unknown>, config: InferenceGraphConfig, httpRoutes: boolean): Exposure {
  const host = renderDomain(config.ingress.domainTemplate, parent.metadata.name, parent, config.ingress.domain);
  if (isClusterLocal(parent)) return { kind: 'none', why: 'cluster-local', host };
  if (!isValidHost(host)) return { kind: 'none', why: 'invalid-host', host };
  return { kind: httpRoutes ? 'httproute' : 'ingress', host };
}

/**
 * The graph's one host is rendered from its name, as an InferenceService's service host is: the
 * source customize asks routes for (kit host-conflicts.ts), so a graph and an InferenceService
 * of one name in one namespace see each other's routes. Cluster-local: none.
 */
export const graphHostSources = (parent: Parent<unknown>): string[] => hostSourcesFor(parent, []);

/** The route's labels: the graph's, and one per host source (what customize selects on). */
const exposureLabels = (parent: Parent<InferenceGraphSpec>) => ({ ...labelsFor(parent, 'ingress'), ...hostLabels(graphHostSources(parent)) });

/** The Ingress or HTTPRoute `<n>` to Service `<n>`; with an invalid host, those that run, as last applied. */
export function exposureChildren(input: SyncInput<InferenceGraphSpec, InferenceGraphConfig>, exposure: Exposure): Composed[] {
  const { parent, config } = input;
  if (exposure.kind === 'ingress') return [ingressFor(parent, config, exposure.host)];
  if (exposure.kind === 'httproute') return [httpRouteFor(parent, config, exposure.host)];
  if (exposure.kind === 'none' && exposure.why === 'invalid-host')
    return keepAll([...input.observed.list(INGRESS.apiVersion, INGRESS.kind), ...input.observed.list(HTTP_ROUTE.apiVersion, HTTP_ROUTE.kind)]);
  return [];
}

function ingressFor(parent: Parent<InferenceGraphSpec>, config: InferenceGraphConfig, host: string): V1Ingress {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: childMeta(parent, exposureName(parent), exposureLabels(parent), annotationsFor(parent)),
    spec: {
      ...(config.ingress.className ? { ingressClassName: config.ingress.className } : {}),
      rules: [
        { host, http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: serviceName(parent), port: { number: SERVICE_PORT } } } }] } },
      ],
    },
  };
}

function httpRouteFor(parent: Parent<InferenceGraphSpec>, config: InferenceGraphConfig, host: string): KubeObject {
  const { gateway } = config;
  const timeout = parent.spec.timeout;
  return {
    apiVersion: HTTP_ROUTE.apiVersion,
    kind: HTTP_ROUTE.kind,
    metadata: childMeta(parent, exposureName(parent), exposureLabels(parent), annotationsFor(parent)),
    spec: {
      parentRefs: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', namespace: gateway.namespace, name: gateway.name }],
      hostnames: [host],
      rules: [
        {
          matches: [{ path: { type: 'PathPrefix', value: '/' } }],
          backendRefs: [{ group: '', kind: 'Service', name: serviceName(parent), port: SERVICE_PORT }],
          ...(timeout !== undefined ? { timeouts: { request: `${timeout}s` } } : {}),
        },
      ],
    },
  };
}
