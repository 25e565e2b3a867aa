// `runSync(...).child<T>()` and `childrenOf<T>()` are typed as the caller says: the type
// assertions below are checked by `tsc --noEmit` (part of `npm test`), the values by vitest.
import type { V1Deployment, V1Service } from '@kubernetes/client-node';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { KubeObject } from 'modelhooks/kit';
import { runSync } from 'modelhooks/testing';
import { echo } from '../../examples/custom/echo.js';

const parent = { apiVersion: 'example.dev/v1', kind: 'Echo', metadata: { name: 'hello', namespace: 'demo' }, spec: { message: 'hi', replicas: 2 } };

describe('SyncResult.child<T>() and childrenOf<T>()', () => {
  const out = runSync(echo, { parent });

  it('types a child as the object type given, e.g. client-node V1Deployment', () => {
    const deployment = out.child<V1Deployment>('Deployment', 'hello');
    expectTypeOf(deployment).toEqualTypeOf<V1Deployment | undefined>();
    expectTypeOf(deployment?.spec?.replicas).toEqualTypeOf<number | undefined>();
    expect(deployment?.spec?.replicas).toBe(2);
    expect(deployment?.spec?.template.spec?.containers[0]?.name).toBe('echo');
  });

  it('types every child of a kind the same way', () => {
    const services = out.childrenOf<V1Service>('Service');
    expectTypeOf(services).toEqualTypeOf<V1Service[]>();
    expect(services.map((s) => s.spec?.ports?.[0]?.port)).toEqual([80]);
  });

  it('is a KubeObject when no type is given', () => {
    expectTypeOf(out.child('ConfigMap', 'hello')).toEqualTypeOf<KubeObject | undefined>();
    expectTypeOf(out.childrenOf('ConfigMap')).toEqualTypeOf<KubeObject[]>();
    expect(out.child('ConfigMap', 'hello')?.data).toEqual({ message: 'hi' });
    expect(out.child('ConfigMap', 'nope')).toBeUndefined();
  });
});
