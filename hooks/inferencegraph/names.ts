import { childName, labelValue, standardLabels, type Parent } from '../kit/index.js';

type AnyParent = Parent<unknown>;

/** constants.InferenceGraphLabel: on every child, as KServe labels them (raw_ig.go constructForRawDeployment). */
export const INFERENCE_GRAPH_LABEL = 'serving.kserve.io/inferencegraph';
/** constants.RouterPort: the router listens here; constants.CommonDefaultHttpPort: the Service's port. */
export const ROUTER_PORT = 8080;
export const SERVICE_PORT = 80;

/** KServe names the Deployment, Service and HPA after the graph (raw_ig.go: componentMeta.Name = graph.Name). */
export const deploymentName = (p: AnyParent) => childName([p.metadata.name]);
export const serviceName = (p: AnyParent) => childName([p.metadata.name], { dns1035: true });
export const exposureName = (p: AnyParent) => childName([p.metadata.name]);

/** `app: isvc.<n>`, the selector KServe's raw Deployment and Service use (constants.GetRawServiceLabel). */
export function selectorFor(p: AnyParent): Record<string, string> {
  return { app: labelValue(`isvc.${deploymentName(p)}`) };
}

/** The graph's own labels, ours, KServe's graph label and the selector (which a user label never overrides). */
export function labelsFor(p: AnyParent, component: 'router' | 'ingress'): Record<string, string> {
  return {
    ...standardLabels({ name: 'kserve-router', instance: p.metadata.name, component, partOf: 'inferencegraph' }),
    ...(p.metadata.labels ?? {}),
    'app.kubernetes.io/managed-by': 'modelhooks',
    [INFERENCE_GRAPH_LABEL]: labelValue(p.metadata.name),
    ...(component === 'router' ? selectorFor(p) : {}),
  };
}

/** The router's pod labels as KServe writes them (raw_ig.go constructForRawDeployment; createRawDefaultDeployment adds `app`). */
export function routerPodLabels(p: AnyParent): Record<string, string> {
  return { ...(p.metadata.labels ?? {}), [INFERENCE_GRAPH_LABEL]: labelValue(p.metadata.name), ...selectorFor(p) };
}

/** In-cluster URL of the router's Service. */
export const internalUrl = (p: AnyParent) => `http://${serviceName(p)}.${p.metadata.namespace}.svc.cluster.local`;
