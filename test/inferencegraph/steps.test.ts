import { describe, expect, it } from 'vitest';
import { customize, graph, graphArg, isvc, NS, router, run, sklearn } from './support.js';

/*
 * Steps naming InferenceServices (controller.go Reconcile, KServe v0.20.0): each is read by
 * name in the graph's namespace; a missing one, or one without status.address.url, stops
 * KServe's reconcile (no router is created or changed). Here the router is kept as it runs
 * and InferenceServicesReady says which step's service is missing or not Ready.
 */

const chain = graph({
  nodes: { root: { routerType: 'Sequence', steps: [{ serviceName: 'a' }, { serviceName: 'b', data: '$request' }, { serviceUrl: 'http://ext' }] } },
});

describe('customize: the InferenceServices the steps name', () => {
  it("asks for them by name, in the graph's namespace only", () => {
    const rules = customize(chain);
    expect(rules.filter((r) => r.resource === 'inferenceservices')).toEqual([
      { apiVersion: 'serving.kserve.io/v1beta1', resource: 'inferenceservices', namespace: NS, names: ['a', 'b'] },
    ]);
  });
  it('asks for none when no step names one (a rule without names would list the whole namespace)', () => {
    const rules = customize(graph({ nodes: { root: { routerType: 'Switch', steps: [{ serviceUrl: 'http://x', condition: 'c' }] } } }));
    expect(rules.some((r) => r.resource === 'inferenceservices')).toBe(false);
  });
  it("every rule names the graph's namespace", () => {
    for (const r of customize(chain)) if (r.resource !== 'namespaces') expect(r.namespace, r.resource).toBe(NS);
  });
});

describe('steps whose InferenceService is missing or not Ready', () => {
  it('all Ready: the router is built and InferenceServicesReady is True', () => {
    const out = run(chain, { related: [sklearn('a'), sklearn('b')] });
    expect(router(out)).toBeDefined();
    expect(out.condition('InferenceServicesReady')).toMatchObject({ status: 'True' });
  });

  it('one missing: no router on a first sync; InferenceServicesReady and Ready False/InferenceServiceNotFound naming it', () => {
    const out = run(chain, { related: [sklearn('a')] });
    expect(out.childrenOf('Deployment')).toEqual([]);
    expect(out.condition('InferenceServicesReady')).toMatchObject({ status: 'False', reason: 'InferenceServiceNotFound' });
    expect(out.condition('InferenceServicesReady')?.message).toContain(`InferenceService b not found in namespace ${NS}`);
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: 'InferenceServiceNotFound' });
    // The Service (and the way in) do not depend on the steps.
    expect(out.child('Service', 'g')).toBeDefined();
  });

  it('one missing after the router ran: the router is kept exactly as last applied, its graph unchanged', () => {
    const first = run(chain, { related: [sklearn('a'), sklearn('b')] });
    const applied = first.children.map((c) => ({
      ...c,
      metadata: { ...c.metadata, annotations: { ...(c.metadata.annotations ?? {}), 'metacontroller.k8s.io/last-applied-configuration': JSON.stringify(c) } },
    }));
    const out = run(chain, { related: [sklearn('a')], observed: applied });
    expect(out.child('Deployment', 'g')).toEqual(first.child('Deployment', 'g'));
    expect(out.condition('InferenceServicesReady')?.message).toContain('the router keeps running the graph it was given');
  });

  it('one without status.address.url: reported not Ready (no address), no router', () => {
    const out = run(chain, { related: [sklearn('a'), sklearn('b', { address: '', ready: 'False', reason: 'PredictorNotReady' })] });
    expect(out.childrenOf('Deployment')).toEqual([]);
    expect(out.condition('InferenceServicesReady')).toMatchObject({ status: 'False', reason: 'InferenceServiceNotReady' });
    expect(out.condition('InferenceServicesReady')?.message).toContain('InferenceService b has no status.address.url yet');
  });

  it('one with an address but not Ready: the router is built with its URL (as KServe), Ready waits, the reason is named', () => {
    const out = run(chain, { related: [sklearn('a'), sklearn('b', { ready: 'False', reason: 'PredictorNotReady' })] });
    expect(graphArg(out).nodes.root.steps[1].serviceUrl).toBe(`http://b-predictor.${NS}.svc.cluster.local/v1/models/b:predict`);
    expect(out.condition('InferenceServicesReady')).toMatchObject({
      status: 'False',
      reason: 'InferenceServiceNotReady',
      message: 'InferenceService b is not Ready (PredictorNotReady)',
    });
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: 'InferenceServiceNotReady' });
  });

  it("another namespace's InferenceService of the same name is never used, nor named", () => {
    const out = run(chain, { related: [sklearn('a'), isvc('b', { predictor: { sklearn: { storageUri: 'gs://secret' } } }, {}, 'team-b')] });
    expect(out.childrenOf('Deployment')).toEqual([]);
    expect(JSON.stringify(out.response)).not.toContain('team-b');
  });
});
