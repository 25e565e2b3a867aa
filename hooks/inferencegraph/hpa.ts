import type { V2HorizontalPodAutoscaler } from '@kubernetes/client-node';
import { childMeta, type Parent } from '../kit/index.js';
import { annotationsFor } from './metadata.js';
import { deploymentName, labelsFor } from './names.js';
import type { InferenceGraphSpec } from './spec.js';

const AUTOSCALER_CLASS_ANNOTATION = 'serving.kserve.io/autoscalerClass';
/** constants.DefaultCPUUtilization. */
const DEFAULT_CPU_UTILIZATION = 80;

export interface Scaling {
  /** hpa: an HPA; none: replicas = min; external: neither (KEDA or another scaler owns them). */
  autoscaler: 'hpa' | 'none' | 'external';
  min: number;
  max: number;
}

/**
 * hpa_reconciler.go createHPA: min = minReplicas, at least 1 (DefaultMinReplicas); max at
 * least min. The class from the graph's `serving.kserve.io/autoscalerClass` (raw_ig.go passes
 * the graph's annotations as the component's), hpa by default.
 */
export function scalingOf(parent: Parent<InferenceGraphSpec>): Scaling {
  const min = Math.max(parent.spec.minReplicas ?? 1, 1);
  const max = Math.max(parent.spec.maxReplicas ?? 0, min);
  const value = parent.metadata.annotations?.[AUTOSCALER_CLASS_ANNOTATION] ?? 'hpa';
  const autoscaler = value === 'hpa' || value === 'none' ? value : 'external';
  return { autoscaler, min, max };
}

/**
 * HPA `<n>` on the router (getHPAMetrics): cpu at scaleTarget, default 80 %; memory only with a
 * scaleTarget; concurrency and rps (Knative's) give no metric, and the API server's default applies.
 */
export function hpaFor(parent: Parent<InferenceGraphSpec>): V2HorizontalPodAutoscaler | undefined {
  const scaling = scalingOf(parent);
  if (scaling.autoscaler !== 'hpa') return undefined;
  const { scaleMetric, scaleTarget } = parent.spec;
  const metric = scaleMetric ?? 'cpu';
  const target = metric === 'cpu' ? (scaleTarget ?? DEFAULT_CPU_UTILIZATION) : metric === 'memory' ? scaleTarget : undefined;
  const name = deploymentName(parent);
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: childMeta(parent, name, labelsFor(parent, 'router'), annotationsFor(parent)),
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
      minReplicas: scaling.min,
      maxReplicas: scaling.max,
      ...(target !== undefined
        ? { metrics: [{ type: 'Resource', resource: { name: metric, target: { type: 'Utilization', averageUtilization: target } } }] }
        : {}),
      // hpa_reconciler.go createHPA: an empty behavior, filled by the API server.
      behavior: {},
    },
  };
}
