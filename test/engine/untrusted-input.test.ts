import { describe, expect, it } from 'vitest';
import { inferencegraph } from '../../hooks/inferencegraph/index.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { mlmodel } from '../../hooks/mlmodel/index.js';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { ready, runSync } from '../../hooks/testing/index.js';
import { tfserv } from '../../hooks/tfserv/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';
import { labelProblems } from '../support/labels.js';
import { validateObject } from '../support/validate.js';

// Issue 32, items 5 and 6: children the API server accepts, or InvalidSpec naming the field
// (children kept); related and observed objects of any shape never crash a sync.
const config = defaultHookConfig();
const isvc = (name: string, spec: Record<string, unknown>, status: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name, namespace: 'ml', generation: 2, uid: 'u-1' },
  spec,
  status,
});
const sklearn = { sklearn: { storageUri: 'gs://b/m' } };

describe('InferenceService: pod fields the API server refuses are InvalidSpec naming the field, the children kept', () => {
  const valid = isvc('iris', { predictor: sklearn });
  const observed = runSync(inferenceservice, { parent: valid, config }).children.map((c) => ready(c));

  it.each([
    ['an empty env name (ValidateEnv)', { ...sklearn.sklearn, env: [{ name: '', value: 'x' }] }, {}, 'spec.predictor.sklearn.env[0].name: required'],
    [
      'an image with a trailing space (validateContainerOnlyForPod)',
      { ...sklearn.sklearn, image: 'kserve/sklearnserver:v1 ' },
      {},
      'spec.predictor.sklearn.image',
    ],
    [
      'a CPU request above its limit (validateResourceRequirements)',
      { ...sklearn.sklearn, resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } },
      {},
      'spec.predictor.sklearn.resources.requests["cpu"]',
    ],
    ['a nodeSelector key `a b` (ValidateLabels)', sklearn.sklearn, { nodeSelector: { 'a b': 'x' } }, 'spec.predictor.nodeSelector["a b"]'],
    [
      'toleration operator Bogus (ValidateTolerations)',
      sklearn.sklearn,
      { tolerations: [{ key: 'k', operator: 'Bogus' }] },
      'spec.predictor.tolerations[0].operator',
    ],
    ['volume name `A B` (ValidateVolumes)', sklearn.sklearn, { volumes: [{ name: 'A B', emptyDir: {} }] }, 'spec.predictor.volumes[0].name'],
    ['priorityClassName with a newline (ValidatePriorityClassName)', sklearn.sklearn, { priorityClassName: 'high\n' }, 'spec.predictor.priorityClassName'],
  ])('%s', (_, model, pod, named) => {
    const out = runSync(inferenceservice, { parent: isvc('iris', { predictor: { sklearn: model, ...pod } }), observed, config });
    const readyCondition = out.condition('Ready');
    expect(readyCondition?.reason).toBe('InvalidSpec');
    expect(readyCondition?.message).toContain(named);
    expect(out.children.map((c) => `${c.kind}/${c.metadata.name}`)).toEqual(observed.map((c) => `${c.kind}/${c.metadata.name}`).sort());
  });

  it('a canary of a 64-character InferenceService has label values of at most 63 characters (hashed, as names.ts)', () => {
    const name = `a${'b'.repeat(62)}c`;
    expect(name).toHaveLength(64);
    const out = runSync(inferenceservice, {
      parent: isvc(name, { predictor: sklearn, canary: [{ trafficPercent: 10, predictor: { name: 'v2', sklearn: { storageUri: 'gs://b/v2' } } }] }),
      config,
    });
    expect(out.condition('Ready')?.reason).not.toBe('InvalidSpec');
    expect(out.children.filter((c) => c.kind === 'Deployment').length).toBeGreaterThanOrEqual(2);
    for (const child of out.children) {
      expect(labelProblems(child)).toEqual([]);
      expect(validateObject(child)).toEqual([]);
    }
  });
});

describe('every composition names a refused copied field', () => {
  it.each([
    ['tfserv', tfserv, { image: 'tensorflow/serving ', resources: {} }, 'spec.image'],
    ['mlmodel', mlmodel, { modelURL: 'https://example.com/m.tgz', downloadImage: ' curl' }, 'spec.downloadImage'],
    [
      'trustyai',
      trustyai,
      {
        storage: { format: 'PVC', folder: '/inputs', size: '1Gi' },
        metrics: { schedule: '5s' },
        resources: { requests: { memory: '2Gi' }, limits: { memory: '1Gi' } },
      },
      'spec.resources.requests["memory"]',
    ],
    [
      'inferencegraph',
      inferencegraph,
      { nodes: { root: { routerType: 'Sequence', steps: [{ serviceUrl: 'http://a' }] } }, tolerations: [{ operator: 'Equal', value: 'x' }] },
      'spec.tolerations[0].operator',
    ],
  ] as const)('%s', (_, composition, spec, named) => {
    const parent = {
      apiVersion: `${composition.parent.group}/${composition.parent.versions[0]}`,
      kind: composition.parent.kind,
      metadata: { name: 'p', namespace: 'ml' },
      spec,
    };
    const out = runSync(composition, { parent, config });
    expect(out.condition('Ready')?.reason).toBe('InvalidSpec');
    expect(out.condition('Ready')?.message).toContain(named);
  });
});

describe('related and observed objects are untrusted input: no shape crashes a sync', () => {
  const graph = {
    apiVersion: 'serving.kserve.io/v1alpha1',
    kind: 'InferenceGraph',
    metadata: { name: 'g', namespace: 'ml', uid: 'g-1' },
    spec: { nodes: { root: { routerType: 'Sequence', steps: [{ serviceName: 'iris' }] } } },
  };
  it.each([5, 'x', { type: 'Ready' }, [null, 3]])('InferenceGraph: a related InferenceService whose status.conditions is %j', (conditions) => {
    const related = [{ ...isvc('iris', { predictor: sklearn }, { url: 'http://iris.ml.svc', conditions }), metadata: { name: 'iris', namespace: 'ml' } }];
    const out = runSync(inferencegraph, { parent: graph, related, config });
    expect(out.condition('Ready')).toBeDefined();
  });

  it('TrustyAI: an object holding a child name with a null owner reference', () => {
    const parent = {
      apiVersion: 'trustyai.opendatahub.io/v1',
      kind: 'TrustyAIService',
      metadata: { name: 't', namespace: 'ml', uid: 't-1' },
      spec: { storage: { format: 'PVC', folder: '/inputs', size: '1Gi' }, metrics: { schedule: '5s' } },
    };
    const first = runSync(trustyai, { parent, config });
    const holder = first.children.find((c) => c.kind === 'Deployment') as KubeObject;
    const related = [{ ...holder, metadata: { ...holder.metadata, ownerReferences: [null] } } as unknown as KubeObject];
    const out = runSync(trustyai, { parent, related, config });
    expect(out.condition('Ready')?.reason).toBe('ChildNameConflict');
  });
});
