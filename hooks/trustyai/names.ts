import { childName, labelValue, standardLabels, type Parent } from '../kit/index.js';

export const COMPONENT = 'trustyai-service';
export const MODEL_SERVING_CONFIG = 'model-serving-config';
export const HTTP_PORT = 8080;

type AnyParent = Parent<unknown>;

export const deploymentName = (p: AnyParent) => childName([p.metadata.name]);
export const serviceName = (p: AnyParent) => childName([p.metadata.name], { dns1035: true });
export const pvcName = (p: AnyParent) => childName([p.metadata.name, 'pvc']);

/** Labels of every child; `app` is what the upstream operator's users select on. */
export function labelsFor(p: AnyParent): Record<string, string> {
  return { ...standardLabels({ name: COMPONENT, instance: p.metadata.name, component: COMPONENT, partOf: 'trustyai' }), app: labelValue(p.metadata.name) };
}

/** The Deployment's selector: immutable, so only labels that never change. */
export function selectorFor(p: AnyParent): Record<string, string> {
  const labels = labelsFor(p);
  return { 'app.kubernetes.io/instance': labels['app.kubernetes.io/instance'] as string, 'app.kubernetes.io/component': COMPONENT };
}

/** The URL ModelMesh posts payloads to: the in-cluster address of the Service. */
export function payloadProcessorUrl(name: string, namespace: string): string {
  return `http://${childName([name], { dns1035: true })}.${namespace}.svc.cluster.local/consumer/kserve/v2`;
}
