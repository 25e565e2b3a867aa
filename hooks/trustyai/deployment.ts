import type { V1Container, V1Deployment, V1EnvVar, V1PodSpec, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import { childMeta, restrictedContainer, restrictedPod, type Parent } from '../kit/index.js';
import {
  COMPONENT,
  dbCaName,
  deploymentName,
  HTTP_PORT,
  HTTPS_PORT,
  internalCertName,
  internalCertVolume,
  labelsFor,
  proxyConfigName,
  proxyServiceAccountName,
  PROXY_PORT,
  PROXY_UPSTREAM_PORT,
  pvcName,
  selectorFor,
  tlsCertName,
  tlsCertVolume,
} from './names.js';
import { folderOf, isMigration, metricsOf, usesClaim, type TrustyAISpec } from './spec.js';

/**
 * Keys of the database Secret, and the variables the service reads them as, in the order of
 * controllers/tas/templates/service/deployment.tmpl.yaml@11c335b (JDBC_MAX_SIZE and the URL sit between).
 */
export const DATABASE_KEYS: Array<[env: string, key: string]> = [
  ['QUARKUS_DATASOURCE_DB_KIND', 'databaseKind'],
  ['QUARKUS_DATASOURCE_USERNAME', 'databaseUsername'],
  ['QUARKUS_DATASOURCE_PASSWORD', 'databasePassword'],
  ['DATABASE_SERVICE', 'databaseService'],
  ['DATABASE_PORT', 'databasePort'],
  ['DATABASE_NAME', 'databaseName'],
  ['QUARKUS_DATASOURCE_GENERATION', 'databaseGeneration'],
];

/** deployment.tmpl.yaml@11c335b: the pool size the operator fixes. */
export const JDBC_MAX_SIZE = '16';
const JDBC_URL = 'jdbc:${QUARKUS_DATASOURCE_DB_KIND}://${DATABASE_SERVICE}:${DATABASE_PORT}/${DATABASE_NAME}';
const JDBC_TLS = '?requireSSL=true&sslMode=verify-ca&serverSslCert=/etc/tls/db/ca.crt';

const STORAGE_VOLUME = 'volume';
const DB_CA_VOLUME = 'db-ca-cert';
const PROXY_CONFIG_VOLUME = 'kube-rbac-proxy-config';

export interface DeploymentOptions {
  image: string;
  /** The operator selector's `version`: the adopted Deployment's, or the operator's. */
  version: string;
  /** Set a pod fsGroup so the non-root user can write the PVC (OpenShift assigns one itself). */
  setFsGroup: boolean;
  /** Mount `<n>-internal` (the service's HTTPS certificate): only where something issues it. */
  internalCert: boolean;
  /** The kube-rbac-proxy sidecar (OpenShift: its certificate `<n>-tls` comes from the service CA). */
  proxy?: { image: string };
  /** The user made `<n>-db-ca`: connect to the database with TLS (deployment.go@11c335b). */
  dbCa: boolean;
}

export function deploymentFor(parent: Parent<TrustyAISpec>, opts: DeploymentOptions): V1Deployment {
  const labels = labelsFor(parent, opts.version);
  const selector = selectorFor(parent, opts.version);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: childMeta(parent, deploymentName(parent), labels),
    spec: {
      replicas: parent.spec.replicas,
      selector: { matchLabels: selector },
      // deployment.tmpl.yaml@11c335b: the old pod goes before the new one starts (a ReadWriteOnce claim).
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      template: {
        metadata: {
          labels,
          annotations: { 'prometheus.io/path': '/q/metrics', 'prometheus.io/scheme': 'http', 'prometheus.io/scrape': 'true' },
        },
        spec: podSpecFor(parent, opts),
      },
    },
  };
}

function podSpecFor(parent: Parent<TrustyAISpec>, opts: DeploymentOptions): V1PodSpec {
  const spec = parent.spec;
  const mounts: V1VolumeMount[] = [];
  const volumes: V1Volume[] = [];
  if (opts.internalCert) {
    mounts.push({ name: internalCertVolume(parent), mountPath: '/etc/tls/internal', readOnly: false });
    volumes.push({ name: internalCertVolume(parent), secret: { secretName: internalCertName(parent), defaultMode: 0o644 } });
  }
  if (usesClaim(spec)) {
    mounts.push({ name: STORAGE_VOLUME, mountPath: folderOf(spec) });
    volumes.push({ name: STORAGE_VOLUME, persistentVolumeClaim: { claimName: pvcName(parent) } });
  }
  if (opts.dbCa) {
    mounts.push({ name: DB_CA_VOLUME, mountPath: '/etc/tls/db', readOnly: true });
    volumes.push({ name: DB_CA_VOLUME, secret: { secretName: dbCaName(parent), defaultMode: 0o644 } });
  }
  const containers: V1Container[] = [
    {
      name: COMPONENT,
      image: opts.image,
      ports: [
        { name: 'http', containerPort: HTTP_PORT, protocol: 'TCP' },
        ...(opts.internalCert ? [{ name: 'https', containerPort: HTTPS_PORT, protocol: 'TCP' }] : []),
      ],
      env: envFor(spec, opts.dbCa),
      readinessProbe: { httpGet: { path: '/q/health/ready', port: HTTP_PORT }, initialDelaySeconds: 10, periodSeconds: 5, timeoutSeconds: 2 },
      livenessProbe: { httpGet: { path: '/q/health/live', port: HTTP_PORT }, initialDelaySeconds: 10, periodSeconds: 5, timeoutSeconds: 2 },
      resources: spec.resources,
      securityContext: restrictedContainer(),
      ...(mounts.length > 0 ? { volumeMounts: mounts } : {}),
    },
  ];
  if (opts.proxy) {
    containers.push(proxyContainer(parent, opts.proxy.image));
    volumes.push(
      { name: tlsCertVolume(parent), secret: { secretName: tlsCertName(parent), defaultMode: 0o644 } },
      { name: PROXY_CONFIG_VOLUME, configMap: { name: proxyConfigName(parent), defaultMode: 0o644 } },
    );
  }
  return {
    ...(opts.proxy ? { serviceAccountName: proxyServiceAccountName(parent) } : {}),
    securityContext: restrictedPod(undefined, opts.setFsGroup && usesClaim(spec) ? { fsGroup: 1001, fsGroupChangePolicy: 'OnRootMismatch' } : {}),
    containers,
    ...(volumes.length > 0 ? { volumes } : {}),
  };
}

/** The kube-rbac-proxy container of deployment.tmpl.yaml@11c335b, field for field. */
function proxyContainer(parent: Parent<TrustyAISpec>, image: string): V1Container {
  const probe = (initialDelaySeconds: number, periodSeconds: number) => ({
    httpGet: { path: '/healthz', port: 9443, scheme: 'HTTPS' },
    initialDelaySeconds,
    periodSeconds,
    timeoutSeconds: 1,
    successThreshold: 1,
    failureThreshold: 3,
  });
  return {
    name: 'kube-rbac-proxy',
    image,
    args: [
      `--secure-listen-address=0.0.0.0:${PROXY_PORT}`,
      `--upstream=http://127.0.0.1:${PROXY_UPSTREAM_PORT}/`,
      '--config-file=/etc/kube-rbac-proxy/config.yaml',
      '--tls-cert-file=/etc/tls/private/tls.crt',
      '--tls-private-key-file=/etc/tls/private/tls.key',
      '--proxy-endpoints-port=9443',
      '--v=0',
    ],
    ports: [
      { containerPort: PROXY_PORT, name: 'https', protocol: 'TCP' },
      { containerPort: 9443, name: 'proxy-healthz', protocol: 'TCP' },
    ],
    readinessProbe: probe(5, 5),
    livenessProbe: probe(30, 10),
    resources: { limits: { cpu: '100m', memory: '64Mi' }, requests: { cpu: '50m', memory: '32Mi' } },
    securityContext: restrictedContainer(),
    volumeMounts: [
      { name: tlsCertVolume(parent), mountPath: '/etc/tls/private', readOnly: true },
      { name: PROXY_CONFIG_VOLUME, mountPath: '/etc/kube-rbac-proxy', readOnly: true },
    ],
  };
}

/** The service's variables in the template's order (deployment.tmpl.yaml@11c335b). */
export function envFor(spec: TrustyAISpec, dbCa: boolean): V1EnvVar[] {
  const metrics = metricsOf(spec);
  const env: V1EnvVar[] = [{ name: 'SERVICE_STORAGE_FORMAT', value: spec.storage.format }];
  const file = (): V1EnvVar[] => (spec.data?.filename ? [{ name: 'STORAGE_DATA_FILENAME', value: spec.data.filename }] : []);
  const format = (): V1EnvVar[] => (spec.data?.format ? [{ name: 'SERVICE_DATA_FORMAT', value: spec.data.format }] : []);
  if (spec.storage.format === 'PVC') {
    env.push(...file(), { name: 'STORAGE_DATA_FOLDER', value: folderOf(spec) }, ...format(), { name: 'QUARKUS_HIBERNATE_ORM_ACTIVE', value: 'false' });
  }
  if (isMigration(spec)) env.push(...file(), { name: 'STORAGE_DATA_FOLDER', value: folderOf(spec) }, ...format());
  const secret = spec.storage.databaseConfigurations;
  if (spec.storage.format === 'DATABASE' && secret) {
    const ref = (name: string, key: string): V1EnvVar => ({ name, valueFrom: { secretKeyRef: { name: secret, key } } });
    const [kind, user, password, service, port, database, generation] = DATABASE_KEYS.map(([name, key]) => ref(name, key)) as V1EnvVar[];
    env.push(
      { name: 'QUARKUS_HIBERNATE_ORM_ACTIVE', value: 'true' },
      kind as V1EnvVar,
      { name: 'QUARKUS_DATASOURCE_JDBC_MAX_SIZE', value: JDBC_MAX_SIZE },
      user as V1EnvVar,
      password as V1EnvVar,
      service as V1EnvVar,
      port as V1EnvVar,
      database as V1EnvVar,
      { name: 'QUARKUS_DATASOURCE_JDBC_URL', value: dbCa ? JDBC_URL + JDBC_TLS : JDBC_URL },
      { name: 'SERVICE_DATA_FORMAT', value: 'HIBERNATE' },
      generation as V1EnvVar,
    );
  }
  env.push({ name: 'SERVICE_METRICS_SCHEDULE', value: metrics.schedule }, { name: 'SERVICE_BATCH_SIZE', value: String(metrics.batchSize) });
  if (isMigration(spec)) {
    env.push(
      { name: 'STORAGE_MIGRATION_CONFIG_FROM_FOLDER', value: folderOf(spec) },
      { name: 'STORAGE_MIGRATION_CONFIG_FROM_FILENAME', value: spec.data?.filename ?? '' },
    );
  }
  return env;
}
