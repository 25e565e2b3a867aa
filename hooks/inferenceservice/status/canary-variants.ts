import { condition, isRecord, labelValue, lastApplied, type Composed, type Cond, type KubeObject, type Parent } from '../../kit/index.js';
import type { ComponentPlan } from '../components.js';
import { ISVC_LABEL, serviceName, workloadName } from '../names.js';
import type { InferenceServiceSpec, PredictorSpec } from '../spec.js';
import { workloadFor } from '../children/workloads.js';

/*
 * KServe v0.20's spec.canary[] in raw mode (pkg/controller/v1beta1/inferenceservice/components/
 * predictor.go reconcileCanaryDeployments @v0.20.0): each entry runs as its own Deployment and
 * Service `<n>-<canary name>-predictor`, the stable predictor spec merged with the entry's, with
 * fixed replicas; the stable predictor's minReplicas gives up as many. No Ingress or HTTPRoute
 * leads to a canary: callers reach it through its own Service, and trafficPercent sizes it.
 */

type IsvcParent = Parent<InferenceServiceSpec>;
export type CanaryEntry = NonNullable<InferenceServiceSpec['canary']>[number];

/** One spec.canary[] entry as planned: its name, share, fixed replicas, and what it runs (or why it cannot). */
export interface CanaryVariant {
  name: string;
  trafficPercent: number;
  replicas: number;
  outcome: { plan: ComponentPlan } | { failure: { reason: string; message: string } };
}

/** While a canaryTrafficPercent canary runs, its Deployment; else, beside the tree, every spec.canary[] entry's (status.ts). */
export const CANARY_PREDICTOR_READY = 'CanaryPredictorReady';

/** The parent seen under `<n>-<canary>`: names and the `app` selector come out as `<n>-<canary>-predictor`. */
const variantView = (parent: IsvcParent, name: string): IsvcParent => ({
  ...parent,
  metadata: { ...parent.metadata, name: `${parent.metadata.name}-${name}` },
});

/** constants.PredictorServiceName(isvc, name): `<n>-<name>-predictor`, for the Deployment and HPA. */
export const variantWorkloadName = (parent: IsvcParent, name: string) => workloadName(variantView(parent, name), 'predictor');
/** The same name for the Service, as a DNS-1035 label. */
export const variantServiceName = (parent: IsvcParent, name: string) => serviceName(variantView(parent, name), 'predictor');

/** canaryReplicaCount: the entry's minReplicas, else ceil(stable minReplicas (default 1) × trafficPercent / 100). */
export function canaryReplicaCount(stable: PredictorSpec, entry: CanaryEntry): number {
  if (typeof entry.predictor.minReplicas === 'number') return entry.predictor.minReplicas;
  return Math.ceil(((stable.minReplicas ?? 1) * entry.trafficPercent) / 100);
}

/** The stable predictor's minReplicas less every canary's replicas, at least 1; unset stays unset (reconcileRawDeployment). */
export function stableMinReplicas(stable: PredictorSpec, entries: readonly CanaryEntry[]): number | undefined {
  if (entries.length === 0 || stable.minReplicas === undefined) return stable.minReplicas;
  const taken = entries.reduce((sum, entry) => sum + canaryReplicaCount(stable, entry), 0);
  return Math.max(stable.minReplicas - taken, 1);
}

/**
 * buildCanaryPredictor: the stable spec with the entry's merged over it (mergo.WithOverride:
 * objects merge key by key, a non-empty value replaces), autoscaling cleared, minReplicas fixed.
 */
export function canaryPredictorSpec(stable: PredictorSpec, entry: CanaryEntry, replicas: number): PredictorSpec {
  const merged = mergeOver(stable, entry.predictor) as PredictorSpec;
  const { maxReplicas: _max, scaleTarget: _target, scaleMetric: _metric, autoScaling: _auto, ...rest } = merged;
  return { ...rest, minReplicas: replicas };
}

function mergeOver(base: unknown, over: unknown): unknown {
  if (over === undefined || over === null || over === '' || (Array.isArray(over) && over.length === 0)) return base;
  if (isRecord(base) && isRecord(over) && !Array.isArray(base) && !Array.isArray(over)) {
    const out: Record<string, unknown> = { ...base };
    for (const [k, v] of Object.entries(over)) out[k] = mergeOver(base[k], v);
    return out;
  }
  return over;
}

/** The variant's Deployment, Service and HPA: built as the predictor's, under `<n>-<canary>-predictor`, labelled for `<n>`. */
export function variantWorkloads(
  parent: IsvcParent,
  variant: CanaryVariant,
  observed: (apiVersion: string, kind: string, name: string) => KubeObject | undefined,
): Composed[] {
  if ('failure' in variant.outcome) {
    // Nothing to build: what runs is kept as it is.
    const workload = variantWorkloadName(parent, variant.name);
    const kept = [
      observed('apps/v1', 'Deployment', workload),
      observed('v1', 'Service', variantServiceName(parent, variant.name)),
      observed('autoscaling/v2', 'HorizontalPodAutoscaler', workload),
    ];
    return kept.filter((o): o is KubeObject => o !== undefined).map((o) => lastApplied(o));
  }
  return workloadFor(variantView(parent, variant.name), 'predictor', variant.outcome.plan).map((child) =>
    relabelled(child as KubeObject, parent.metadata.name),
  );
}

/**
 * The view's name in KServe's isvc label and the instance label goes back to the InferenceService's.
 * The child was just built here: only the objects on the way to its labels are copied (its
 * metadata, and a Deployment's spec, template and template metadata), never the pod.
 */
function relabelled(child: KubeObject, name: string): KubeObject {
  const withLabels = <T extends Record<string, unknown>>(meta: T): T => {
    if (!isRecord(meta.labels)) return meta;
    const labels: Record<string, unknown> = { ...meta.labels };
    // As names.ts writes them: a parent name of 64 or more characters is hashed to a label value.
    for (const key of [ISVC_LABEL, 'app.kubernetes.io/instance']) if (key in labels) labels[key] = labelValue(name);
    return { ...meta, labels };
  };
  const out: KubeObject = { ...child, metadata: withLabels(child.metadata) };
  const spec = child.spec;
  if (isRecord(spec) && isRecord(spec.template) && isRecord(spec.template.metadata)) {
    out.spec = { ...spec, template: { ...spec.template, metadata: withLabels(spec.template.metadata) } };
  }
  return out;
}

/** status.canaryStatuses: per entry, Ready once its Deployment has an available replica (reconcileCanaryDeployments). */
export function canaryStatuses(parent: IsvcParent, variants: readonly CanaryVariant[], observed: (name: string) => KubeObject | undefined) {
  return variants.map((v) => {
    const status = observed(variantWorkloadName(parent, v.name))?.status;
    const available = isRecord(status) && typeof status.availableReplicas === 'number' ? status.availableReplicas : 0;
    return { name: v.name, ready: 'plan' in v.outcome && available > 0, trafficPercent: v.trafficPercent };
  });
}

/** CanaryPredictorReady: True AllCanariesReady, else False CanariesNotReady naming them. */
export function canariesCondition(statuses: ReadonlyArray<{ name: string; ready: boolean }>, variants: readonly CanaryVariant[]): Cond {
  const waiting = statuses.filter((s) => !s.ready).map((s) => s.name);
  if (waiting.length === 0) return condition.true(CANARY_PREDICTOR_READY, 'AllCanariesReady', `${statuses.length} canaries ready`);
  const failures = variants.flatMap((v) => ('failure' in v.outcome ? [`${v.name}: ${v.outcome.failure.message}`] : []));
  return condition.false(
    CANARY_PREDICTOR_READY,
    'CanariesNotReady',
    `not ready: ${waiting.join(', ')}${failures.length > 0 ? ` (${failures.join('; ')})` : ''}`,
  );
}

/** The children spec.canary[] may have, for conflict detection (index.ts childNames). */
export function variantChildNames(parent: IsvcParent): Array<{ apiVersion: string; kind: string; names: string[] }> {
  const names = (parent.spec.canary ?? []).map((c) => c.predictor.name).filter((n): n is string => typeof n === 'string' && n !== '');
  if (names.length === 0) return [];
  const workloads = names.map((n) => variantWorkloadName(parent, n));
  return [
    { apiVersion: 'apps/v1', kind: 'Deployment', names: workloads },
    { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', names: workloads },
    { apiVersion: 'v1', kind: 'Service', names: names.map((n) => variantServiceName(parent, n)) },
  ];
}
