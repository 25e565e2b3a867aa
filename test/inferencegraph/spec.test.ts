import { describe, expect, it } from 'vitest';
import { inferencegraph } from '../../hooks/inferencegraph/index.js';
import { crdFor } from '../../hooks/engine/manifests.js';
import { graph, run } from './support.js';

/*
 * The CRD and the spec checks against KServe v0.20.0: config/crd/full/serving.kserve.io_inferencegraphs.yaml
 * (names, version, printer columns, schema) and pkg/apis/serving/v1alpha1/inference_graph_validation.go
 * (the validating webhook, which a cluster without KServe does not run: here an InvalidSpec condition).
 */

const crd = crdFor(inferencegraph) as any;
const version = crd.spec.versions[0];
const spec = version.schema.openAPIV3Schema.properties.spec;
const step = spec.properties.nodes.additionalProperties.properties.steps.items;

describe('CRD: upstream-compatible (serving.kserve.io_inferencegraphs.yaml)', () => {
  const rows: Array<{ field: string; actual: () => unknown; expected: unknown }> = [
    { field: 'metadata.name', actual: () => crd.metadata.name, expected: 'inferencegraphs.serving.kserve.io' },
    {
      field: 'names',
      actual: () => ({ ...crd.spec.names, categories: undefined }),
      expected: {
        kind: 'InferenceGraph',
        listKind: 'InferenceGraphList',
        plural: 'inferencegraphs',
        singular: 'inferencegraph',
        shortNames: ['ig'],
        categories: undefined,
      },
    },
    { field: 'scope', actual: () => crd.spec.scope, expected: 'Namespaced' },
    {
      field: 'version (served, storage, status subresource)',
      actual: () => [version.name, version.served, version.storage, version.subresources],
      expected: ['v1alpha1', true, true, { status: {} }],
    },
    {
      field: 'printer columns URL, Ready, Age',
      actual: () => version.additionalPrinterColumns.filter((c: any) => !c.priority).map((c: any) => `${c.name}:${c.jsonPath}`),
      expected: ['URL:.status.url', 'Ready:.status.conditions[?(@.type=="Ready")].status', 'Age:.metadata.creationTimestamp'],
    },
    { field: 'spec.nodes required', actual: () => spec.required, expected: ['nodes'] },
    {
      field: 'routerType enum, required',
      actual: () => [spec.properties.nodes.additionalProperties.properties.routerType.enum, spec.properties.nodes.additionalProperties.required],
      expected: [['Sequence', 'Splitter', 'Ensemble', 'Switch'], ['routerType']],
    },
    {
      field: 'step fields',
      actual: () => Object.keys(step.properties).sort(),
      expected: ['condition', 'data', 'dependency', 'mapPredictionsToInstances', 'name', 'nodeName', 'serviceName', 'serviceUrl', 'weight'],
    },
    { field: 'dependency enum', actual: () => step.properties.dependency.enum, expected: ['Soft', 'Hard'] },
    { field: 'scaleMetric enum', actual: () => spec.properties.scaleMetric.enum, expected: ['cpu', 'memory', 'concurrency', 'rps'] },
    {
      field: 'spec fields',
      actual: () => Object.keys(spec.properties).sort(),
      expected: [
        'affinity',
        'maxReplicas',
        'minReplicas',
        'nodeName',
        'nodeSelector',
        'nodes',
        'resources',
        'routerTimeouts',
        'scaleMetric',
        'scaleTarget',
        'serviceAccountName',
        'timeout',
        'tolerations',
      ],
    },
    {
      field: 'routerTimeouts fields',
      actual: () => Object.keys(spec.properties.routerTimeouts.properties),
      expected: ['serverRead', 'serverWrite', 'serverIdle', 'serviceClient'],
    },
  ];
  for (const r of rows) it(r.field, () => expect(r.actual()).toEqual(r.expected));
});

describe("KServe's webhook checks: InvalidSpec naming the field, nothing created", () => {
  const rows: Array<{ rule: string; cite: string; nodes: unknown; path: string }> = [
    {
      rule: 'a node named root',
      cite: 'validateInferenceGraphRouterRoot (RootNodeNotFoundError)',
      nodes: { start: { routerType: 'Sequence', steps: [{ serviceUrl: 'http://a' }] } },
      path: 'spec.nodes',
    },
    {
      rule: 'a target per step',
      cite: 'validateInferenceGraphSingleStepTargets (TargetNotProvidedError)',
      nodes: { root: { routerType: 'Sequence', steps: [{ data: '$request' }] } },
      path: 'spec.nodes.root.steps[0]',
    },
    {
      rule: 'one target per step',
      cite: 'validateInferenceGraphSingleStepTargets (InvalidTargetError)',
      nodes: { root: { routerType: 'Sequence', steps: [{ serviceName: 'a', serviceUrl: 'http://a' }] } },
      path: 'spec.nodes.root.steps[0]',
    },
    {
      rule: 'step names unique in a node',
      cite: 'validateInferenceGraphStepNameUniqueness (DuplicateStepNameError)',
      nodes: {
        root: {
          routerType: 'Ensemble',
          steps: [
            { name: 's', serviceUrl: 'http://a' },
            { name: 's', serviceUrl: 'http://b' },
          ],
        },
      },
      path: 'spec.nodes.root.steps[1].name',
    },
    {
      rule: 'a weight on every Splitter step',
      cite: 'validateInferenceGraphSplitterWeight (WeightNotProvidedError)',
      nodes: { root: { routerType: 'Splitter', steps: [{ serviceUrl: 'http://a', weight: 100 }, { serviceUrl: 'http://b' }] } },
      path: 'spec.nodes.root.steps[1].weight',
    },
    {
      rule: 'Splitter weights sum to 100',
      cite: 'validateInferenceGraphSplitterWeight (InvalidWeightError)',
      nodes: {
        root: {
          routerType: 'Splitter',
          steps: [
            { serviceUrl: 'http://a', weight: 20 },
            { serviceUrl: 'http://b', weight: 70 },
          ],
        },
      },
      path: 'spec.nodes.root.steps',
    },
  ];
  for (const r of rows) {
    it(`${r.rule} (${r.cite})`, () => {
      const out = run(graph({ nodes: r.nodes }));
      expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
      expect(out.condition('Ready')?.message).toContain(`${r.path}:`);
      expect(out.children).toEqual([]);
    });
  }
  it('a valid graph of every router type passes', () => {
    const nodes = {
      root: { routerType: 'Sequence', steps: [{ nodeName: 'split' }, { nodeName: 'ens', data: '$response' }, { nodeName: 'sw' }] },
      split: {
        routerType: 'Splitter',
        steps: [
          { serviceUrl: 'http://a', weight: 50 },
          { serviceUrl: 'http://b', weight: 50 },
        ],
      },
      ens: {
        routerType: 'Ensemble',
        steps: [
          { name: 'x', serviceUrl: 'http://a' },
          { name: 'y', serviceUrl: 'http://b' },
        ],
      },
      sw: { routerType: 'Switch', steps: [{ serviceUrl: 'http://a', condition: 'c', dependency: 'Hard' }] },
    };
    expect(run(graph({ nodes })).condition('Ready')?.reason).not.toBe('InvalidSpec');
  });
});
