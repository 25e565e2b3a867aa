import type { HookConfig } from '../config.js';
import { childMeta, labelValue, standardLabels, type KubeObject, type Parent } from '../kit/index.js';
import { externalHost } from './hosts.js';
import { ISVC_LABEL, routeName, SERVICE_PORT, serviceName, type Role } from './names.js';
import type { ComponentName, InferenceServiceSpec } from './spec.js';

export const HTTPROUTE = { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute' };
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
export function httpRoutesFor(parent: Parent<InferenceServiceSpec>, config: HookConfig, predictor: Backend[]): KubeObject[] {
  const spec = parent.spec;
  const backendsOf = (role: ComponentName): Backend[] => (role === 'predictor' ? predictor : [{ role }]);
  const entry: ComponentName = spec.transformer ? 'transformer' : 'predictor';
  const topRules = [
    ...(spec.explainer ? [ruleFor(parent, backendsOf('explainer'), spec.explainer.timeout, EXPLAIN_PATH)] : []),
    ruleFor(parent, backendsOf(entry), spec[entry]?.timeout),
  ];
  const routes = [routeFor(parent, config, undefined, topRules)];
  for (const role of ['predictor', 'transformer', 'explainer'] as const) {
    const component = spec[role];
    if (component) routes.push(routeFor(parent, config, role, [ruleFor(parent, backendsOf(role), component.timeout)]));
  }
  return routes;
}

function routeFor(parent: Parent<unknown>, config: HookConfig, role: ComponentName | undefined, rules: unknown[]): KubeObject {
  const labels = { ...standardLabels({ name: 'kserve', instance: parent.metadata.name, component: role ?? 'ingress', partOf: 'inferenceservice' }), [ISVC_LABEL]: labelValue(parent.metadata.name) };
  return {
    ...HTTPROUTE,
    metadata: childMeta(parent, routeName(parent, role), labels),
    spec: {
      parentRefs: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', namespace: config.gateway.namespace, name: config.gateway.name }],
      hostnames: [externalHost(parent, config, role)],
      rules,
    },
  };
}

function ruleFor(parent: Parent<unknown>, backends: Backend[], timeout: number | undefined, regex?: string) {
  const namespace = parent.metadata.namespace ?? 'default';
  return {
    matches: [regex ? { path: { type: 'RegularExpression', value: regex } } : { path: { type: 'PathPrefix', value: '/' } }],
    filters: [
      {
        type: 'RequestHeaderModifier',
        requestHeaderModifier: { set: [{ name: 'KServe-Isvc-Name', value: parent.metadata.name }, { name: 'KServe-Isvc-Namespace', value: namespace }] },
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
