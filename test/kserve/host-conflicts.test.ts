import { describe, expect, it } from 'vitest';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { hostLabelKey } from '../../hooks/kserve/host-conflicts.js';
import { runCustomize, runSync } from '../../hooks/testing/index.js';
import { goldenCases } from '../support/golden.js';

const golden = (name: string) => {
  const c = goldenCases('inferenceservice').find((g) => g.name === name);
  if (!c) throw new Error(name);
  return c.options;
};
const owner = { apiVersion: 'serving.kserve.io/v1beta1', kind: 'InferenceService', name: 'other', uid: 'other-uid', controller: true };
const ingress = (namespace: string, host: string, owned = true): KubeObject => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name: 'other', namespace, ...(owned ? { ownerReferences: [owner] } : {}) },
  spec: { rules: [{ host, http: { paths: [] } }] },
});
const route = (namespace: string, host: string): KubeObject => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name: 'other', namespace, ownerReferences: [owner] },
  spec: { hostnames: [host], parentRefs: [{ name: 'gw' }] },
});

describe('HostConflict: a host another parent of the namespace already routes', () => {
  const base = golden('ingress-ready');
  const ns = (base.parent as KubeObject).metadata.namespace as string;
  const ours = runSync(inferenceservice, base);
  const host = ours.childrenOf<{ spec: { rules: Array<{ host: string }> } }>('Ingress')[0]?.spec.rules[0]?.host as string;
  it('customize asks for the Ingresses labelled with one of its host sources and those modelhooks does not manage; HTTPRoutes only where the controller declares them', () => {
    const parent = base.parent as KubeObject;
    const foreign = {
      apiVersion: 'networking.k8s.io/v1',
      resource: 'ingresses',
      namespace: ns,
      labelSelector: { matchExpressions: [{ key: 'app.kubernetes.io/managed-by', operator: 'NotIn', values: ['modelhooks'] }] },
    };
    const rules = runCustomize(inferenceservice, base);
    expect(rules).toContainEqual(foreign);
    expect(rules).toContainEqual({
      apiVersion: 'networking.k8s.io/v1',
      resource: 'ingresses',
      namespace: ns,
      labelSelector: { matchExpressions: [{ key: hostLabelKey(parent.metadata.name), operator: 'Exists' }] },
    });
    // No rule lists every Ingress of the namespace.
    expect(rules.filter((r) => r.resource === 'ingresses' && !r.names && !r.labelSelector)).toEqual([]);
    expect(rules.some((r) => r.resource === 'httproutes' && !r.names)).toBe(false);
    expect(runCustomize(inferenceservice, { ...base, variant: 'gateway-api' })).toContainEqual({
      ...foreign,
      apiVersion: 'gateway.networking.k8s.io/v1',
      resource: 'httproutes',
    });
  });
  it('a cluster-local parent routes no host: it asks for no Ingress but its own name', () => {
    const parent = base.parent as KubeObject;
    const local = { ...parent, metadata: { ...parent.metadata, labels: { ...parent.metadata.labels, 'networking.kserve.io/visibility': 'cluster-local' } } };
    expect(runCustomize(inferenceservice, { ...base, parent: local }).filter((r) => r.resource === 'ingresses' && r.labelSelector)).toEqual([]);
  });
  it('our own Ingress, as Metacontroller also hands it over as related, is no conflict', () => {
    const parent = base.parent as KubeObject;
    const withUid = { ...parent, metadata: { ...parent.metadata, uid: 'isvc-uid' } };
    const ref = { apiVersion: parent.apiVersion, kind: parent.kind, name: parent.metadata.name, uid: 'isvc-uid', controller: true };
    const own = (base.observed ?? []).filter((o) => o.kind === 'Ingress').map((o) => ({ ...o, metadata: { ...o.metadata, ownerReferences: [ref] } }));
    expect(own).toHaveLength(1);
    const out = runSync(inferenceservice, { ...base, parent: withUid, related: [...(base.related ?? []), ...own] });
    expect(out.condition('IngressReady')?.status).toBe('True');
    expect(out.condition('Ready')?.status).toBe('True');
  });
  it("another parent's Ingress with one of our hosts: IngressReady=False/HostConflict naming it, Ready with it, children kept", () => {
    const out = runSync(inferenceservice, { ...base, related: [...(base.related ?? []), ingress(ns, host)] });
    expect(out.condition('IngressReady')).toMatchObject({ status: 'False', reason: 'HostConflict' });
    expect(out.condition('IngressReady')?.message).toContain(`host ${host} is already routed by Ingress/other (owner: InferenceService/other)`);
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: 'HostConflict' });
    expect(out.children).toEqual(ours.children);
  });
  it('an Ingress without an owner holding the host is a conflict too', () => {
    const out = runSync(inferenceservice, { ...base, related: [...(base.related ?? []), ingress(ns, host, false)] });
    expect(out.condition('IngressReady')?.message).toContain('(owner: no owner)');
  });
  it("another namespace's Ingress is never read (the cross-namespace collision is not detectable)", () => {
    const out = runSync(inferenceservice, { ...base, related: [...(base.related ?? []), ingress('bar-baz', host)] });
    expect(out.condition('IngressReady')?.status).toBe('True');
  });
  it('an HTTPRoute with one of our hostnames (gateway-api)', () => {
    const gw = golden('httproute-ready');
    const mine = runSync(inferenceservice, gw);
    const hostname = mine.childrenOf<{ spec: { hostnames: string[] } }>('HTTPRoute')[0]?.spec.hostnames[0] as string;
    const gns = (gw.parent as KubeObject).metadata.namespace as string;
    const out = runSync(inferenceservice, { ...gw, related: [...(gw.related ?? []), route(gns, hostname)] });
    expect(out.condition('IngressReady')).toMatchObject({ status: 'False', reason: 'HostConflict' });
    expect(out.condition('IngressReady')?.message).toContain('HTTPRoute/other');
  });
});
