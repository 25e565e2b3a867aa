import { childMeta, type KubeObject, type Parent } from '../../kit/index.js';
import { hostLabels, HTTP_ROUTE } from '../../kserve/host-conflicts.js';
import { routeMeta } from './metadata.js';
import type { GatewayConfig } from '../config.js';
import { hostOf, type ExternalHosts } from './hosts.js';
import { exposureLabelsFor, routeName, SERVICE_PORT, serviceName, type Role } from '../names.js';
import { COMPONENTS, type ComponentName, type InferenceServiceSpec } from '../spec.js';

/** KServe's explain path on the top-level host. */
const EXPLAIN_PATH = '^/v1/models/[\\w-]+:explain$';
const DEFAULT_TIMEOUT_SECONDS = 60;

/** A weighted backend: the stable predictor, its canary, or another component. */
export interface Backend {
  role: Role;
  weight?: number;
}

/**
 * KServe's raw HTTPRoutes: `<n>` for the top-level host (explain path to the explainer,
 * everything else to the entry component) and `<n>-<component>` per component host. The
 * predictor's backends carry the canary weights.
 */
export function httpRoutesFor(
  parent: Parent<InferenceServiceSpec>,
  gateway: GatewayConfig,
  hosts: ExternalHosts,
  entry: ComponentName,
  predictor: Backend[],
): KubeObject[] {
  const spec = parent.spec;
  const backendsOf = (role: ComponentName): Backend[] => (role === 'predictor' ? predictor : [{ role }]);
  const topRules = [
    ...(spec.explainer ? [ruleFor(parent, backendsOf('explainer'), spec.explainer.timeout, EXPLAIN_PATH)] : []),
    ruleFor(parent, backendsOf(entry), spec[entry]?.timeout),
  ];
  const route = (role: ComponentName | undefined, rules: unknown[]) => routeFor(parent, gateway, hostOf(hosts, role), role, rules);
  const routes = [route(undefined, topRules)];
  for (const role of COMPONENTS) {
    const component = spec[role];
    if (component) routes.push(route(role, [ruleFor(parent, backendsOf(role), component.timeout)]));
  }
  return routes;
}

function routeFor(parent: Parent<unknown>, gateway: GatewayConfig, host: string, role: ComponentName | undefined, rules: unknown[]): KubeObject {
  // The label of the one host it routes: the parents whose hosts may collide with it find it (kit host-conflicts.ts).
  const meta = routeMeta(parent, { ...exposureLabelsFor(parent, role), ...hostLabels([role ? serviceName(parent, role) : parent.metadata.name]) });
  return {
    apiVersion: HTTP_ROUTE.apiVersion,
    kind: HTTP_ROUTE.kind,
    metadata: childMeta(parent, routeName(parent, role), meta.labels, meta.annotations),
    spec: {
      parentRefs: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', namespace: gateway.namespace, name: gateway.name }],
      hostnames: [host],
      rules,
    },
  };
}

function ruleFor(parent: Parent<unknown>, backends: Backend[], timeout: number | undefined, regex?: string) {
  const namespace = parent.metadata.namespace;
  return {
    matches: [regex ? { path: { type: 'RegularExpression', value: regex } } : { path: { type: 'PathPrefix', value: '/' } }],
    filters: [
      {
        type: 'RequestHeaderModifier',
        requestHeaderModifier: {
          set: [
            { name: 'KServe-Isvc-Name', value: parent.metadata.name },
            { name: 'KServe-Isvc-Namespace', value: namespace },
          ],
        },
      },
    ],
    backendRefs: backends.map((b) => ({
      group: '',
      kind: 'Service',
      name: serviceName(parent, b.role),
      port: SERVICE_PORT,
      ...(b.weight !== undefined ? { weight: b.weight } : {}),
    })),
    timeouts: { request: `${timeout ?? DEFAULT_TIMEOUT_SECONDS}s` },
  };
}
