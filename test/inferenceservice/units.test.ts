import { describe, expect, it } from 'vitest';
import type { KubeObject, Parent } from '../../hooks/kit/index.js';
import { isValidHost, renderDomain } from '../../hooks/inferenceservice/children/hosts.js';
import { componentReadiness } from '../../hooks/inferenceservice/status.js';
import { inferenceserviceSpec, scalingOf } from '../../hooks/inferenceservice/spec.js';
import { formatIssues } from '../../hooks/engine/protocol.js';

const deployment = (status: Record<string, unknown>, generation = 1): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd', generation },
  status,
});
const c = (type: string, status: string, reason: string, message = `${type} ${reason}`) => ({ type, status, reason, message });

describe('component readiness (KServe PropagateRawStatus)', () => {
  it.each([
    { reason: 'no Deployment yet', d: undefined, want: ['Unknown', 'DeploymentNotFound'] },
    { reason: 'no conditions yet', d: deployment({ observedGeneration: 1 }), want: ['Unknown', 'DeploymentPending'] },
    {
      reason: 'spec not observed yet',
      d: deployment({ observedGeneration: 1, conditions: [c('Available', 'True', 'MinimumReplicasAvailable')] }, 2),
      want: ['Unknown', 'RolloutPending'],
    },
    {
      reason: 'Available',
      d: deployment({ observedGeneration: 1, conditions: [c('Available', 'True', 'MinimumReplicasAvailable')] }),
      want: ['True', 'MinimumReplicasAvailable'],
    },
    {
      reason: 'rollout complete',
      d: deployment({
        observedGeneration: 1,
        conditions: [c('Available', 'True', 'MinimumReplicasAvailable'), c('Progressing', 'True', 'NewReplicaSetAvailable')],
      }),
      want: ['True', 'NewReplicaSetAvailable'],
    },
    {
      reason: 'rolling out while still available',
      d: deployment({ observedGeneration: 1, conditions: [c('Available', 'True', 'MinimumReplicasAvailable'), c('Progressing', 'True', 'ReplicaSetUpdated')] }),
      want: ['True', 'MinimumReplicasAvailable'],
    },
    {
      reason: 'first rollout',
      d: deployment({ observedGeneration: 1, conditions: [c('Progressing', 'True', 'ReplicaSetUpdated')] }),
      want: ['Unknown', 'ReplicaSetUpdated'],
    },
    {
      reason: 'deadline exceeded',
      d: deployment({ observedGeneration: 1, conditions: [c('Progressing', 'False', 'ProgressDeadlineExceeded')] }),
      want: ['False', 'ProgressDeadlineExceeded'],
    },
    {
      reason: 'not available outranks progressing',
      d: deployment({
        observedGeneration: 1,
        conditions: [c('Available', 'False', 'MinimumReplicasUnavailable'), c('Progressing', 'True', 'ReplicaSetUpdated')],
      }),
      want: ['False', 'MinimumReplicasUnavailable'],
    },
    {
      reason: 'replica failure outranks everything',
      d: deployment({ observedGeneration: 1, conditions: [c('Available', 'True', 'MinimumReplicasAvailable'), c('ReplicaFailure', 'True', 'FailedCreate')] }),
      want: ['False', 'FailedCreate'],
    },
  ])('$reason', ({ d, want }) => {
    const r = componentReadiness(d);
    expect([r.status, r.reason]).toEqual(want);
  });
});

describe('domain template', () => {
  const parent = { metadata: { name: 'iris', namespace: 'ml', annotations: { team: 'a' }, labels: { tier: 'gold' } } } as unknown as Parent<unknown>;
  it.each([
    { reason: "KServe's template", template: '{{ .Name }}-{{ .Namespace }}.{{ .IngressDomain }}', want: 'iris-ml.example.com' },
    { reason: 'the short spelling', template: '{{name}}-{{namespace}}.{{domain}}', want: 'iris-ml.example.com' },
    {
      reason: 'annotations and labels',
      template: '{{ .Name }}.{{ .Labels.tier }}.{{ .Annotations.team }}.{{ .IngressDomain }}',
      want: 'iris.gold.a.example.com',
    },
  ])('$reason', ({ template, want }) => expect(renderDomain(template, 'iris', parent, 'example.com')).toBe(want));

  it.each([
    { host: 'iris-ml.example.com', valid: true },
    { host: `${'a'.repeat(64)}.example.com`, valid: false },
    { host: 'Iris.example.com', valid: false },
  ])('$host valid: $valid', ({ host, valid }) => expect(isValidHost(host)).toBe(valid));
});

describe('HPA defaults (KServe createHPA)', () => {
  it.each([
    { reason: 'nothing set', spec: {}, want: { min: 1, max: 1, metric: 'cpu', target: 80, replicas: 1 } },
    { reason: 'min 0 is raised to 1 for the HPA', spec: { minReplicas: 0 }, want: { min: 1, max: 1, metric: 'cpu', target: 80, replicas: 0 } },
    { reason: 'max below min is raised', spec: { minReplicas: 3, maxReplicas: 0 }, want: { min: 3, max: 3, metric: 'cpu', target: 80, replicas: 3 } },
    { reason: 'memory has no default target', spec: { scaleMetric: 'memory' as const }, want: { min: 1, max: 1, metric: 'memory', replicas: 1 } },
    { reason: 'scaleTarget', spec: { maxReplicas: 4, scaleTarget: 50 }, want: { min: 1, max: 4, metric: 'cpu', target: 50, replicas: 1 } },
  ])('$reason', ({ spec, want }) => expect(scalingOf(spec)).toEqual(want));
});

describe('container resources (the kit quantity)', () => {
  const spec = (resources: unknown) => ({ predictor: { containers: [{ image: 'c:1', resources }] } });
  const cases = [
    {
      reason: 'a word is not a quantity',
      resources: { requests: { cpu: 'lots' } },
      problem: /spec\.predictor\.containers\[0\]\.resources\.requests\.cpu: a quantity such as 500m or 1Gi/,
    },
    { reason: 'a negative number is not a quantity', resources: { limits: { memory: -1 } }, problem: /resources\.limits\.memory/ },
  ];
  for (const c of cases) {
    it(`refuses: ${c.reason}`, () => {
      const parsed = inferenceserviceSpec.safeParse(spec(c.resources));
      expect(parsed.success).toBe(false);
      if (!parsed.success) expect(formatIssues(parsed.error.issues)).toMatch(c.problem);
    });
  }
  it('accepts the quantity syntax and bare numbers, handing them on as strings', () => {
    const parsed = inferenceserviceSpec.parse(spec({ requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: 2 } }));
    expect(parsed.predictor.containers?.[0]?.resources).toEqual({ requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '2' } });
  });
});
