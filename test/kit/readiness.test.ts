import { describe, expect, it } from 'vitest';
import { deploymentReadiness, httpRouteReadiness, jobState, pvcReadiness, routeReadiness, type KubeObject } from '../../hooks/kit/index.js';

const obj = (kind: string, status: unknown, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind,
  metadata: { name: 'x', generation: 2 },
  status,
  ...extra,
});
const dep = (status: unknown, replicas = 2) => obj('Deployment', status, { spec: { replicas } });

describe('deploymentReadiness', () => {
  const cases = [
    { reason: 'missing object: not ready yet, not an error', d: undefined, want: 'Unknown/DeploymentNotFound' },
    { reason: 'no status at all', d: dep(undefined), want: 'Unknown/RolloutPending' },
    {
      reason: 'controller has not seen the new spec',
      d: dep({ observedGeneration: 1, availableReplicas: 2, updatedReplicas: 2, replicas: 2 }),
      want: 'Unknown/RolloutPending',
    },
    {
      reason: 'rollout in progress',
      d: dep({ observedGeneration: 2, replicas: 3, updatedReplicas: 1, availableReplicas: 2 }),
      want: 'Unknown/RolloutInProgress',
    },
    {
      reason: 'quota or admission stops pod creation',
      d: dep({ observedGeneration: 2, conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'quota' }] }),
      want: 'False/FailedCreate',
    },
    {
      reason: 'deadline exceeded',
      d: dep({ observedGeneration: 2, conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] }),
      want: 'False/ProgressDeadlineExceeded',
    },
    {
      reason: 'complete and available',
      d: dep({ observedGeneration: 2, replicas: 2, updatedReplicas: 2, availableReplicas: 2, conditions: [{ type: 'Available', status: 'True' }] }),
      want: 'True/MinimumReplicasAvailable',
    },
    { reason: 'scaled to zero is complete', d: dep({ observedGeneration: 2 }, 0), want: 'True/MinimumReplicasAvailable' },
  ];
  for (const c of cases)
    it(c.reason, () => {
      const r = deploymentReadiness(c.d);
      expect(`${r.status}/${r.reason}`).toBe(c.want);
    });
});

describe('other readiness predicates', () => {
  it('Job: failed, complete, running, missing', () => {
    expect(jobState(obj('Job', { conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'too many' }] })).state).toBe(
      'Failed',
    );
    expect(jobState(obj('Job', { conditions: [{ type: 'Complete', status: 'True' }] })).state).toBe('Succeeded');
    expect(jobState(obj('Job', { active: 1 })).state).toBe('Running');
    expect(jobState(undefined).state).toBe('Missing');
  });
  it('PVC: Bound, Pending, Lost', () => {
    expect(pvcReadiness(obj('PersistentVolumeClaim', { phase: 'Bound' })).status).toBe('True');
    expect(pvcReadiness(obj('PersistentVolumeClaim', { phase: 'Pending' })).status).toBe('Unknown');
    expect(pvcReadiness(obj('PersistentVolumeClaim', { phase: 'Lost' })).status).toBe('False');
  });
  it('Route: admitted or rejected by a router', () => {
    expect(routeReadiness(obj('Route', { ingress: [{ host: 'h', conditions: [{ type: 'Admitted', status: 'True' }] }] })).status).toBe('True');
    expect(routeReadiness(obj('Route', { ingress: [{ conditions: [{ type: 'Admitted', status: 'False', reason: 'HostAlreadyClaimed' }] }] })).reason).toBe(
      'HostAlreadyClaimed',
    );
    expect(routeReadiness(obj('Route', {})).status).toBe('Unknown');
  });
  it('HTTPRoute: accepted with refs resolved by every parent', () => {
    const parents = (accepted: string) => ({
      parents: [
        {
          conditions: [
            { type: 'Accepted', status: accepted, reason: 'NotAllowedByListeners' },
            { type: 'ResolvedRefs', status: 'True' },
          ],
        },
      ],
    });
    expect(httpRouteReadiness(obj('HTTPRoute', parents('True'))).status).toBe('True');
    expect(httpRouteReadiness(obj('HTTPRoute', parents('False'))).reason).toBe('NotAllowedByListeners');
    expect(httpRouteReadiness(obj('HTTPRoute', {})).status).toBe('Unknown');
  });
});
