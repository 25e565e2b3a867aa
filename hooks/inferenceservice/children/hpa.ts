import type { V2HorizontalPodAutoscaler, V2MetricSpec, V2MetricTarget } from '@kubernetes/client-node';
import { childMeta, isRecord, type Parent } from '../../kit/index.js';
import type { ComponentMeta } from './metadata.js';
import { AUTOSCALER_CLASS_ANNOTATION, workloadName, type Role } from '../names.js';
import { DEFAULT_CPU_UTILIZATION, scalingOf, type ComponentSpec } from '../spec.js';

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
  const metrics = isRecord(spec.autoScaling) ? autoScalingMetrics(spec.autoScaling) : s.target !== undefined ? metricsFor(s.metric, s.target) : [];
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: childMeta(parent, name, meta.labels, meta.annotations),
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
      minReplicas: s.min,
      maxReplicas: s.max,
      ...(metrics.length > 0 ? { metrics } : {}),
      // KServe writes an empty behavior, which the API server fills with its scale-up and scale-down
      // defaults (hpa_reconciler.go createHPA; k8s autoscaling/v2 SetDefaults_HorizontalPodAutoscalerBehavior).
      // autoScaling.behavior too is not read for an HPA there.
      behavior: {},
    },
  };
}

/** Memory without a target gets no metric, as in KServe (the API server then defaults to cpu 80 %). */
function metricsFor(metric: 'cpu' | 'memory', target: number): V2MetricSpec[] {
  return [{ type: 'Resource', resource: { name: metric, target: { type: 'Utilization', averageUtilization: target } } }];
}

/**
 * The HPA's metrics from v1beta1 `autoScaling` (KServe v0.20 pkg/controller/v1beta1/inferenceservice/
 * reconcilers/hpa/hpa_reconciler.go getHPAMetrics): once `autoScaling` is written, scaleMetric and
 * scaleTarget are not read. Each metric with a `resource` gives one, in order: cpu at its
 * averageUtilization (80 unless set), whatever target type is written; memory with a Utilization
 * target at its averageUtilization, with an AverageValue target at its averageValue. The others
 * (External, PodMetric: KEDA's) give none, nor does a memory target the API server would refuse
 * in KServe's HPA (type Value, which KServe writes without a type: a resource target is
 * Utilization or AverageValue; a type without its value). No metric at all: the API server's default, cpu at 80 %.
 */
export function autoScalingMetrics(autoScaling: Record<string, unknown>): V2MetricSpec[] {
  const metrics = Array.isArray(autoScaling.metrics) ? autoScaling.metrics : [];
  return metrics.flatMap((m): V2MetricSpec[] => {
    const resource = isRecord(m) && isRecord(m.resource) ? m.resource : undefined;
    if (!resource) return [];
    const target = isRecord(resource.target) ? resource.target : {};
    const utilization = typeof target.averageUtilization === 'number' ? target.averageUtilization : undefined;
    let made: V2MetricTarget | undefined;
    if (resource.name === 'cpu') made = { type: 'Utilization', averageUtilization: utilization ?? DEFAULT_CPU_UTILIZATION };
    if (resource.name === 'memory' && target.type === 'Utilization' && utilization !== undefined)
      made = { type: 'Utilization', averageUtilization: utilization };
    if (resource.name === 'memory' && target.type === 'AverageValue') {
      const value = target.averageValue;
      if (typeof value === 'string' || typeof value === 'number') made = { type: 'AverageValue', averageValue: String(value) };
    }
    return made ? [{ type: 'Resource', resource: { name: resource.name as string, target: made } }] : [];
  });
}
