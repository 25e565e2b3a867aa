import { describe, expect, it } from 'vitest';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { hostLabelKey } from '../../hooks/kserve/host-conflicts.js';
import { runSync } from '../../hooks/testing/index.js';
import { selectRelated } from '../support/metacontroller-select.js';
import { config, customize, graph, NS, run } from './support.js';

/*
 * A graph's host check asks what an InferenceService's does (kit host-conflicts.ts): the routes
 * labelled with its host source (its name, from which the domain template renders its host) and
 * the namespace's routes modelhooks did not make. So its request does not grow with the
 * namespace's other parents, and a graph and an InferenceService of one name see each other.
 */
const nodes = { root: { routerType: 'Sequence', steps: [{ serviceUrl: 'http://x.kserve-test.svc.cluster.local' }] } };
const owned = (o: KubeObject, owner: KubeObject): KubeObject => ({
  ...o,
  metadata: {
    ...o.metadata,
    ownerReferences: [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: String(owner.metadata.uid), controller: true }],
  },
});
const routesOf = (children: KubeObject[]) => children.filter((c) => c.kind === 'Ingress');

describe('InferenceGraph host rules', () => {
  it("labels its Ingress with its host source and asks only for that label's routes and foreign ones", () => {
    const g = graph({ nodes }, { name: 'g' });
    const [ingress] = routesOf(run(g).children);
    expect(ingress?.metadata.labels?.[hostLabelKey('g')]).toBe('true');
    const rules = customize(g);
    const selectors = rules.filter((r) => r.resource === 'ingresses').map((r) => JSON.stringify(r.labelSelector));
    expect(selectors).toContain(JSON.stringify({ matchExpressions: [{ key: hostLabelKey('g'), operator: 'Exists' }] }));
    for (const r of rules.filter((x) => x.resource === 'ingresses')) expect(r.namespace).toBe(NS);
  });

  it('sees neither of 200 neighbour graphs’ Ingresses, but an InferenceService of its own name', () => {
    const me = graph({ nodes }, { name: 'g' });
    const neighbours = Array.from({ length: 200 }, (_, i) => graph({ nodes }, { name: `n${i}`, uid: `u-n${i}` }));
    const cluster = neighbours.flatMap((n) => routesOf(run(n).children).map((r) => owned(r, n)));
    const isvc: KubeObject = {
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      metadata: { name: 'g', namespace: NS, uid: 'u-isvc', generation: 1 },
      spec: { predictor: { model: { modelFormat: { name: 'sklearn' }, storageUri: 'pvc://m/x' } } },
    };
    const isvcIngress = routesOf(runSync(inferenceservice, { parent: isvc, config }).children).map((r) => owned(r, isvc));
    const related = selectRelated(customize(me), [...cluster, ...isvcIngress]);
    const seen = related.filter((o) => o.kind === 'Ingress').map((o) => o.metadata.name);
    expect(seen).toEqual(isvcIngress.map((r) => r.metadata.name));
  });

  it('a cluster-local graph asks for no routes by label (only its own route name, for child-name conflicts)', () => {
    const g = graph({ nodes }, { name: 'g', labels: { 'networking.kserve.io/visibility': 'cluster-local' } });
    const routeRules = customize(g).filter((r) => r.resource === 'ingresses' || r.resource === 'httproutes');
    expect(routeRules.filter((r) => r.labelSelector !== undefined)).toEqual([]);
    for (const r of routeRules) expect(r.names).toEqual(['g']);
  });
});
