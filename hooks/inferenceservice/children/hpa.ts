import type { V2HorizontalPodAutoscaler, V2MetricSpec } from '@kubernetes/client-node';
import { childMeta, type Parent } from '../../kit/index.js';
import type { ComponentMeta } from './metadata.js';
import { AUTOSCALER_CLASS_ANNOTATION, workloadName, type Role } from '../names.js';
import { scalingOf, type ComponentSpec } from '../spec.js';

export type AutoscalerClass = 'hpa' | 'none' | 'external';

/**
 * `serving.kserve.io/autoscalerClass` of a component (its own annotations win), default hpa.
 * Classes a raw deployment cannot act on (kpa, keda) leave scaling to someone else, as external.
 */
export function autoscalerClassOf(parent: Parent<unknown>, spec: ComponentSpec): AutoscalerClass {
  const value = spec.annotations?.[AUTOSCALER_CLASS_ANNOTATION] ?? parent.metadata.annotations?.[AUTOSCALER_CLASS_ANNOTATION] ?? 'hpa';
  return value === 'hpa' || value === 'none' ? value : 'external';
}

/** KServe's HPA for a raw Deployment: min ≥ 1, max ≥ min, cpu at 80 % unless told otherwise. */
export function hpaFor(parent: Parent<unknown>, role: Role, spec: ComponentSpec, meta: ComponentMeta): V2HorizontalPodAutoscaler {
  const s = scalingOf(spec);
  const name = workloadName(parent, role);
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: childMeta(parent, name, meta.labels, meta.annotations),
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
      minReplicas: s.min,
      maxReplicas: s.max,
      ...(s.target !== undefined ? { metrics: metricsFor(s.metric, s.target) } : {}),
      // KServe writes an empty behavior, which the API server fills with its scale-up and scale-down
      // defaults (hpa_reconciler.go createHPA; k8s autoscaling/v2 SetDefaults_HorizontalPodAutoscalerBehavior).
      behavior: {},
    },
  };
}

/** Memory without a target gets no metric, as in KServe (the API server then defaults to cpu 80 %). */
function metricsFor(metric: 'cpu' | 'memory', target: number): V2MetricSpec[] {
  return [{ type: 'Resource', resource: { name: metric, target: { type: 'Utilization', averageUtilization: target } } }];
}
