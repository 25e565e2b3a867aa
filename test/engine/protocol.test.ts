import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deepFreeze, defineComposition, lastApplied, ObjectIndex, type KubeObject } from '../../hooks/kit/index.js';
import { LAST_APPLIED_ANNOTATION } from '../../hooks/kit/children/keep.js';
import { parseHookRequest, RequestShapeError } from '../../hooks/engine/request.js';
import { runHook } from '../../hooks/engine/protocol.js';
import { runSync } from '../../hooks/testing/index.js';

const demo = defineComposition({
  name: 'demo',
  parent: { group: 'demo.dev', kind: 'Demo', plural: 'demos', singular: 'demo', versions: ['v1'] },
  spec: z.object({ size: z.number().int().min(1).default(1), rogue: z.enum(['none', 'namespace', 'type']).default('none') }),
  children: [{ apiVersion: 'v1', kind: 'ConfigMap', resource: 'configmaps' }],
  sync: ({ parent }) => {
    const ns = parent.spec.rogue === 'namespace' ? 'elsewhere' : parent.metadata.namespace;
    const kind = parent.spec.rogue === 'type' ? 'Secret' : 'ConfigMap';
    return { status: { size: parent.spec.size }, children: [{ apiVersion: 'v1', kind, metadata: { name: parent.metadata.name, namespace: ns } }] };
  },
});

const parent = (spec: unknown, status?: unknown) => ({
  apiVersion: 'demo.dev/v1',
  kind: 'Demo',
  metadata: { name: 'd', namespace: 'ns', generation: 4 },
  spec,
  ...(status ? { status } : {}),
});

describe('parseHookRequest', () => {
  const bad: Array<[string, unknown, string]> = [
    ['not an object', [], 'body'],
    ['no parent', {}, 'parent'],
    ['parent without kind', { parent: { apiVersion: 'v1', metadata: { name: 'x' } } }, 'parent.kind'],
    ['parent without a name', { parent: { apiVersion: 'v1', kind: 'X', metadata: {} } }, 'parent.metadata.name'],
    ['children not a map', { parent: parent({}), children: [] }, 'children'],
    ['a child without metadata', { parent: parent({}), children: { 'ConfigMap.v1': { a: { kind: 'ConfigMap' } } } }, 'children["ConfigMap.v1"]["a"]'],
    ['finalizing not a boolean', { parent: parent({}), finalizing: 'yes' }, 'finalizing'],
  ];
  for (const [reason, body, field] of bad) {
    it(`names the field: ${reason}`, () => {
      expect(() => parseHookRequest(body)).toThrow(RequestShapeError);
      try {
        parseHookRequest(body);
      } catch (err) {
        expect((err as RequestShapeError).field).toBe(field);
      }
    });
  }
  it('accepts null maps (Go nil) as empty', () => {
    expect(parseHookRequest({ parent: parent({}), children: null, related: null }).children).toEqual({});
  });
});

describe('runHook', () => {
  const ctx = { now: '2026-03-03T00:00:00Z', config: undefined };
  const observed: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'd',
      namespace: 'ns',
      resourceVersion: '9',
      annotations: {
        [LAST_APPLIED_ANNOTATION]: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd', namespace: 'ns' }, data: { a: '1' } }),
      },
    },
    data: { a: '1', added: 'by someone' },
  };

  it('an invalid spec answers Ready=False/InvalidSpec naming the field and keeps the observed children as last applied', () => {
    const out = runSync(demo, { parent: parent({ size: 0 }, { size: 3, conditions: [] }), observed: [observed] });
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: 'InvalidSpec', lastTransitionTime: '2026-01-01T00:00:00Z' });
    expect(out.condition('Ready')?.message).toMatch(/^spec\.size: /);
    expect(out.children).toEqual([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd', namespace: 'ns' }, data: { a: '1' } }]);
    expect(out.status.size).toBe(3);
  });

  it('refuses (throws → 500, never deletes) a child outside the parent namespace or of an undeclared type', () => {
    const request = (rogue: string) => parseHookRequest({ parent: parent({ rogue }) });
    expect(() => runHook(demo, 'sync', request('namespace'), ctx)).toThrow(/outside the parent's namespace/);
    expect(() => runHook(demo, 'sync', request('type'), ctx)).toThrow(/does not declare/);
  });

  it('customize without a customize function asks for the parent Namespace only (tenancy.ts reads it)', () => {
    const ns = parseHookRequest({ parent: parent({}) }).parent.metadata.namespace ?? 'default';
    expect(runHook(demo, 'customize', parseHookRequest({ parent: parent({}) }), ctx)).toEqual({
      relatedResources: [{ apiVersion: 'v1', resource: 'namespaces', names: [ns] }],
    });
  });

  it('finalize without a finalize function keeps the children and says finalized', () => {
    const out = runHook(demo, 'finalize', parseHookRequest({ parent: parent({}), children: { 'ConfigMap.v1': { 'ns/d': observed } }, finalizing: true }), ctx);
    expect(out.finalized).toBe(true);
    expect(out.children).toHaveLength(1);
  });

  // The answers that keep every observed child (invalid spec, finalize) pass the same checks as a
  // sync answer: an object that cannot be this parent's child is never answered again. Dropping
  // it deletes nothing: Metacontroller only manages children of declared types in the parent's
  // namespace (an owner reference never crosses namespaces).
  const foreign: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd', namespace: 'other-tenant' }, data: { secret: 'theirs' } };
  const undeclared: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'd', namespace: 'ns' }, data: { a: 'MQ==' } };
  const keepPaths: Array<{ reason: string; hook: 'sync' | 'finalize'; spec: unknown }> = [
    { reason: 'invalid spec (sync)', hook: 'sync', spec: { size: 0 } },
    { reason: 'finalize', hook: 'finalize', spec: {} },
    { reason: 'invalid spec while finalizing', hook: 'finalize', spec: { size: 0 } },
  ];
  it.each(keepPaths)('$reason: keeps our child, drops one of another namespace and one of an undeclared kind', ({ hook, spec }) => {
    const children = { 'ConfigMap.v1': { 'ns/d': observed, 'other-tenant/d': foreign }, 'Secret.v1': { 'ns/d': undeclared } };
    const out = runHook(demo, hook, parseHookRequest({ parent: parent(spec), children, finalizing: hook === 'finalize' }), ctx);
    expect((out.children as KubeObject[]).map((c) => `${c.kind}/${c.metadata.namespace}/${c.metadata.name}`)).toEqual(['ConfigMap/ns/d']);
    expect(JSON.stringify(out)).not.toContain('other-tenant');
    if (hook === 'finalize') expect(out.finalized).toBe(true);
  });

  it('a kept child sent without a namespace is answered in the parent namespace', () => {
    const bare = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd' }, data: { a: '1' } };
    const out = runHook(demo, 'finalize', parseHookRequest({ parent: parent({}), children: { 'ConfigMap.v1': { d: bare } }, finalizing: true }), ctx);
    expect(out.children).toEqual([{ ...bare, metadata: { name: 'd', namespace: 'ns' } }]);
  });

  it('does not mutate its input', () => {
    const body = deepFreeze({ parent: parent({ size: 2 }), children: { 'ConfigMap.v1': { 'ns/d': structuredClone(observed) } } });
    expect(() => runHook(demo, 'sync', parseHookRequest(body), ctx)).not.toThrow();
  });
});

describe('lastApplied', () => {
  it('without the annotation, drops server-owned fields', () => {
    const obj: KubeObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's', namespace: 'n', uid: 'u', resourceVersion: '1', managedFields: [] },
      spec: { ports: [] },
      status: { loadBalancer: {} },
    };
    expect(lastApplied(obj)).toEqual({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'n' }, spec: { ports: [] } });
  });

  const applied = (name: string, text: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'n', annotations: { [LAST_APPLIED_ANNOTATION]: text } },
    spec: { ports: [{ port: 9 }] },
  });

  it("reads the annotation under each object's own name and namespace", () => {
    const text = JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', labels: { a: 'b' } }, spec: { ports: [{ port: 80 }] } });
    const a = lastApplied(applied('s', text));
    const b = lastApplied(applied('t', text));
    expect(a).toEqual({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'n', labels: { a: 'b' } }, spec: { ports: [{ port: 80 }] } });
    expect(b).toEqual({ ...a, metadata: { ...a.metadata, name: 't' } });
  });

  it('an annotation that is not JSON of an object with metadata: the object without server-owned fields', () => {
    for (const text of ['{not json', '[]', '{"spec":{}}']) {
      expect(lastApplied(applied('s', text))).toEqual({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's', namespace: 'n' },
        spec: { ports: [{ port: 9 }] },
      });
    }
  });
});

describe('ObjectIndex', () => {
  it('reads v1 (name) and v2 (namespace/name) keys the same way', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns' } };
    const v1 = ObjectIndex.fromWire({ 'ConfigMap.v1': { a: cm } }, 'ns');
    const v2 = ObjectIndex.fromWire({ 'ConfigMap.v1': { 'ns/a': cm } }, 'ns');
    expect(v1.get('v1', 'ConfigMap', 'a')).toEqual(v2.get('v1', 'ConfigMap', 'a'));
  });
  it('takes the type from the map key when an object lacks it', () => {
    const idx = ObjectIndex.fromWire({ 'Deployment.apps/v1': { x: { metadata: { name: 'x' } } } }, 'ns');
    expect(idx.get('apps/v1', 'Deployment', 'x')?.kind).toBe('Deployment');
  });
});
