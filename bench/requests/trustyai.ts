/** TrustyAIService requests: OpenShift (PVC, Route, ServiceMonitor) and a database-backed one. */
import { trustyai } from '../../hooks/trustyai/index.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import type { Json } from '../dress.js';
import { buildCase, type CaseSpec } from './build.js';

const labels = {
  'app.kubernetes.io/name': 'trustyaiservice',
  'app.kubernetes.io/part-of': 'trustyai-service-operator',
  'app.kubernetes.io/managed-by': 'kustomize',
  'app.kubernetes.io/created-by': 'trustyai-service-operator',
};

const tas = (name: string, spec: Json): Json => ({
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  metadata: { name, namespace: 'fraud-detection', labels: { ...labels, 'app.kubernetes.io/instance': name } },
  spec,
});

// Metacontroller's related rule lists every TrustyAIService of the namespace: ours included.
const self = (parent: Json) => [parent as KubeObject];

const openshift: CaseSpec = {
  name: 'trustyai/openshift',
  description: 'OpenShift variant: PVC storage, Route, ServiceMonitor',
  composition: trustyai,
  variant: 'openshift',
  steps: [
    tas('trustyai-service', {
      storage: { format: 'PVC', folder: '/inputs', size: '1Gi' },
      data: { filename: 'data.csv', format: 'CSV' },
      metrics: { schedule: '5s', batchSize: 5000 },
      replicas: 1,
    }),
  ],
  related: self,
};

const database: CaseSpec = {
  name: 'trustyai/database',
  description: 'DATABASE storage with its credentials Secret, 2 replicas',
  composition: trustyai,
  steps: [
    tas('trusty-db', { storage: { format: 'DATABASE', databaseConfigurations: 'db-credentials' }, metrics: { schedule: '1m', batchSize: 1000 }, replicas: 2 }),
  ],
  related: (parent) => [
    ...self(parent),
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db-credentials', namespace: 'fraud-detection' },
      type: 'Opaque',
      data: {
        databaseKind: 'bXlzcWw=',
        databaseUsername: 'dHJ1c3R5',
        databasePassword: 'c2VjcmV0',
        databaseService: 'bXlzcWw=',
        databasePort: 'MzMwNg==',
        databaseName: 'dHJ1c3R5YWk=',
        databaseGeneration: 'dXBkYXRl',
      },
    },
  ],
};

export const trustyaiCases = () => [openshift, database].map(buildCase);
