import type { V1Deployment, V1PodSpec } from '@kubernetes/client-node';
import { childMeta, type Parent } from '../kit/index.js';
import { labelsFor, selectorFor, SPEC_HASH_ANNOTATION, workloadName, type Role } from './names.js';
import type { ComponentSpec } from './spec.js';

export interface DeploymentOptions {
  role: Role;
  spec: ComponentSpec;
  pod: V1PodSpec;
  /** Set when no HPA owns the replica count (autoscalerClass none or external). */
  replicas?: number;
  /** Hash of the predictor's pod: tells a later sync which spec this Deployment runs. */
  specHash?: string;
}

export function deploymentFor(parent: Parent<unknown>, o: DeploymentOptions): V1Deployment {
  // The user's pod labels may add and override our descriptive labels, never the selector's.
  const labels = { ...labelsFor(parent, o.role), ...(o.spec.labels ?? {}), ...selectorFor(parent, o.role) };
  const annotations = o.specHash ? { [SPEC_HASH_ANNOTATION]: o.specHash } : undefined;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: childMeta(parent, workloadName(parent, o.role), labelsFor(parent, o.role), annotations),
    spec: {
      ...(o.replicas !== undefined ? { replicas: o.replicas } : {}),
      selector: { matchLabels: selectorFor(parent, o.role) },
      template: {
        metadata: { labels, ...(o.spec.annotations ? { annotations: o.spec.annotations } : {}) },
        spec: o.pod,
      },
    },
  };
}
