/** InferenceGraph: KServe's Ensemble sample over two InferenceServices (related objects, by name). */
import { inferencegraph } from '../../hooks/inferencegraph/index.js';
import { buildCase } from './build.js';

const isvc = (name: string, format: string, uid: string) => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name, namespace: 'kserve-test', uid, resourceVersion: '48200412', generation: 1 },
  spec: { predictor: { [format]: { storageUri: `gs://kfserving-examples/models/${format}/iris` } } },
  status: {
    address: { url: `http://${name}-predictor.kserve-test.svc.cluster.local` },
    url: `http://${name}-kserve-test.example.com`,
    conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }],
  },
});

export const inferencegraphCases = () => [
  buildCase({
    name: 'inferencegraph/ensemble',
    description: "KServe's Ensemble sample: two InferenceServices resolved into the router's graph",
    composition: inferencegraph,
    steps: [
      {
        apiVersion: 'serving.kserve.io/v1alpha1',
        kind: 'InferenceGraph',
        metadata: { name: 'ensemble-model', namespace: 'kserve-test' },
        spec: {
          nodes: {
            root: {
              routerType: 'Ensemble',
              steps: [
                { serviceName: 'sklearn-iris', name: 'sklearn-iris' },
                { serviceName: 'xgboost-iris', name: 'xgboost-iris' },
              ],
            },
          },
        },
      },
    ],
    related: () => [
      isvc('sklearn-iris', 'sklearn', '3f0e7c1a-0000-4000-8000-0000000000a1'),
      isvc('xgboost-iris', 'xgboost', '3f0e7c1a-0000-4000-8000-0000000000a2'),
    ],
  }),
];
