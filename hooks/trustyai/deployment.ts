import type { V1Deployment, V1EnvVar, V1PodSpec } from '@kubernetes/client-node';
import { childMeta, restrictedContainer, restrictedPod, type Parent } from '../kit/index.js';
import { COMPONENT, deploymentName, HTTP_PORT, labelsFor, pvcName, selectorFor } from './names.js';
import { metricsOf, type TrustyAISpec } from './spec.js';

/** Keys of the database Secret, and the variables the service reads them as. */
export const DATABASE_KEYS: Array<[env: string, key: string]> = [
  ['QUARKUS_DATASOURCE_DB_KIND', 'databaseKind'],
  ['QUARKUS_DATASOURCE_USERNAME', 'databaseUsername'],
  ['QUARKUS_DATASOURCE_PASSWORD', 'databasePassword'],
  ['DATABASE_SERVICE', 'databaseService'],
  ['DATABASE_PORT', 'databasePort'],
  ['DATABASE_NAME', 'databaseName'],
  ['QUARKUS_HIBERNATE_ORM_DATABASE_GENERATION', 'databaseGeneration'],
];

const STORAGE_VOLUME = 'volume';

export interface DeploymentOptions {
  image: string;
  /** Set a pod fsGroup so the non-root user can write the PVC (OpenShift assigns one itself). */
  setFsGroup: boolean;
}

export function deploymentFor(parent: Parent<TrustyAISpec>, opts: DeploymentOptions): V1Deployment {
  const spec = parent.spec;
  const labels = labelsFor(parent);
  const pvcMode = spec.storage.format === 'PVC';
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: childMeta(parent, deploymentName(parent), labels),
    spec: {
      replicas: spec.replicas,
      selector: { matchLabels: selectorFor(parent) },
      // A ReadWriteOnce volume cannot be attached to an old and a new pod at once.
      strategy: pvcMode ? { type: 'Recreate' } : { type: 'RollingUpdate' },
      template: {
        metadata: {
          labels,
          annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/path': '/q/metrics', 'prometheus.io/port': String(HTTP_PORT) },
        },
        spec: podSpecFor(parent, opts),
      },
    },
  };
}

function podSpecFor(parent: Parent<TrustyAISpec>, opts: DeploymentOptions): V1PodSpec {
  const pvcMode = parent.spec.storage.format === 'PVC';
  return {
    securityContext: restrictedPod(undefined, opts.setFsGroup && pvcMode ? { fsGroup: 1001, fsGroupChangePolicy: 'OnRootMismatch' } : {}),
    containers: [
      {
        name: COMPONENT,
        image: opts.image,
        ports: [{ name: 'http', containerPort: HTTP_PORT, protocol: 'TCP' }],
        env: envFor(parent.spec),
        readinessProbe: { httpGet: { path: '/q/health/ready', port: 'http' }, initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 5 },
        livenessProbe: { httpGet: { path: '/q/health/live', port: 'http' }, initialDelaySeconds: 30, periodSeconds: 10, timeoutSeconds: 5 },
        resources: { requests: { cpu: '100m', memory: '512Mi' }, limits: { memory: '1Gi' } },
        securityContext: restrictedContainer(),
        ...(pvcMode ? { volumeMounts: [{ name: STORAGE_VOLUME, mountPath: parent.spec.storage.folder }] } : {}),
      },
    ],
    ...(pvcMode ? { volumes: [{ name: STORAGE_VOLUME, persistentVolumeClaim: { claimName: pvcName(parent) } }] } : {}),
  };
}

function envFor(spec: TrustyAISpec): V1EnvVar[] {
  const metrics = metricsOf(spec);
  const env: V1EnvVar[] = [{ name: 'SERVICE_STORAGE_FORMAT', value: spec.storage.format }];
  if (spec.data?.filename) env.push({ name: 'STORAGE_DATA_FILENAME', value: spec.data.filename });
  if (spec.storage.format === 'PVC') env.push({ name: 'STORAGE_DATA_FOLDER', value: spec.storage.folder });
  if (spec.data?.format) env.push({ name: 'SERVICE_DATA_FORMAT', value: spec.data.format });
  env.push({ name: 'SERVICE_METRICS_SCHEDULE', value: metrics.schedule }, { name: 'SERVICE_BATCH_SIZE', value: String(metrics.batchSize) });
  const secret = spec.storage.databaseConfigurations;
  if (spec.storage.format === 'DATABASE' && secret) {
    env.push({ name: 'QUARKUS_HIBERNATE_ORM_ACTIVE', value: 'true' });
    for (const [name, key] of DATABASE_KEYS) env.push({ name, valueFrom: { secretKeyRef: { name: secret, key } } });
    env.push({
      name: 'QUARKUS_DATASOURCE_JDBC_URL',
      value: 'jdbc:${QUARKUS_DATASOURCE_DB_KIND}://${DATABASE_SERVICE}:${DATABASE_PORT}/${DATABASE_NAME}',
    });
  }
  return env;
}
