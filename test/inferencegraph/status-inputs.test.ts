import { describe, expect, it } from 'vitest';
import { condition, ObjectIndex, type KubeObject, type SyncInput } from '../../hooks/kit/index.js';
import { configFor } from '../../hooks/kit/config.js';
import { inferencegraph } from '../../hooks/inferencegraph/index.js';
import type { InferenceGraphConfig } from '../../hooks/inferencegraph/config.js';
import type { InferenceGraphSpec } from '../../hooks/inferencegraph/spec.js';
import { statusFrom } from '../../hooks/inferencegraph/status.js';
import { graph, NS } from './support.js';

/** The hosts another parent routes are an input of statusFrom, decided before the condition tree summarises. */
describe('InferenceGraph statusFrom, given a host conflict', () => {
  const input: SyncInput<InferenceGraphSpec, InferenceGraphConfig> = {
    parent: { ...graph({ nodes: { root: { routerType: 'Sequence', steps: [] } } }), status: {} } as SyncInput<
      InferenceGraphSpec,
      InferenceGraphConfig
    >['parent'],
    observed: new ObjectIndex([], NS),
    related: new ObjectIndex([], NS),
    declares: () => true,
    now: '2026-01-01T00:00:00Z',
    config: configFor(inferencegraph, undefined) as InferenceGraphConfig,
    finalizing: false,
  };
  const router = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'g', namespace: NS, generation: 1 },
    status: {
      observedGeneration: 1,
      replicas: 1,
      updatedReplicas: 1,
      availableReplicas: 1,
      conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' }],
    },
  } as KubeObject;
  const ingress = { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'g', namespace: NS } } as KubeObject;
  const steps = condition.true('InferenceServicesReady', 'InferenceServicesReady', 'the graph names no InferenceService');
  const exposure = { kind: 'ingress' as const, host: 'g-kserve-test.example.com' };
  const conditionOf = (status: Record<string, unknown>, type: string) =>
    (status.conditions as Array<{ type: string; message: string }>).find((c) => c.type === type);

  it('IngressReady and Ready False/HostConflict naming the holder; without it, Ready True', () => {
    const conflicts = [{ host: exposure.host, holder: 'Ingress/other', owner: 'InferenceService/other' }];
    const status = statusFrom(input, steps, exposure, { deployment: router, exposure: ingress }, [], conflicts);
    expect(conditionOf(status, 'Ready')).toMatchObject({ status: 'False', reason: 'HostConflict' });
    expect(conditionOf(status, 'IngressReady')).toMatchObject({ status: 'False', reason: 'HostConflict' });
    expect(conditionOf(status, 'Ready')?.message).toContain('is already routed by Ingress/other');
    expect(conditionOf(statusFrom(input, steps, exposure, { deployment: router, exposure: ingress }, []), 'Ready')).toMatchObject({ status: 'True' });
  });
});
