import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import {
  canaryPredictorSpec,
  canaryReplicaCount,
  canariesCondition,
  canaryStatuses,
  stableMinReplicas,
  variantServiceName,
  variantWorkloadName,
  type CanaryEntry,
} from '../../hooks/inferenceservice/status/canary-variants.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { InferenceServiceSpec, PredictorSpec } from '../../hooks/inferenceservice/spec.js';
import type { KubeObject, Parent } from '../../hooks/kit/index.js';
import { converge, runSync } from '../../hooks/testing/index.js';

/*
 * spec.canary[] as KServe v0.20.0 raw mode serves it. Field by field:
 *
 * | field                                              | upstream (kserve/kserve, path@v0.20.0) |
 * |----------------------------------------------------|----------------------------------------|
 * | CanarySpec {predictor, trafficPercent}             | pkg/apis/serving/v1beta1/inference_service.go CanarySpec |
 * | Deployment/Service `<n>-<name>-predictor`          | pkg/constants/constants.go PredictorServiceName; components/predictor.go reconcileCanaryDeployments |
 * | replicas: entry minReplicas, else ceil(stable min (1) × % / 100) | pkg/controller/v1beta1/inferenceservice/components/predictor.go canaryReplicaCount |
 * | stable minReplicas − Σ canary replicas, ≥ 1, only when set | components/predictor.go reconcileRawDeployment |
 * | stable spec merged under the entry's, autoscaling cleared, minReplicas fixed | components/predictor.go buildCanaryPredictor (mergo.WithOverride) |
 * | status.canaryStatuses[] {name, ready, trafficPercent} | pkg/apis/serving/v1beta1/inference_service_status.go CanaryStatus |
 * | ready = Deployment availableReplicas > 0           | components/predictor.go reconcileCanaryDeployments |
 * | CanaryPredictorReady True AllCanariesReady / False CanariesNotReady | components/predictor.go reconcileCanaryDeployments; inference_service_status.go CanaryPredictorReady |
 * | not part of Ready                                  | inference_service_status.go conditionSet (PredictorReady, IngressReady) |
 * | orphaned canary Deployments/Services deleted       | components/predictor.go reconcileCanaryDeployments (cleanup by labels) |
 * | stopped: canaries deleted, status cleared (no canaryStatuses, no CanaryPredictorReady) | components/predictor.go Reconcile (force-stop clears isvc.Status after reconcileCanaryDeployments); reconcilers/deployment, reconcilers/service (delete when stopped) |
 * | no Ingress backend for canaries                    | reconcilers/ingress/kube_ingress_reconciler.go (predictor/transformer/explainer Services only) |
 */

const config = defaultHookConfig();
const parentOf = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'iris', namespace: 'ml', generation: 1 },
  spec,
});
const sk = (uri: string) => ({ sklearn: { storageUri: uri } });
const entry = (name: string, trafficPercent: number, extra: Record<string, unknown> = {}): CanaryEntry => ({
  trafficPercent,
  predictor: { name, ...extra } as PredictorSpec,
});

describe('spec.canary[] units (table above)', () => {
  it('names each canary <n>-<name>-predictor', () => {
    const parent = { ...parentOf({ predictor: sk('gs://b/v1') }), status: {} } as unknown as Parent<InferenceServiceSpec>;
    expect(variantWorkloadName(parent, 'v2')).toBe('iris-v2-predictor');
    expect(variantServiceName(parent, 'v2')).toBe('iris-v2-predictor');
  });

  it('sizes a canary as canaryReplicaCount does', () => {
    expect(canaryReplicaCount({ minReplicas: 4 } as PredictorSpec, entry('a', 25))).toBe(1);
    expect(canaryReplicaCount({ minReplicas: 4 } as PredictorSpec, entry('a', 30))).toBe(2);
    expect(canaryReplicaCount({} as PredictorSpec, entry('a', 1))).toBe(1);
    expect(canaryReplicaCount({} as PredictorSpec, entry('a', 0))).toBe(0);
    expect(canaryReplicaCount({ minReplicas: 4 } as PredictorSpec, entry('a', 50, { minReplicas: 3 }))).toBe(3);
  });

  it("takes the canaries' replicas from the stable minReplicas, never below 1, only when set", () => {
    expect(stableMinReplicas({ minReplicas: 4 } as PredictorSpec, [entry('a', 25)])).toBe(3);
    expect(stableMinReplicas({ minReplicas: 2 } as PredictorSpec, [entry('a', 100), entry('b', 0, { minReplicas: 2 })])).toBe(1);
    expect(stableMinReplicas({} as PredictorSpec, [entry('a', 50)])).toBeUndefined();
    expect(stableMinReplicas({ minReplicas: 4 } as PredictorSpec, [])).toBe(4);
  });

  it('merges the entry over the stable spec and pins its replicas', () => {
    const stable = {
      minReplicas: 4,
      maxReplicas: 8,
      scaleTarget: 60,
      scaleMetric: 'cpu',
      labels: { team: 'a' },
      sklearn: { storageUri: 'gs://b/v1', runtimeVersion: '1.0' },
    } as PredictorSpec;
    const merged = canaryPredictorSpec(stable, entry('v2', 25, { labels: { track: 'canary' }, sklearn: { storageUri: 'gs://b/v2' } }), 1);
    expect(merged).toEqual({ name: 'v2', minReplicas: 1, labels: { team: 'a', track: 'canary' }, sklearn: { storageUri: 'gs://b/v2', runtimeVersion: '1.0' } });
  });

  it('reads readiness from availableReplicas and reports CanaryPredictorReady', () => {
    const parent = { ...parentOf({ predictor: sk('gs://b/v1') }), status: {} } as unknown as Parent<InferenceServiceSpec>;
    const plan = { plan: {} as never };
    const variants = [
      { name: 'v2', trafficPercent: 20, replicas: 1, outcome: plan },
      { name: 'v3', trafficPercent: 0, replicas: 1, outcome: plan },
    ];
    const observed = (available: Record<string, number>) => (name: string) =>
      name in available ? ({ metadata: { name }, status: { availableReplicas: available[name] } } as unknown as KubeObject) : undefined;
    const some = canaryStatuses(parent, variants, observed({ 'iris-v2-predictor': 2, 'iris-v3-predictor': 0 }));
    expect(some).toEqual([
      { name: 'v2', ready: true, trafficPercent: 20 },
      { name: 'v3', ready: false, trafficPercent: 0 },
    ]);
    expect(canariesCondition(some, variants)).toMatchObject({
      type: 'CanaryPredictorReady',
      status: 'False',
      reason: 'CanariesNotReady',
      message: 'not ready: v3',
    });
    const all = canaryStatuses(parent, variants, observed({ 'iris-v2-predictor': 1, 'iris-v3-predictor': 1 }));
    expect(canariesCondition(all, variants)).toMatchObject({ status: 'True', reason: 'AllCanariesReady' });
  });
});

describe('spec.canary[] in a sync', () => {
  const spec = { predictor: { minReplicas: 2, ...sk('gs://b/v1') }, canary: [{ trafficPercent: 50, predictor: { name: 'v2', ...sk('gs://b/v2') } }] };

  it('lists the canary children for conflict detection', () => {
    const named = inferenceservice.childNames?.(parentOf(spec) as never, config as never) ?? [];
    for (const kind of ['Deployment', 'Service', 'HorizontalPodAutoscaler']) {
      expect(named.filter((n) => n.kind === kind).flatMap((n) => n.names)).toContain('iris-v2-predictor');
    }
  });

  it('runs the canary beside the stable predictor and drops it with its entry', () => {
    // Converged: the Ingress is made once the predictor is ready (kube_ingress_reconciler.go createRawIngress).
    const out = converge(inferenceservice, { parent: parentOf(spec), config }).result;
    const names = (kind: string) => out.children.filter((c) => c.kind === kind).map((c) => c.metadata.name);
    expect(names('Deployment')).toEqual(['iris-predictor', 'iris-v2-predictor']);
    expect(names('Service')).toEqual(['iris-predictor', 'iris-v2-predictor']);
    const ingress = out.children.find((c) => c.kind === 'Ingress');
    expect(ingress).toBeDefined();
    expect(JSON.stringify(ingress)).not.toContain('iris-v2-predictor');
    const later = runSync(inferenceservice, { parent: parentOf({ predictor: spec.predictor }), config, observed: out.children as KubeObject[] });
    expect(later.children.map((c) => c.metadata.name)).not.toContain('iris-v2-predictor');
    expect(later.condition('CanaryPredictorReady')).toBeUndefined();
    expect((later.status as Record<string, unknown>).canaryStatuses).toBeUndefined();
  });

  it('keeps a canary that can no longer be built as it runs, and says why', () => {
    const first = runSync(inferenceservice, { parent: parentOf(spec), config });
    const broken = { ...spec, canary: [{ trafficPercent: 50, predictor: { name: 'v2', sklearn: { storageUri: 'gs://b/v2', runtime: 'no-such-runtime' } } }] };
    const out = runSync(inferenceservice, { parent: parentOf(broken), config, observed: first.children as KubeObject[] });
    const kept = out.children.filter((c) => c.metadata.name === 'iris-v2-predictor');
    expect(kept.map((c) => c.kind).sort()).toEqual(['Deployment', 'HorizontalPodAutoscaler', 'Service']);
    expect(kept.find((c) => c.kind === 'Deployment')).toEqual(first.children.find((c) => c.kind === 'Deployment' && c.metadata.name === 'iris-v2-predictor'));
    const cond = out.condition('CanaryPredictorReady');
    expect(cond).toMatchObject({ status: 'False', reason: 'CanariesNotReady' });
    expect(cond?.message).toContain('no-such-runtime');
    expect(out.condition('PredictorReady')?.reason).not.toBe('NoSupportingRuntime');
  });

  it('stops the canaries with the rest and clears their status', () => {
    const stopped = { ...parentOf(spec), metadata: { name: 'iris', namespace: 'ml', generation: 1, annotations: { 'serving.kserve.io/stop': 'true' } } };
    const out = runSync(inferenceservice, { parent: stopped, config });
    expect(out.children).toEqual([]);
    expect(out.condition('CanaryPredictorReady')).toBeUndefined();
    expect((out.status as Record<string, unknown>).canaryStatuses).toBeUndefined();
  });

  it('no longer names spec.canary in IgnoredFields, but a canary field nothing acts on', () => {
    const out = runSync(inferenceservice, { parent: parentOf(spec), config });
    expect(out.condition('IgnoredFields')).toBeUndefined();
    const odd = { ...spec, canary: [{ trafficPercent: 50, predictor: { name: 'v2', workerSpec: {}, ...sk('gs://b/v2') } }] };
    const message = runSync(inferenceservice, { parent: parentOf(odd), config }).condition('IgnoredFields')?.message ?? '';
    expect(message).toContain('spec.canary[0].predictor.workerSpec');
    expect(message).not.toMatch(/spec\.canary(,|$)/);
  });
});
