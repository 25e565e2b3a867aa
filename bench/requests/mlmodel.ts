/** MLModel: a model downloaded into a claim by a Job, served by TensorFlow Serving and exposed. */
import { mlmodel } from '../../hooks/mlmodel/index.js';
import { buildCase } from './build.js';

export const mlmodelCases = () => [
  buildCase({
    name: 'mlmodel/serving',
    description: 'downloaded and serving, exposed, 2 replicas',
    composition: mlmodel,
    steps: [
      {
        apiVersion: 'oda.tmforum.org.oda.tmforum.org/v1beta1',
        kind: 'MLModel',
        metadata: { name: 'resnet', namespace: 'ml' },
        spec: { modelURL: 'https://models.example.com/resnet/v1.tar.gz', storageSize: '5Gi', framework: 'tensorflow', replicas: 2, expose: true },
      },
    ],
  }),
];
