import { describe, expect, it } from 'vitest';
import { applyOutcome, mergedObject } from '../../hooks/cli/plan/apply.js';
import { fieldChanges } from '../../hooks/cli/plan/diff.js';
import type { KubeObject } from '../../hooks/kit/types.js';

// Metacontroller's dynamic apply: pkg/dynamic/apply/apply.go (Merge, mergeListMap, detectListMapKey)
// and pkg/controller/common/manage_children.go (ApplyUpdate, revertObjectMetaSystemFields, DynamicApply.Apply).
const LAST = 'metacontroller.k8s.io/last-applied-configuration';

function observedWith(lastApplied: Record<string, unknown>, extra: (o: KubeObject) => void = () => {}): KubeObject {
  const o = structuredClone({
    ...lastApplied,
    metadata: { ...(lastApplied.metadata as object), annotations: { [LAST]: JSON.stringify(lastApplied) } },
  }) as unknown as KubeObject;
  extra(o);
  return o;
}

const svc = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 's', ...metadata },
  spec,
});

describe('apply.go Merge', () => {
  it('keeps what the desired object never set, removes what it set last time and no longer sets', () => {
    const last = svc({ type: 'ClusterIP', sessionAffinity: 'None' });
    const observed = observedWith(last, (o) => {
      (o.spec as Record<string, unknown>).clusterIP = '10.0.0.1';
    });
    const merged = mergedObject(observed, svc({ type: 'ClusterIP' }) as KubeObject);
    expect(merged.spec).toEqual({ type: 'ClusterIP', clusterIP: '10.0.0.1' });
  });

  it('merges lists of objects by a known key (port), keeping the observed order and fields, appending new items', () => {
    const last = svc({ ports: [{ port: 80, name: 'http' }] });
    const observed = observedWith(last, (o) => {
      (o.spec as { ports: Array<Record<string, unknown>> }).ports = [
        { port: 81, protocol: 'TCP' },
        { port: 80, name: 'http', protocol: 'TCP' },
      ];
    });
    const merged = mergedObject(observed, svc({ ports: [{ port: 80, name: 'web' }, { port: 90 }] }) as KubeObject);
    // 81 was never applied: kept; 80 merged field by field (protocol kept); 90 appended.
    expect((merged.spec as { ports: unknown }).ports).toEqual([{ port: 81, protocol: 'TCP' }, { port: 80, name: 'web', protocol: 'TCP' }, { port: 90 }]);
  });

  it('replaces a list without a common merge key (args) whole', () => {
    const last = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' }, args: ['a', 'b'] };
    const merged = mergedObject(observedWith(last), { ...last, args: ['c'] } as KubeObject);
    expect(merged.args).toEqual(['c']);
  });

  it('reverts the system fields of ObjectMeta and status to the observed ones', () => {
    const last = svc({ type: 'ClusterIP' });
    const observed = observedWith(last, (o) => {
      Object.assign(o.metadata, { uid: 'u1', resourceVersion: '7', generation: 3 });
      o.status = { loadBalancer: {} };
    });
    const desired = { ...svc({ type: 'ClusterIP' }, { uid: 'other', resourceVersion: '1' }), status: { x: 1 } } as KubeObject;
    const merged = mergedObject(observed, desired);
    expect(merged.metadata).toMatchObject({ uid: 'u1', resourceVersion: '7', generation: 3 });
    expect(merged.status).toEqual({ loadBalancer: {} });
  });
});

describe('DynamicApply.Apply: whether Metacontroller writes', () => {
  it('nothing when the merge gives what is there and the last-applied object is the desired one', () => {
    const last = svc({ type: 'ClusterIP' }, { labels: { a: 'b' } });
    const observed = observedWith(last, (o) => {
      (o.spec as Record<string, unknown>).clusterIP = '10.0.0.1';
    });
    expect(applyOutcome(observed, structuredClone(last) as KubeObject).writes).toBe(false);
  });

  it('the annotation alone when the desired object sets a value the server had already defaulted', () => {
    const last = svc({ type: 'ClusterIP' });
    const observed = observedWith(last, (o) => {
      (o.spec as Record<string, unknown>).sessionAffinity = 'None';
    });
    const outcome = applyOutcome(observed, svc({ type: 'ClusterIP', sessionAffinity: 'None' }) as KubeObject);
    expect(outcome).toMatchObject({ writes: true, lastAppliedChanges: true });
    expect(fieldChanges(observed.spec, outcome.merged.spec)).toEqual([]);
  });

  it('an object without the annotation (adopted) is written once, with it', () => {
    const observed = svc({ type: 'ClusterIP' }) as KubeObject;
    expect(applyOutcome(observed, svc({ type: 'ClusterIP' }) as KubeObject)).toMatchObject({ writes: true, lastAppliedChanges: true });
  });
});

describe('fieldChanges', () => {
  it('names list items by name or type, and reports added and removed fields', () => {
    const before = { containers: [{ name: 'a', image: 'x' }], conditions: [{ type: 'Ready', status: 'True' }] };
    const after = { containers: [{ name: 'a', image: 'y', args: ['1'] }], conditions: [{ type: 'Ready', status: 'False' }] };
    expect(fieldChanges(before, after)).toEqual([
      { path: 'conditions[Ready].status', before: 'True', after: 'False' },
      { path: 'containers[a].args', after: ['1'] },
      { path: 'containers[a].image', before: 'x', after: 'y' },
    ]);
  });
});
