/** Tfserv: TensorFlow Serving reading its models file from a ConfigMap (a related object). */
import { tfserv } from '../../hooks/tfserv/index.js';
import { buildCase } from './build.js';

const MODELS = ['resnet', 'mobilenet', 'inception']
  .map((m) => `  config: {\n    name: "${m}",\n    base_path: "gs://tfmodel-store/${m}",\n    model_platform: "tensorflow"\n  }`)
  .join(',\n');

export const tfservCases = () => [
  buildCase({
    name: 'tfserv/three-models',
    description: 'three models in the ConfigMap, 2 replicas',
    composition: tfserv,
    steps: [
      {
        apiVersion: 'servapi.dev-state.com/v1alpha1',
        kind: 'Tfserv',
        metadata: { name: 'resnet', namespace: 'serving' },
        spec: { grpcPort: 9000, restPort: 8500, replicas: 2, configMap: 'tf-serving-models-config' },
      },
    ],
    related: () => [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'tf-serving-models-config', namespace: 'serving', uid: '3f0e7c1a-0000-4000-8000-00000000000c', resourceVersion: '48200311' },
        data: { 'models.conf': `model_config_list: {\n${MODELS}\n}\n` },
      },
    ],
  }),
];
