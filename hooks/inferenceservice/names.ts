import { childName, labelValue, standardLabels, type Parent } from '../kit/index.js';
import type { ComponentName } from './spec.js';

type AnyParent = Parent<unknown>;

/** KServe's label keys, which users' NetworkPolicies and dashboards select on. */
export const ISVC_LABEL = 'serving.kserve.io/inferenceservice';
export const COMPONENT_LABEL = 'component';
export const SPEC_HASH_ANNOTATION = 'modelhooks.dev/spec-hash';
/** Hex digits of its value: 20, so a hash of modelhooks 0.1.0 (16 digits) is told apart without computing it (canary.ts). */
export const SPEC_HASH_LENGTH = 20;
export const LEGACY_SPEC_HASH_LENGTH = 16;
export const AUTOSCALER_CLASS_ANNOTATION = 'serving.kserve.io/autoscalerClass';
export const DEPLOYMENT_MODE_ANNOTATION = 'serving.kserve.io/deploymentMode';
export const STORAGE_SECRET_ANNOTATION = 'serving.kserve.io/storageSecretName';
export const VISIBILITY_LABEL = 'networking.kserve.io/visibility';
export const SERVER_CONTAINER = 'kserve-container';
export const HTTP_PORT = 8080;
export const SERVICE_PORT = 80;

/** A role: a component, or the predictor's canary. */
export type Role = ComponentName | 'canary';
const segment = (role: Role) => (role === 'canary' ? 'predictor-canary' : role);

/** `<n>-<component>` (Deployment, HPA): ≤63 characters, hashed when longer. */
export const workloadName = (p: AnyParent, role: Role) => childName([p.metadata.name, segment(role)]);
/** Services also serve as DNS names: DNS-1035. */
export const serviceName = (p: AnyParent, role: Role) => childName([p.metadata.name, segment(role)], { dns1035: true });
export const ingressName = (p: AnyParent) => childName([p.metadata.name]);
export const routeName = (p: AnyParent, role?: ComponentName) => childName(role ? [p.metadata.name, role] : [p.metadata.name]);

/** The pod selector, `app: isvc.<n>-<component>`, as KServe's raw Services select. */
export function selectorFor(p: AnyParent, role: Role): Record<string, string> {
  // Too long for a label value: shortened with a hash of the whole, so it stays unique.
  return { app: labelValue(`isvc.${workloadName(p, role)}`) };
}

export function labelsFor(p: AnyParent, role: Role): Record<string, string> {
  const component = role === 'canary' ? 'predictor' : role;
  return {
    ...standardLabels({ name: 'kserve', instance: p.metadata.name, component: segment(role), partOf: 'inferenceservice' }),
    [ISVC_LABEL]: labelValue(p.metadata.name),
    [COMPONENT_LABEL]: component,
    ...selectorFor(p, role),
  };
}

/** Labels of the Ingress and HTTPRoutes: the whole service's (`ingress`) or one component's. */
export function exposureLabelsFor(p: AnyParent, role?: ComponentName): Record<string, string> {
  return {
    ...standardLabels({ name: 'kserve', instance: p.metadata.name, component: role ?? 'ingress', partOf: 'inferenceservice' }),
    [ISVC_LABEL]: labelValue(p.metadata.name),
  };
}

/** In-cluster host of a component's Service: `<svc>.<ns>.svc.cluster.local`. */
export function serviceHost(p: AnyParent, role: Role): string {
  return `${serviceName(p, role)}.${p.metadata.namespace}.svc.cluster.local`;
}
