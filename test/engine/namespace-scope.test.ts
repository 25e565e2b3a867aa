/**
 * Tenant isolation in the kit: customize rules are scoped to the parent's namespace, and
 * objects Metacontroller offers from other namespaces are never read.
 */
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../hooks/server/config.js';
import { createApp, createLogger } from '../../hooks/server/app.js';
import { defineComposition, HookContractError, ObjectIndex, type AnyComposition, type RelatedRule } from '../../hooks/kit/index.js';
import { CLUSTER_SCOPED_RESOURCES } from '../../hooks/kit/related.js';
import { parseHookRequest } from '../../hooks/engine/request.js';
import { runHook } from '../../hooks/engine/protocol.js';
import { wireMap } from '../../hooks/engine/run.js';

const ctx = { now: '2026-03-03T00:00:00Z' };
const cm = (namespace: string | undefined, name = 'cfg') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(namespace === undefined ? {} : { namespace }) },
  data: { from: namespace ?? 'nowhere' },
});

describe('ObjectIndex.fromWire reads only the parent namespace', () => {
  it('ignores a same-named object of another namespace', () => {
    const idx = ObjectIndex.fromWire({ 'ConfigMap.v1': { 'other/cfg': cm('other'), 'ns/cfg': cm('ns') } }, 'ns');
    expect(idx.list('v1', 'ConfigMap').map((o) => o.data)).toEqual([{ from: 'ns' }]);
  });
  it('ignores another namespace’s object even when it is the only one offered', () => {
    const idx = ObjectIndex.fromWire({ 'ConfigMap.v1': { 'other/cfg': cm('other') } }, 'ns');
    expect(idx.get('v1', 'ConfigMap', 'cfg')).toBeUndefined();
    expect(idx.size).toBe(0);
  });
  it('trusts neither side of a key that lies: key ours but object elsewhere, or the reverse', () => {
    expect(ObjectIndex.fromWire({ 'ConfigMap.v1': { 'ns/cfg': cm('other') } }, 'ns').size).toBe(0);
    expect(ObjectIndex.fromWire({ 'ConfigMap.v1': { 'other/cfg': cm('ns') } }, 'ns').size).toBe(0);
  });
  it('ignores an object without a namespace whose key names another namespace', () => {
    expect(ObjectIndex.fromWire({ 'ConfigMap.v1': { 'other/cfg': cm(undefined) } }, 'ns').size).toBe(0);
  });
  it('keeps cluster-scoped objects, keyed by name only and without a namespace', () => {
    const sc = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, allowVolumeExpansion: true };
    const idx = ObjectIndex.fromWire({ 'StorageClass.storage.k8s.io/v1': { fast: sc } }, 'ns');
    expect(idx.get('storage.k8s.io/v1', 'StorageClass', 'fast')).toEqual(sc);
  });
  it('keeps v1 keys (name only) of objects in the namespace', () => {
    expect(ObjectIndex.fromWire({ 'ConfigMap.v1': { cfg: cm('ns') } }, 'ns').get('v1', 'ConfigMap', 'cfg')).toEqual(cm('ns'));
  });
});

/** A composition whose customize answer and whose sync echo what they are given. */
function echo(rules: RelatedRule[]) {
  return defineComposition({
    name: 'echo',
    parent: { group: 'echo.dev', kind: 'Echo', plural: 'echoes', singular: 'echo', versions: ['v1'] },
    spec: z.object({ valid: z.boolean().default(true) }).refine((s) => s.valid, 'invalid'),
    children: [{ apiVersion: 'v1', kind: 'ConfigMap', resource: 'configmaps' }],
    customize: () => rules,
    sync: ({ parent, related, observed }) => ({
      status: { related: related.all().map((o) => o.data), observed: observed.all().map((o) => o.data) },
      children: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'child', namespace: parent.metadata.namespace } }],
    }),
  });
}
const parent = (spec: Record<string, unknown> = {}) => ({ apiVersion: 'echo.dev/v1', kind: 'Echo', metadata: { name: 'p', namespace: 'ns', uid: 'u' }, spec });

describe('customize rules are scoped by the kit', () => {
  // The kit's own first rule, the parent's Namespace (tenancy.ts), is checked in test/engine/tenancy.test.ts.
  const customize = (rules: RelatedRule[]) =>
    (runHook(echo(rules), 'customize', parseHookRequest({ parent: parent() }), ctx).relatedResources as RelatedRule[]).slice(1);

  it('sends on every namespaced rule that names the parent namespace', () => {
    const rules = [
      { apiVersion: 'v1', resource: 'secrets', namespace: 'ns', names: ['s'] },
      { apiVersion: 'x.dev/v1', resource: 'widgets', namespace: 'ns' },
      { apiVersion: 'v1', resource: 'pods', namespace: 'ns', labelSelector: { matchLabels: { app: 'a' } } },
    ];
    expect(customize(rules)).toEqual(rules);
  });
  it('refuses a namespaced rule without a namespace (Metacontroller v2 would select every namespace), empty or absent', () => {
    expect(() => customize([{ apiVersion: 'v1', resource: 'secrets', names: ['s'] }])).toThrow(HookContractError);
    expect(() => customize([{ apiVersion: 'x.dev/v1', resource: 'widgets', namespace: '' }])).toThrow(
      /widgets \(x.dev\/v1\) names no namespace.*name the parent's, ns/,
    );
    // One bad rule refuses the whole answer, whatever comes before it.
    expect(() =>
      customize([
        { apiVersion: 'v1', resource: 'configmaps', namespace: 'ns' },
        { apiVersion: 'v1', resource: 'secrets' },
      ]),
    ).toThrow(HookContractError);
  });
  it('leaves the cluster-scoped resources it lists without a namespace', () => {
    expect([...CLUSTER_SCOPED_RESOURCES].sort()).toEqual(['clusterservingruntimes', 'namespaces', 'storageclasses']);
    const rules = [
      { apiVersion: 'storage.k8s.io/v1', resource: 'storageclasses', names: ['fast'] },
      { apiVersion: 'serving.kserve.io/v1alpha1', resource: 'clusterservingruntimes' },
      { apiVersion: 'v1', resource: 'namespaces', names: ['ns'] },
    ];
    expect(customize(rules)).toEqual(rules);
  });
  it('refuses a rule that names another namespace: a bug in the hook, not a request to honour', () => {
    expect(() => customize([{ apiVersion: 'v1', resource: 'secrets', namespace: 'kube-system', names: ['s'] }])).toThrow(HookContractError);
    expect(() => customize([{ apiVersion: 'v1', resource: 'secrets', namespace: 'kube-system' }])).toThrow(/outside the parent's namespace ns/);
  });
  it('refuses a namespace on a cluster-scoped resource', () => {
    expect(() => customize([{ apiVersion: 'storage.k8s.io/v1', resource: 'storageclasses', namespace: 'ns' }])).toThrow(/cluster-scoped/);
  });
  it.each([
    ['another namespace', { apiVersion: 'v1', resource: 'secrets', namespace: 'elsewhere' }],
    ['no namespace', { apiVersion: 'v1', resource: 'secrets' }],
  ])('answers a rule naming %s with a 500 over HTTP, never with an answer', async (_what, rule) => {
    const logger = createLogger('silent', { write: () => undefined });
    const config = loadConfig({ MODELHOOKS_LOG_LEVEL: 'silent' });
    const app = createApp({ compositions: [echo([rule]) as AnyComposition], config, logger, now: () => ctx.now, token: { current: () => 't' } });
    const res = await supertest(app).post('/hooks/echo/customize').set('Authorization', 'Bearer t').send({ parent: parent() });
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain('relatedResources');
  });
});

describe('sync never sees another namespace', () => {
  const request = parseHookRequest({
    parent: parent(),
    related: { 'ConfigMap.v1': { 'other/cfg': cm('other'), 'ns/cfg': cm('ns') } },
    children: { 'ConfigMap.v1': { 'other/child': cm('other', 'child'), 'ns/child': cm('ns', 'child') } },
  });
  it('reads related objects and observed children of the parent namespace only', () => {
    const out = runHook(echo([]), 'sync', request, ctx);
    expect(out.status).toEqual({ related: [{ from: 'ns' }], observed: [{ from: 'ns' }] });
  });
  it('keeps only the namespace’s observed children when the spec is invalid', () => {
    const invalid = parseHookRequest({ ...request, parent: parent({ valid: false }) });
    const out = runHook(echo([]), 'sync', invalid, ctx);
    expect(JSON.stringify(out.children)).not.toContain('other');
    expect(out.children).toHaveLength(1);
  });
});

describe('the test stand-in offers objects as Metacontroller v2 does', () => {
  it('keeps each object’s own namespace in its key, fills in the parent’s for one without, and keys cluster-scoped objects by name', () => {
    const sc = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' } };
    const map = wireMap([cm('other'), cm(undefined, 'mine'), sc], 'ns', 'v2');
    expect(Object.keys(map['ConfigMap.v1'] ?? {})).toEqual(['other/cfg', 'ns/mine']);
    expect(map['ConfigMap.v1']?.['ns/mine']?.metadata.namespace).toBe('ns');
    expect(map['StorageClass.storage.k8s.io/v1']).toEqual({ fast: sc });
  });
});

describe('system objects (composition.systemObjects): one object of a fixed namespace, by name', () => {
  const system = [{ kind: 'ConfigMap', namespace: 'kserve', name: 'cfg' }];
  it('lets exactly the named object through and nothing else of that namespace', () => {
    const wire = {
      'ConfigMap.v1': { 'kserve/cfg': cm('kserve'), 'kserve/other': cm('kserve', 'other'), 'team-b/cfg': cm('team-b'), 'team-a/cfg': cm('team-a') },
    };
    const index = ObjectIndex.fromWire(wire, 'team-a', system);
    expect(index.list('v1', 'ConfigMap').map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual(['kserve/cfg', 'team-a/cfg']);
    expect(index.get('v1', 'ConfigMap', 'cfg', 'kserve')?.data).toEqual({ from: 'kserve' });
  });
  it('refuses it when its key disagrees with the object, or the kind differs', () => {
    const wire = { 'ConfigMap.v1': { 'kserve/cfg': cm('team-b') }, 'Secret.v1': { 'kserve/cfg': { ...cm('kserve'), kind: 'Secret' } } };
    expect(ObjectIndex.fromWire(wire, 'team-a', system).all()).toEqual([]);
  });
});
