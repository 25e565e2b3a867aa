import type { V1Ingress, V1IngressRule } from '@kubernetes/client-node';
import { childMeta, type Parent } from '../../kit/index.js';
import { hostLabels } from '../../kserve/host-conflicts.js';
import type { IngressConfig } from '../config.js';
import type { ExternalHosts } from './hosts.js';
import { ingressAnnotations } from './metadata.js';
import { exposureLabelsFor, ingressName, SERVICE_PORT, serviceName } from '../names.js';
import type { ComponentName } from '../spec.js';

/**
 * KServe's raw Ingress: the top-level host goes to the entry component (transformer, else
 * predictor), and each component has a host of its own. Canary splits cannot be written
 * in an Ingress: it always serves the stable predictor.
 */
export function ingressFor(parent: Parent<unknown>, ingress: IngressConfig, hosts: ExternalHosts, entry: ComponentName): V1Ingress {
  const top = ruleFor(hosts.service, serviceName(parent, entry));
  const component = (role: ComponentName): V1IngressRule[] => {
    const host = hosts.components[role];
    return host ? [ruleFor(host, serviceName(parent, role))] : [];
  };
  // KServe's order (kube_ingress_reconciler.go createRawIngress): with a transformer, the explainer's
  // rule first, then the top host, the transformer's and the predictor's; else the top host, the
  // explainer's and the predictor's.
  const rules: V1IngressRule[] = hosts.components.transformer
    ? [...component('explainer'), top, ...component('transformer'), ...component('predictor')]
    : [top, ...component('explainer'), ...component('predictor')];
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    // One label per host routed: the parents whose hosts may collide with these find it (kit host-conflicts.ts).
    metadata: childMeta(
      parent,
      ingressName(parent),
      {
        ...exposureLabelsFor(parent),
        ...hostLabels([parent.metadata.name, ...Object.keys(hosts.components).map((role) => serviceName(parent, role as ComponentName))]),
      },
      ingressAnnotations(parent),
    ),
    spec: {
      ...(ingress.className ? { ingressClassName: ingress.className } : {}),
      rules,
    },
  };
}

function ruleFor(host: string, service: string): V1IngressRule {
  return { host, http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: service, port: { number: SERVICE_PORT } } } }] } };
}
