import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../hooks/kit/index.js';
import { LAST_APPLIED_ANNOTATION } from '../../hooks/kit/children/keep.js';
import { runSync, type SyncResult } from '../../hooks/testing/index.js';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';

/*
 * Stop/start and canary cycles: each step's answer is applied (children observed, status
 * kept) before the next, as Metacontroller would. Expected values, field by field, from
 * KServe v0.20.0:
 *
 * | field                                   | upstream (path@v0.20.0) |
 * |-----------------------------------------|-------------------------|
 * | annotation serving.kserve.io/stop, "true" any case | pkg/constants/constants.go StopAnnotationKey; pkg/utils/utils.go GetForceStopRuntime (strings.EqualFold) |
 * | Deployment, Service deleted             | pkg/controller/v1beta1/inferenceservice/reconcilers/deployment/deployment_reconciler.go, reconcilers/service/service_reconciler.go (CheckResultDelete when stopped) |
 * | HPA deleted                             | reconcilers/hpa/hpa_reconciler.go shouldDeleteHPA / shouldCreateHPA |
 * | Ingress deleted, IngressReady False Stopped | reconcilers/ingress/kube_ingress_reconciler.go; HTTPRoutes: reconcilers/ingress/httproute_reconciler.go |
 * | status cleared but deploymentMode; PredictorReady False Stopped | components/predictor.go Reconcile (force-stop branch) |
 * | TransformerReady/ExplainerReady False Stopped | components/transformer.go, components/explainer.go |
 * | Stopped True / False                    | controller.go (Stopped condition), pkg/apis/serving/v1beta1/inference_service_status.go Stopped, StoppedISVCReason |
 * | Ready False, reason of PredictorReady   | inference_service_status.go conditionSet = NewLivingConditionSet(PredictorReady, IngressReady) |
 * | canaryTrafficPercent ignored in raw mode: the Deployment rolls out in place | components/predictor.go reconcileRawDeployment (one Deployment per component; only reconcilers/knative/ksvc_reconciler.go reads CanaryTrafficPercent), kserve#5335 |
 */

const config = defaultHookConfig();
const isvc = (predictor: Record<string, unknown>, annotations: Record<string, string> = {}, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'demo', namespace: 'ml', generation: 1, annotations },
  spec: { predictor, ...extra },
});
const sklearn = (uri: string, extra: Record<string, unknown> = {}) => ({ ...extra, sklearn: { storageUri: uri } });
const ready = {
  observedGeneration: 0,
  replicas: 1,
  availableReplicas: 1,
  conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' }],
};

/** The children as the API server holds them once applied: last-applied recorded, Deployments ready. */
function applied(out: SyncResult): KubeObject[] {
  return out.children.map((c) => ({
    ...c,
    metadata: { ...c.metadata, annotations: { ...(c.metadata.annotations ?? {}), [LAST_APPLIED_ANNOTATION]: JSON.stringify(c) } },
    ...(c.kind === 'Deployment' ? { status: ready } : {}),
  }));
}
/** The next sync: `parent` with the previous status, the previous answer's children observed. */
const next = (parent: KubeObject, before: SyncResult, variant?: string) =>
  runSync(inferenceservice, { parent: { ...parent, status: before.status }, observed: applied(before), config, ...(variant ? { variant } : {}) });
const kinds = (out: SyncResult) => out.children.map((c) => `${c.kind}/${c.metadata.name}`).sort();
const storageUriOf = (d: any) => d.spec.template.spec.initContainers[0].args[0];

describe('serving.kserve.io/stop', () => {
  const running = isvc(sklearn('gs://b/v1'));
  const stopped = isvc(sklearn('gs://b/v1'), { 'serving.kserve.io/stop': 'true' });

  it('a stop/start cycle: everything deleted and reported Stopped, then the same children again', () => {
    const first = runSync(inferenceservice, { parent: running, config });
    // The predictor ready, then the Ingress made then (kube_ingress_reconciler.go createRawIngress) observed.
    const serving = next(running, next(running, first));
    expect(serving.condition('Ready')?.status).toBe('True');
    expect(serving.condition('Stopped')).toBeUndefined();

    const stop = next(stopped, serving);
    expect(stop.children).toEqual([]);
    expect(stop.status).toEqual({ conditions: expect.any(Array), deploymentMode: 'Standard' });
    expect(stop.condition('Stopped')).toMatchObject({ status: 'True', reason: 'Stopped' });
    expect(stop.condition('PredictorReady')).toMatchObject({ status: 'False', reason: 'Stopped' });
    expect(stop.condition('IngressReady')).toMatchObject({ status: 'False', reason: 'Stopped' });
    expect(stop.condition('Ready')).toMatchObject({ status: 'False', reason: 'Stopped' });

    // Annotation removed: Metacontroller deleted the children, so none is observed.
    const start = runSync(inferenceservice, { parent: { ...running, status: stop.status }, observed: [], config });
    expect(start.children).toEqual(first.children);
    expect(start.condition('Stopped')).toMatchObject({ status: 'False', reason: 'Serving' });
    expect(start.condition('PredictorReady')).toMatchObject({ status: 'Unknown', reason: 'DeploymentNotFound' });
    const again = next(running, next(running, start));
    expect(again.condition('Ready')?.status).toBe('True');
    expect(again.condition('Stopped')?.status).toBe('False');
  });

  it('stops every component and the HTTPRoutes too (gateway-api)', () => {
    const withTransformer = (ann: Record<string, string>) =>
      isvc(sklearn('gs://b/v1'), ann, { transformer: { containers: [{ name: 't', image: 'example/t:1' }] } });
    const first = runSync(inferenceservice, { parent: withTransformer({}), config, variant: 'gateway-api' });
    expect(kinds(first)).toContain('HTTPRoute/demo');
    const stop = next(withTransformer({ 'serving.kserve.io/stop': 'TRUE' }), first, 'gateway-api');
    expect(stop.children).toEqual([]);
    expect(stop.condition('TransformerReady')).toMatchObject({ status: 'False', reason: 'Stopped' });
  });

  it.each(['false', '', 'yes'])('serves when the annotation is %j, and says Stopped=False', (value) => {
    const out = runSync(inferenceservice, { parent: isvc(sklearn('gs://b/v1'), { 'serving.kserve.io/stop': value }), config });
    expect(kinds(out)).toContain('Deployment/demo-predictor');
    expect(out.condition('Stopped')).toMatchObject({ status: 'False', reason: 'Serving' });
  });

  it('keeps Stopped=False after a start even when no runtime serves the model', () => {
    const unknown = isvc({ model: { modelFormat: { name: 'no-such-format' }, storageUri: 'gs://b/m' } }, { 'serving.kserve.io/stop': 'false' });
    const out = runSync(inferenceservice, { parent: unknown, config });
    expect(out.condition('PredictorReady')?.reason).toBe('NoSupportingRuntime');
    expect(out.condition('Stopped')).toMatchObject({ status: 'False', reason: 'Serving' });
  });

  it('never touches PVCs or Secrets: they are not children, so an empty answer deletes none', () => {
    const pvc = isvc(sklearn('pvc://claim/model'), { 'serving.kserve.io/stop': 'true', 'serving.kserve.io/storageSecretName': 'creds' });
    const out = runSync(inferenceservice, { parent: pvc, config });
    expect(out.children).toEqual([]);
    const declared = inferenceservice.children.map((c) => c.kind);
    expect(declared).not.toContain('PersistentVolumeClaim');
    expect(declared).not.toContain('Secret');
  });
});

describe('canaryTrafficPercent: promote and roll back', () => {
  const v1 = isvc(sklearn('gs://b/v1'));
  const v2at20 = isvc(sklearn('gs://b/v2', { canaryTrafficPercent: 20 }));
  const v2at100 = isvc(sklearn('gs://b/v2', { canaryTrafficPercent: 100 }));
  const v1at20 = isvc(sklearn('gs://b/v1', { canaryTrafficPercent: 20 }));

  it('behind an Ingress: rolls out in place, never a -canary, and says so', () => {
    // Once the predictor is ready and the Ingress made.
    const first = next(v1, runSync(inferenceservice, { parent: v1, config }));
    const canary = next(v2at20, first);
    expect(kinds(canary)).toEqual(kinds(first));
    expect(storageUriOf(canary.child('Deployment', 'demo-predictor'))).toBe('gs://b/v2');
    expect(canary.condition('CanaryTrafficSplit')).toMatchObject({ status: 'False', reason: 'RolledOutInPlace' });
    expect(canary.condition('CanaryTrafficSplit')?.message).toContain('Ingress');
    expect(canary.status.components).not.toHaveProperty('predictor.traffic');

    const promoted = next(v2at100, canary);
    expect(promoted.child('Deployment', 'demo-predictor')).toEqual(canary.child('Deployment', 'demo-predictor'));
    expect(promoted.condition('CanaryTrafficSplit')).toBeUndefined();

    const rolledBack = next(v1at20, promoted);
    expect(rolledBack.child('Deployment', 'demo-predictor')).toEqual(first.child('Deployment', 'demo-predictor'));
    expect(kinds(rolledBack)).toEqual(kinds(first));
  });

  it('behind an Ingress: a -canary left from before is dropped', () => {
    const gw = runSync(inferenceservice, { parent: v1, config, variant: 'gateway-api' });
    const split = next(v2at20, gw, 'gateway-api');
    expect(kinds(split)).toContain('Deployment/demo-predictor-canary');
    // The same cluster, now behind an Ingress (no HTTPRoutes declared).
    const out = next(v2at20, split);
    expect(kinds(out)).not.toContain('Deployment/demo-predictor-canary');
    expect(storageUriOf(out.child('Deployment', 'demo-predictor'))).toBe('gs://b/v2');
  });

  it('behind HTTPRoutes: a weighted split, promoted at 100, rolled back by restoring the spec', () => {
    const first = runSync(inferenceservice, { parent: v1, config, variant: 'gateway-api' });
    const canary = next(v2at20, first, 'gateway-api');
    expect(storageUriOf(canary.child('Deployment', 'demo-predictor'))).toBe('gs://b/v1');
    expect(storageUriOf(canary.child('Deployment', 'demo-predictor-canary'))).toBe('gs://b/v2');
    const backends = (canary.child('HTTPRoute', 'demo-predictor') as any).spec.rules[0].backendRefs.map((b: any) => [b.name, b.weight]);
    expect(backends).toEqual([
      ['demo-predictor', 80],
      ['demo-predictor-canary', 20],
    ]);
    expect(canary.condition('CanaryTrafficSplit')).toMatchObject({ status: 'True', reason: 'TrafficSplit' });

    const promoted = next(v2at100, canary, 'gateway-api');
    expect(kinds(promoted)).toEqual(kinds(first));
    expect(storageUriOf(promoted.child('Deployment', 'demo-predictor'))).toBe('gs://b/v2');

    const rolledBack = next(v1at20, canary, 'gateway-api');
    expect(kinds(rolledBack)).toEqual(kinds(first));
    expect(rolledBack.child('Deployment', 'demo-predictor')).toEqual(first.child('Deployment', 'demo-predictor'));
    expect(rolledBack.condition('CanaryTrafficSplit')).toBeUndefined();
  });

  it('behind HTTPRoutes with a transformer: it calls the predictor directly, so in place', () => {
    const t = { transformer: { containers: [{ name: 't', image: 'example/t:1' }] } };
    const first = runSync(inferenceservice, { parent: isvc(sklearn('gs://b/v1'), {}, t), config, variant: 'gateway-api' });
    const out = next(isvc(sklearn('gs://b/v2', { canaryTrafficPercent: 20 }), {}, t), first, 'gateway-api');
    expect(kinds(out)).not.toContain('Deployment/demo-predictor-canary');
    expect(out.condition('CanaryTrafficSplit')).toMatchObject({ status: 'False', reason: 'RolledOutInPlace' });
    expect(out.condition('CanaryTrafficSplit')?.message).toContain('transformer');
  });
});
