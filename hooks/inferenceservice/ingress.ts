import type { V1Ingress, V1IngressRule } from '@kubernetes/client-node';
import type { HookConfig } from '../config.js';
import { childMeta, labelValue, standardLabels, type Parent } from '../kit/index.js';
import { externalHost } from './hosts.js';
import { ingressName, ISVC_LABEL, SERVICE_PORT, serviceName } from './names.js';
import type { ComponentName, InferenceServiceSpec } from './spec.js';

/**
 * KServe's raw Ingress: the top-level host goes to the entry component (transformer, else
 * predictor), and each component has a host of its own. Canary splits cannot be written
 * in an Ingress: it always serves the stable predictor.
 */
export function ingressFor(parent: Parent<InferenceServiceSpec>, config: HookConfig): V1Ingress {
  const spec = parent.spec;
  const entry: ComponentName = spec.transformer ? 'transformer' : 'predictor';
  const rules: V1IngressRule[] = [ruleFor(externalHost(parent, config), serviceName(parent, entry))];
  for (const role of ['predictor', 'transformer', 'explainer'] as const) {
    if (role === 'predictor' || spec[role]) rules.push(ruleFor(externalHost(parent, config, role), serviceName(parent, role)));
  }
  const labels = { ...standardLabels({ name: 'kserve', instance: parent.metadata.name, component: 'ingress', partOf: 'inferenceservice' }), [ISVC_LABEL]: labelValue(parent.metadata.name) };
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: childMeta(parent, ingressName(parent), labels),
    spec: {
      ...(config.ingress.className ? { ingressClassName: config.ingress.className } : {}),
      rules,
    },
  };
}

function ruleFor(host: string, service: string): V1IngressRule {
  return { host, http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: service, port: { number: SERVICE_PORT } } } }] } };
}
