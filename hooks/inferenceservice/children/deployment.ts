import type { V1Deployment, V1DeploymentStrategy, V1PodSpec } from '@kubernetes/client-node';
import { childMeta, type Parent } from '../../kit/index.js';
import type { RawSettings } from '../config.js';
import type { ComponentMeta } from './metadata.js';
import { POD_INJECTION_ANNOTATION, splitInjection } from '../pod/injection.js';
import { selectorFor, SPEC_HASH_ANNOTATION, workloadName, type Role } from '../names.js';
import type { ComponentSpec } from '../spec.js';

export interface DeploymentOptions {
  role: Role;
  spec: ComponentSpec;
  pod: V1PodSpec;
  /** Set when no HPA owns the replica count (autoscalerClass none or external). */
  replicas?: number;
  /** Hash of the predictor's pod: tells a later sync which spec this Deployment runs. */
  specHash?: string;
  /** Labels and annotations as KServe propagates them (metadata.ts). */
  meta: ComponentMeta;
  /** inferenceservice-config's `deploy.deploymentRolloutStrategy.defaultRollout`, for a spec without deploymentStrategy. */
  defaultRollout?: RawSettings['defaultRollout'];
  /** `webhook`: the template as KServe's controller writes it, what its pod webhook adds kept apart for modelhooks' (pod/injection.ts). */
  podInjection?: PodInjectionMode;
}

/** MODELHOOKS_POD_INJECTION: KServe's pod webhook's additions in the template (`template`) or added to each Pod by modelhooks' webhook. */
export type PodInjectionMode = 'template' | 'webhook';

export function deploymentFor(parent: Parent<unknown>, o: DeploymentOptions): V1Deployment {
  // KServe gives the Deployment and its pods the same labels and annotations (componentMeta).
  const split = o.podInjection === 'webhook' ? splitInjection({ annotations: o.meta.podAnnotations, spec: o.pod }, o.meta.annotations) : undefined;
  const annotations = {
    ...o.meta.annotations,
    ...(o.specHash ? { [SPEC_HASH_ANNOTATION]: o.specHash } : {}),
    ...(split ? { [POD_INJECTION_ANNOTATION]: JSON.stringify(split.injection) } : {}),
  };
  const podAnnotations = split ? split.template.annotations : o.meta.podAnnotations;
  // ComponentExtensionSpec.deploymentStrategy is copied as written, else the ConfigMap's rollout (deployment_reconciler.go createRawDefaultDeployment).
  const strategy = (o.spec.deploymentStrategy as V1DeploymentStrategy | undefined) ?? rolloutOf(o.defaultRollout);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: childMeta(parent, workloadName(parent, o.role), o.meta.labels, annotations),
    spec: {
      ...(o.replicas !== undefined ? { replicas: o.replicas } : {}),
      selector: { matchLabels: selectorFor(parent, o.role) },
      ...(strategy !== undefined ? { strategy } : {}),
      template: {
        // KServe's pod template is componentMeta, its name included (createRawDefaultDeployment: podMetadata := componentMeta).
        metadata: {
          name: workloadName(parent, o.role),
          labels: o.meta.podLabels,
          ...(Object.keys(podAnnotations).length > 0 ? { annotations: podAnnotations } : {}),
        },
        spec: split ? split.template.spec : o.pod,
      },
    },
  };
}

/**
 * setDefaultDeploymentSpec's rolling update (25% each), then applyRolloutStrategyFromConfigmap's values where set.
 * KServe writes "1" as the string "1", which the API server refuses (a string must be a percentage): a count is written as a number.
 */
function rolloutOf(r: RawSettings['defaultRollout']): V1DeploymentStrategy | undefined {
  if (!r) return undefined;
  const value = (v: string) => (v === '' ? '25%' : v.endsWith('%') ? v : Number(v));
  return { type: 'RollingUpdate', rollingUpdate: { maxSurge: value(r.maxSurge), maxUnavailable: value(r.maxUnavailable) } };
}
