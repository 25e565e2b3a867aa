import { describe, expect, it } from 'vitest';
import { ObjectIndex, type Blocker, type KubeObject } from '../../hooks/kit/index.js';
import { configFor } from '../../hooks/kit/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { InferenceServiceConfig } from '../../hooks/inferenceservice/config.js';
import { planFor, type Plan } from '../../hooks/inferenceservice/plan.js';
import { statusFrom, type Observed } from '../../hooks/inferenceservice/status.js';
import type { Input } from '../../hooks/inferenceservice/sync-input.js';

/**
 * statusFrom is the InferenceService's whole status: the blocker of its pods, the hosts another
 * parent routes, spec.canary[] and the runtime's name are its inputs, decided before the
 * condition tree summarises (nothing patches the status after it). The plan hands its children
 * out by role.
 */
const NS = 'ml';
const parent = (spec: Record<string, unknown>): Input['parent'] =>
  ({
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: 'demo', namespace: NS, uid: 'u-1', generation: 1 },
    spec,
    status: {},
  }) as Input['parent'];
const sklearn = { predictor: { sklearn: { storageUri: 'gs://b/m' } } };

function input(p: Input['parent'], observed: KubeObject[] = []): Input {
  return {
    parent: p,
    observed: new ObjectIndex(observed, NS),
    related: new ObjectIndex([], NS),
    declares: (_apiVersion, kind) => kind !== 'HTTPRoute',
    now: '2026-01-01T00:00:00Z',
    config: configFor(inferenceservice, undefined) as InferenceServiceConfig,
    finalizing: false,
  };
}
function planOf(i: Input): Plan {
  const outcome = planFor(i);
  if (!('plan' in outcome)) throw new Error(outcome.failure.message);
  return outcome.plan;
}
const available = (name: string): KubeObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS, generation: 1 },
    status: { observedGeneration: 1, availableReplicas: 1, conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' }] },
  }) as KubeObject;
const rolling = (name: string): KubeObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS, generation: 1 },
    status: { observedGeneration: 1, conditions: [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated' }] },
  }) as KubeObject;
const ingress = { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'demo', namespace: NS } } as KubeObject;
const conditionOf = (status: Record<string, unknown>, type: string) =>
  (status.conditions as Array<{ type: string; status: string; reason: string; message: string }>).find((c) => c.type === type);

describe('statusFrom takes what tells Ready more as inputs', () => {
  const i = input(parent(sklearn));
  const plan = planOf(i);
  const serving: Observed = { deployments: { predictor: available('demo-predictor') }, ingress, routes: [] };

  it('a host conflict input: IngressReady and Ready False/HostConflict, modelStatus as KServe judges it', () => {
    const host = plan.hosts.service;
    const status = statusFrom(i, plan, serving, { conflicts: [{ host, holder: 'Ingress/other', owner: 'InferenceService/other' }] });
    expect(conditionOf(status, 'Ready')).toMatchObject({ status: 'False', reason: 'HostConflict' });
    expect(conditionOf(status, 'Ready')?.message).toContain(`host ${host} is already routed by Ingress/other (owner: InferenceService/other)`);
    expect(conditionOf(status, 'IngressReady')).toMatchObject({ status: 'False', reason: 'HostConflict' });
    expect((status.modelStatus as { states?: { targetModelState?: string } }).states?.targetModelState).toBe('Loaded');
    // Without the input, the same observed children are Ready.
    expect(conditionOf(statusFrom(i, plan, serving), 'Ready')).toMatchObject({ status: 'True' });
  });

  it('a blocker input tells a Ready that is not True why; the component condition stays as KServe judges it', () => {
    const blocker: Blocker = {
      reason: 'CrashLoopBackOff' as Blocker['reason'],
      message: 'Pod demo-predictor-1: back-off',
      source: { kind: 'Pod', name: 'demo-predictor-1' },
    };
    const status = statusFrom(i, plan, { ...serving, deployments: { predictor: rolling('demo-predictor') } }, { blocker });
    expect(conditionOf(status, 'Ready')).toMatchObject({ status: 'False', reason: 'CrashLoopBackOff', message: blocker.message });
    expect(conditionOf(status, 'PredictorReady')).toMatchObject({ status: 'Unknown', reason: 'ReplicaSetUpdated' });
    expect(conditionOf(statusFrom(i, plan, serving, { blocker }), 'Ready')).toMatchObject({ status: 'True' });
  });

  it('the runtime input names the runtime, after modelStatus', () => {
    const runtime = plan.components[0]?.runtime;
    expect(runtime).toBeDefined();
    const status = statusFrom(i, plan, serving, { runtime });
    expect(status[runtime?.statusField as string]).toBe(runtime?.name);
    expect(Object.keys(status).slice(-2)).toEqual(['modelStatus', runtime?.statusField]);
  });

  it('spec.canary[] input: canaryStatuses and CanaryPredictorReady written last, not gating Ready', () => {
    const withCanary = input(parent({ ...sklearn, canary: [{ trafficPercent: 20, predictor: { name: 'v2', sklearn: { storageUri: 'gs://b/v2' } } }] }));
    const canaryPlan = planOf(withCanary);
    const status = statusFrom(withCanary, canaryPlan, serving, { variants: canaryPlan.variants });
    const types = (status.conditions as Array<{ type: string }>).map((c) => c.type);
    expect(types.at(-1)).toBe('CanaryPredictorReady');
    expect(conditionOf(status, 'CanaryPredictorReady')).toMatchObject({ status: 'False', reason: 'CanariesNotReady' });
    expect(conditionOf(status, 'Ready')).toMatchObject({ status: 'True' });
    expect(status.canaryStatuses).toEqual([{ name: 'v2', ready: false, trafficPercent: 20 }]);
  });
});

describe('the plan hands its children out by role', () => {
  it("each component's children under its role, the way in apart", () => {
    const plan = planOf(input(parent({ ...sklearn, transformer: { containers: [{ image: 't:1' }] } })));
    const { workloads, exposure } = plan.settledChildren.stable;
    expect(workloads.map((w) => w.role)).toEqual(['predictor', 'transformer']);
    expect(workloads.map((w) => w.children.map((c) => `${c.kind}/${c.metadata?.name}`))).toEqual([
      ['Deployment/demo-predictor', 'Service/demo-predictor', 'HorizontalPodAutoscaler/demo-predictor'],
      ['Deployment/demo-transformer', 'Service/demo-transformer', 'HorizontalPodAutoscaler/demo-transformer'],
    ]);
    expect(exposure.map((c) => c.kind)).toEqual(['Ingress']);
  });

  it('while a canary may run: the stable HPA under the predictor, the -canary children under the canary', () => {
    const p = parent({ predictor: { ...sklearn.predictor, canaryTrafficPercent: 10 } });
    const stable = {
      ...available('demo-predictor'),
      metadata: { ...available('demo-predictor').metadata, annotations: { 'modelhooks.dev/spec-hash': 'older' } },
    } as KubeObject;
    const plan = planOf(input(p, [stable]));
    expect(plan.canary.canary).toBe(false); // Ingress: no split, the spec rolls out in place
    const routed = planOf({ ...input(p, [stable]), declares: () => true });
    expect(routed.canary.canary).toBe(true);
    expect(routed.settledChildren.canary?.workloads.map((w) => [w.role, w.children.map((c) => c.kind)])).toEqual([
      ['predictor', ['HorizontalPodAutoscaler']],
      ['canary', ['Deployment', 'Service', 'HorizontalPodAutoscaler']],
    ]);
  });
});
