import path from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { readObjects } from '../../hooks/cli/render.js';
import { builtinCompositions } from '../../hooks/compositions.js';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { defineComposition, type KubeObject } from '../../hooks/kit/index.js';
import { converge, differences } from '../../hooks/testing/index.js';

const examples = path.resolve(import.meta.dirname, '../../examples');
const parent = { apiVersion: 'example.dev/v1', kind: 'Counter', metadata: { name: 'c', namespace: 'ns', generation: 4 }, spec: {} };

/** Counts its own syncs through the status it gets back: it never settles. */
const restless = defineComposition({
  name: 'restless',
  parent: { group: 'example.dev', kind: 'Counter', plural: 'counters', singular: 'counter', versions: ['v1'] },
  spec: z.object({}),
  children: [{ apiVersion: 'v1', kind: 'ConfigMap', resource: 'configmaps' }],
  sync: ({ parent: p, observed }) => ({
    status: { count: Number(p.status.count ?? 0) + 1, seenGeneration: p.status.observedGeneration ?? null, observed: observed.size },
    children: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' }, data: {} }],
  }),
});

/** Answers from what it observed, so it settles once its children exist. */
const settling = defineComposition({
  ...restless,
  name: 'settling',
  sync: ({ parent: p, observed }) => ({
    status: { seenGeneration: p.status.observedGeneration ?? null, observed: observed.list('v1', 'ConfigMap').map((c: KubeObject) => c.metadata.generation) },
    children: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' }, data: {} }],
  }),
});

describe('converge', () => {
  it('feeds the children back as observed and the status (with observedGeneration) back to the parent', () => {
    const { result, rounds } = converge(settling, { parent });
    expect(rounds).toBe(3);
    expect(result.status).toEqual({ seenGeneration: 4, observed: [1] });
  });

  it('throws naming what still changes when the answers never settle', () => {
    expect(() => converge(restless, { parent, maxRounds: 4 })).toThrow(/restless did not converge in 4 syncs[^]*status\.count: 3 → 4/);
    expect(() => converge(restless, { parent, maxRounds: 1 })).toThrow(/maxRounds must be at least 2/);
  });

  it("with observe: 'applied' nothing becomes ready", () => {
    const [trustyai] = builtinCompositions;
    const { result } = converge(trustyai!, { parent: readObjects(path.join(examples, 'trustyai.yaml'))[0], config: defaultHookConfig(), observe: 'applied' });
    expect(result.condition('Ready')?.status).toBe('Unknown');
  });

  for (const [composition, file] of [
    ['trustyai', 'trustyai.yaml'],
    ['tfserv', 'tfserv.yaml'],
    ['mlmodel', 'mlmodel.yaml'],
    ['inferenceservice', 'inferenceservice.yaml'],
    ['inferencegraph', 'inferencegraph.yaml'],
  ] as const) {
    it(`brings the ${composition} example to Ready through the readiness builders`, () => {
      const c = builtinCompositions.find((x) => x.name === composition)!;
      const related =
        composition === 'tfserv' ? readObjects(path.join(examples, 'tfserv-configmap.yaml')) : composition === 'inferencegraph' ? [readyIsvc()] : [];
      const { result, rounds } = converge(c, { parent: readObjects(path.join(examples, file))[0], related, config: defaultHookConfig() });
      expect(result.condition('Ready'), composition).toMatchObject({ status: 'True' });
      expect(rounds).toBeLessThanOrEqual(5);
    });
  }
});

/** examples/inferenceservice.yaml as it stands once served: the address the graph's router is given. */
function readyIsvc(): KubeObject {
  const [isvc] = readObjects(path.join(examples, 'inferenceservice.yaml')) as KubeObject[];
  return {
    ...(isvc as KubeObject),
    status: { address: { url: 'http://sklearn-iris-predictor.models.svc.cluster.local' }, conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

describe('differences', () => {
  it('names each changed path with the value before and after', () => {
    expect(differences({ a: { b: [1, 2] }, c: 'x' }, { a: { b: [1, 3] }, d: true })).toEqual(['a.b[1]: 2 → 3', 'c: "x" → (absent)', 'd: (absent) → true']);
    expect(differences({ a: 1 }, { a: 1 })).toEqual([]);
  });
});
