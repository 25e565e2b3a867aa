/**
 * The operator's objects, field by field, for its sample in PVC and DATABASE mode on plain
 * Kubernetes and OpenShift (the golden cases operator-sample-*). Each row cites the upstream
 * file of trustyai-service-operator at 11c335b (HEAD; v1.38.0, the newest tag, still ran
 * oauth-proxy) under controllers/tas/ unless the path says otherwise.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../hooks/kit/index.js';
import { runSync } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';
import { goldenCases } from '../support/golden.js';

const N = 'trustyaiservice-sample';
const NS = 'fairness';
const SELECTOR = {
  app: N,
  'app.kubernetes.io/instance': N,
  'app.kubernetes.io/name': N,
  'app.kubernetes.io/part-of': 'trustyai',
  'app.kubernetes.io/version': '1.39.0',
};
const cases = Object.fromEntries(
  goldenCases('trustyai')
    .filter((c) => c.name.startsWith('operator-sample-'))
    .map((c) => [c.name, runSync(trustyai, c.options)]),
);
type Mode = 'pvc' | 'database';
type Where = 'all' | 'openshift';

/** A field of a child: a dotted path where `name=x` picks the list element of that name. */
function field(obj: unknown, path: string): unknown {
  let at: unknown = obj;
  for (const step of path.split('.')) {
    if (at === undefined || at === null) return undefined;
    const pick = /^(\w+)\[(\w+)=([^\]]+)\]$/.exec(step);
    if (pick) {
      const [, key, k, v] = pick as unknown as [string, string, string, string];
      at = ((at as Record<string, unknown>)[key] as Array<Record<string, unknown>> | undefined)?.find((e) => String(e[k]) === v);
    } else at = (at as Record<string, unknown>)[step];
  }
  return at;
}

interface Row {
  kind: string;
  name: string;
  path: string;
  value: unknown;
  source: string;
  modes?: Mode[];
  where?: Where;
}

const C = 'spec.template.spec.containers[name=trustyai-service]';
const P = 'spec.template.spec.containers[name=kube-rbac-proxy]';
const env = (name: string) => `${C}.env[name=${name}]`;
const secretRef = (key: string) => ({ secretKeyRef: { name: `${N}-db-credentials`, key } });
const TEMPLATE = 'templates/service/deployment.tmpl.yaml';
const ROWS: Row[] = [
  {
    kind: 'Deployment',
    name: N,
    path: 'spec.selector.matchLabels',
    value: SELECTOR,
    source: `${TEMPLATE} spec.selector (version: controllers/constants/version.go)`,
  },
  {
    kind: 'Deployment',
    name: N,
    path: 'spec.strategy',
    value: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    source: `${TEMPLATE} spec.strategy`,
  },
  { kind: 'Deployment', name: N, path: 'spec.replicas', value: 1, source: 'config/samples/trustyai_v1_trustyaiservice.yaml replicas (the template fixes 1)' },
  {
    kind: 'Deployment',
    name: N,
    path: 'spec.template.metadata.annotations',
    value: { 'prometheus.io/path': '/q/metrics', 'prometheus.io/scheme': 'http', 'prometheus.io/scrape': 'true' },
    source: `${TEMPLATE} template annotations`,
  },
  { kind: 'Deployment', name: N, path: `${C}.image`, value: 'quay.io/trustyai/trustyai-service:latest', source: 'config/base/params.env trustyaiServiceImage' },
  {
    kind: 'Deployment',
    name: N,
    path: `${C}.readinessProbe`,
    value: { httpGet: { path: '/q/health/ready', port: 8080 }, initialDelaySeconds: 10, periodSeconds: 5, timeoutSeconds: 2 },
    source: `${TEMPLATE} readinessProbe`,
  },
  {
    kind: 'Deployment',
    name: N,
    path: `${C}.livenessProbe`,
    value: { httpGet: { path: '/q/health/live', port: 8080 }, initialDelaySeconds: 10, periodSeconds: 5, timeoutSeconds: 2 },
    source: `${TEMPLATE} livenessProbe`,
  },
  {
    kind: 'Deployment',
    name: N,
    path: env('SERVICE_STORAGE_FORMAT'),
    value: { name: 'SERVICE_STORAGE_FORMAT', value: 'PVC' },
    source: TEMPLATE,
    modes: ['pvc'],
  },
  {
    kind: 'Deployment',
    name: N,
    path: env('STORAGE_DATA_FILENAME'),
    value: { name: 'STORAGE_DATA_FILENAME', value: 'data.csv' },
    source: TEMPLATE,
    modes: ['pvc'],
  },
  { kind: 'Deployment', name: N, path: env('STORAGE_DATA_FOLDER'), value: { name: 'STORAGE_DATA_FOLDER', value: '/inputs' }, source: TEMPLATE, modes: ['pvc'] },
  { kind: 'Deployment', name: N, path: env('SERVICE_DATA_FORMAT'), value: { name: 'SERVICE_DATA_FORMAT', value: 'CSV' }, source: TEMPLATE, modes: ['pvc'] },
  {
    kind: 'Deployment',
    name: N,
    path: env('QUARKUS_HIBERNATE_ORM_ACTIVE'),
    value: { name: 'QUARKUS_HIBERNATE_ORM_ACTIVE', value: 'false' },
    source: TEMPLATE,
    modes: ['pvc'],
  },
  {
    kind: 'Deployment',
    name: N,
    path: `${C}.volumeMounts[name=volume]`,
    value: { name: 'volume', mountPath: '/inputs' },
    source: `${TEMPLATE} volumeMounts`,
    modes: ['pvc'],
  },
  {
    kind: 'Deployment',
    name: N,
    path: 'spec.template.spec.volumes[name=volume]',
    value: { name: 'volume', persistentVolumeClaim: { claimName: `${N}-pvc` } },
    source: `${TEMPLATE} volumes; storage.go generatePVCName`,
    modes: ['pvc'],
  },
  {
    kind: 'Deployment',
    name: N,
    path: env('SERVICE_STORAGE_FORMAT'),
    value: { name: 'SERVICE_STORAGE_FORMAT', value: 'DATABASE' },
    source: TEMPLATE,
    modes: ['database'],
  },
  {
    kind: 'Deployment',
    name: N,
    path: env('QUARKUS_HIBERNATE_ORM_ACTIVE'),
    value: { name: 'QUARKUS_HIBERNATE_ORM_ACTIVE', value: 'true' },
    source: TEMPLATE,
    modes: ['database'],
  },
  {
    kind: 'Deployment',
    name: N,
    path: env('QUARKUS_DATASOURCE_JDBC_MAX_SIZE'),
    value: { name: 'QUARKUS_DATASOURCE_JDBC_MAX_SIZE', value: '16' },
    source: TEMPLATE,
    modes: ['database'],
  },
  {
    kind: 'Deployment',
    name: N,
    path: env('SERVICE_DATA_FORMAT'),
    value: { name: 'SERVICE_DATA_FORMAT', value: 'HIBERNATE' },
    source: TEMPLATE,
    modes: ['database'],
  },
  {
    kind: 'Deployment',
    name: N,
    path: env('QUARKUS_DATASOURCE_GENERATION'),
    value: { name: 'QUARKUS_DATASOURCE_GENERATION', valueFrom: secretRef('databaseGeneration') },
    source: TEMPLATE,
    modes: ['database'],
  },
  {
    kind: 'Deployment',
    name: N,
    path: env('QUARKUS_DATASOURCE_DB_KIND'),
    value: { name: 'QUARKUS_DATASOURCE_DB_KIND', valueFrom: secretRef('databaseKind') },
    source: TEMPLATE,
    modes: ['database'],
  },
  {
    kind: 'Deployment',
    name: N,
    path: env('QUARKUS_DATASOURCE_PASSWORD'),
    value: { name: 'QUARKUS_DATASOURCE_PASSWORD', valueFrom: secretRef('databasePassword') },
    source: TEMPLATE,
    modes: ['database'],
  },
  { kind: 'Deployment', name: N, path: env('SERVICE_METRICS_SCHEDULE'), value: { name: 'SERVICE_METRICS_SCHEDULE', value: '5s' }, source: TEMPLATE },
  {
    kind: 'Deployment',
    name: N,
    path: env('SERVICE_BATCH_SIZE'),
    value: { name: 'SERVICE_BATCH_SIZE', value: '5000' },
    source: `${TEMPLATE}; deployment.go defaultBatchSize`,
  },
  {
    kind: 'Deployment',
    name: N,
    path: `${C}.volumeMounts[name=${N}-internal]`,
    value: { name: `${N}-internal`, mountPath: '/etc/tls/internal', readOnly: false },
    source: `${TEMPLATE} volumeMounts`,
    where: 'openshift',
  },
  {
    kind: 'Deployment',
    name: N,
    path: `spec.template.spec.volumes[name=${N}-internal]`,
    value: { name: `${N}-internal`, secret: { secretName: `${N}-internal`, defaultMode: 420 } },
    source: `${TEMPLATE} volumes`,
    where: 'openshift',
  },
  {
    kind: 'Deployment',
    name: N,
    path: 'spec.template.spec.serviceAccountName',
    value: `${N}-proxy`,
    source: `${TEMPLATE}; service_accounts.go generateServiceAccountName`,
    where: 'openshift',
  },
  {
    kind: 'Deployment',
    name: N,
    path: `${P}.args`,
    value: [
      '--secure-listen-address=0.0.0.0:8443',
      '--upstream=http://127.0.0.1:8081/',
      '--config-file=/etc/kube-rbac-proxy/config.yaml',
      '--tls-cert-file=/etc/tls/private/tls.crt',
      '--tls-private-key-file=/etc/tls/private/tls.key',
      '--proxy-endpoints-port=9443',
      '--v=0',
    ],
    source: `${TEMPLATE} kube-rbac-proxy args`,
    where: 'openshift',
  },
  {
    kind: 'Deployment',
    name: N,
    path: `${P}.image`,
    value: 'quay.io/opendatahub/odh-kube-rbac-proxy:odh-stable',
    source: 'config/base/params.env kube-rbac-proxy',
    where: 'openshift',
  },
  {
    kind: 'Deployment',
    name: N,
    path: `${P}.resources`,
    value: { limits: { cpu: '100m', memory: '64Mi' }, requests: { cpu: '50m', memory: '32Mi' } },
    source: `${TEMPLATE} kube-rbac-proxy resources`,
    where: 'openshift',
  },
  {
    kind: 'Deployment',
    name: N,
    path: `spec.template.spec.volumes[name=${N}-tls]`,
    value: { name: `${N}-tls`, secret: { secretName: `${N}-tls`, defaultMode: 420 } },
    source: `${TEMPLATE} volumes`,
    where: 'openshift',
  },
  {
    kind: 'Deployment',
    name: N,
    path: 'spec.template.spec.volumes[name=kube-rbac-proxy-config]',
    value: { name: 'kube-rbac-proxy-config', configMap: { name: `${N}-kube-rbac-proxy-config`, defaultMode: 420 } },
    source: `${TEMPLATE} volumes`,
    where: 'openshift',
  },
  { kind: 'Service', name: N, path: 'spec.selector', value: SELECTOR, source: 'templates/service/service-internal.tmpl.yaml selector' },
  {
    kind: 'Service',
    name: N,
    path: 'spec.ports',
    value: [
      { name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 },
      { name: 'https', protocol: 'TCP', port: 443, targetPort: 4443 },
    ],
    source: 'templates/service/service-internal.tmpl.yaml ports',
  },
  {
    kind: 'Service',
    name: N,
    path: 'metadata.annotations',
    value: {
      'prometheus.io/path': '/q/metrics',
      'prometheus.io/scheme': 'http',
      'prometheus.io/scrape': 'true',
      'service.beta.openshift.io/serving-cert-secret-name': `${N}-internal`,
    },
    source: 'templates/service/service-internal.tmpl.yaml annotations',
    where: 'openshift',
  },
  {
    kind: 'Service',
    name: `${N}-tls`,
    path: 'spec',
    value: { selector: { app: N }, ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 8443 }] },
    source: 'templates/service/service-tls.tmpl.yaml spec',
    where: 'openshift',
  },
  {
    kind: 'Service',
    name: `${N}-tls`,
    path: 'metadata.annotations',
    value: { 'service.beta.openshift.io/serving-cert-secret-name': `${N}-tls` },
    source: 'templates/service/service-tls.tmpl.yaml annotations',
    where: 'openshift',
  },
  {
    kind: 'Route',
    name: N,
    path: 'spec',
    value: {
      to: { kind: 'Service', name: `${N}-tls`, weight: 100 },
      port: { targetPort: 'https' },
      tls: { termination: 'reencrypt', insecureEdgeTerminationPolicy: 'Redirect' },
    },
    source: 'templates/service/route.tmpl.yaml; route.go ServiceName, constants.go KubeRBACProxyServicePortName',
    where: 'openshift',
  },
  { kind: 'ServiceAccount', name: `${N}-proxy`, path: 'metadata.name', value: `${N}-proxy`, source: 'service_accounts.go', where: 'openshift' },
  {
    kind: 'ServiceMonitor',
    name: N,
    path: 'spec',
    value: {
      endpoints: [
        {
          bearerTokenSecret: { key: '' },
          honorLabels: true,
          interval: '4s',
          metricRelabelings: [{ action: 'keep', regex: 'trustyai_.*', sourceLabels: ['__name__'] }],
          params: { 'match[]': ['{__name__= "trustyai_spd"}', '{__name__= "trustyai_dir"}'] },
          path: '/q/metrics',
          port: 'http',
          scheme: 'http',
        },
      ],
      namespaceSelector: { matchNames: [NS] },
      selector: { matchLabels: { 'app.kubernetes.io/part-of': 'trustyai' } },
    },
    source: 'templates/service/service-monitor-local.tmpl.yaml spec; monitor.go (name: the instance)',
  },
  {
    kind: 'ServiceMonitor',
    name: N,
    path: 'metadata.labels.modelmesh-service',
    value: 'modelmesh-serving',
    source: 'templates/service/service-monitor-local.tmpl.yaml labels',
  },
  {
    kind: 'PersistentVolumeClaim',
    name: `${N}-pvc`,
    path: 'spec',
    value: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    source: 'storage.go createPVC',
    modes: ['pvc'],
  },
];

describe("the operator's objects for its sample", () => {
  it('has the four sample cases (PVC, DATABASE; default, OpenShift)', () => expect(Object.keys(cases).sort()).toHaveLength(4));
  for (const [name, result] of Object.entries(cases)) {
    const mode: Mode = name.includes('database') ? 'database' : 'pvc';
    const where: Where = name.endsWith('openshift') ? 'openshift' : 'all';
    describe(name, () => {
      for (const row of ROWS.filter((r) => (!r.modes || r.modes.includes(mode)) && (r.where !== 'openshift' || where === 'openshift'))) {
        it(`${row.kind}/${row.name} ${row.path} (${row.source})`, () => {
          const child = result.child(row.kind, row.name) as KubeObject | undefined;
          expect(child, `${row.kind}/${row.name}`).toBeDefined();
          expect(field(child, row.path)).toEqual(row.value);
        });
      }
    });
  }
  it('DATABASE mode without <n>-db-ca: the plain JDBC URL, no CA volume; with it: verify-ca and the CA at /etc/tls/db (deployment.go UseDBTLSCerts)', () => {
    const plain = cases['operator-sample-database']?.child('Deployment', N);
    const tls = cases['operator-sample-database-openshift']?.child('Deployment', N);
    const url = '${QUARKUS_DATASOURCE_DB_KIND}://${DATABASE_SERVICE}:${DATABASE_PORT}/${DATABASE_NAME}';
    expect(field(plain, `${env('QUARKUS_DATASOURCE_JDBC_URL')}.value`)).toBe(`jdbc:${url}`);
    expect(field(plain, 'spec.template.spec.volumes[name=db-ca-cert]')).toBeUndefined();
    expect(field(tls, `${env('QUARKUS_DATASOURCE_JDBC_URL')}.value`)).toBe(`jdbc:${url}?requireSSL=true&sslMode=verify-ca&serverSslCert=/etc/tls/db/ca.crt`);
    expect(field(tls, 'spec.template.spec.volumes[name=db-ca-cert]')).toEqual({ name: 'db-ca-cert', secret: { secretName: `${N}-db-ca`, defaultMode: 420 } });
    expect(field(tls, `${C}.volumeMounts[name=db-ca-cert]`)).toEqual({ name: 'db-ca-cert', mountPath: '/etc/tls/db', readOnly: true });
  });
  it('never an unauthenticated Route: on OpenShift it re-encrypts to kube-rbac-proxy, never to the service itself', () => {
    for (const [name, result] of Object.entries(cases)) {
      for (const route of result.childrenOf('Route')) {
        expect(field(route, 'spec.to.name'), name).toBe(`${N}-tls`);
        expect(field(result.child('Service', `${N}-tls`), 'spec.ports.0.targetPort'), name).toBe(8443);
        expect(field(result.child('Deployment', N), `${P}.ports[name=https].containerPort`), name).toBe(8443);
      }
    }
  });
});
