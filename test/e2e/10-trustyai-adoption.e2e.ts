import { beforeAll, describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import type { KubeObject as HookObject } from '../../hooks/kit/index.js';
import { runSync } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';
import { kube } from './support/context.js';
import { installCrds } from './support/install.js';
import { KubeError, type KubeObject } from './support/kube.js';

// Issue 13: a Deployment and Services the TrustyAI operator created are adopted by the hook
// in place — same names, the operator's selector kept (immutable in apps/v1), every update
// accepted by the real API server, nothing deleted. The objects are those the operator's
// templates render for its sample (controllers/tas/templates/service/deployment.tmpl.yaml and
// service-internal.tmpl.yaml @11c335b; PVC mode; the proxy container and its TLS volumes left
// out: adoption turns on the selector and names only). Both the current operator version and
// an older release's selector are adopted.
const NS = 'e2e-adopt';
const config = defaultHookConfig();

function operatorObjects(name: string, version: string, owner: Record<string, unknown>): KubeObject[] {
  const labels = {
    app: name,
    'app.kubernetes.io/instance': name,
    'app.kubernetes.io/name': name,
    'app.kubernetes.io/part-of': 'trustyai',
    'app.kubernetes.io/version': version,
  };
  const metadata = { name, namespace: NS, labels, ownerReferences: [owner] };
  return [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { ...metadata, annotations: { 'deployment.kubernetes.io/revision': '1' } },
      spec: {
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
        replicas: 1,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels, annotations: { 'prometheus.io/path': '/q/metrics', 'prometheus.io/scheme': 'http', 'prometheus.io/scrape': 'true' } },
          spec: {
            containers: [
              {
                name: 'trustyai-service',
                image: 'quay.io/trustyai/trustyai-service:latest',
                env: [
                  { name: 'SERVICE_STORAGE_FORMAT', value: 'PVC' },
                  { name: 'STORAGE_DATA_FILENAME', value: 'data.csv' },
                  { name: 'STORAGE_DATA_FOLDER', value: '/inputs' },
                  { name: 'SERVICE_DATA_FORMAT', value: 'CSV' },
                  { name: 'QUARKUS_HIBERNATE_ORM_ACTIVE', value: 'false' },
                  { name: 'SERVICE_METRICS_SCHEDULE', value: '5s' },
                  { name: 'SERVICE_BATCH_SIZE', value: '5000' },
                ],
                readinessProbe: { httpGet: { path: '/q/health/ready', port: 8080 }, initialDelaySeconds: 10, periodSeconds: 5, timeoutSeconds: 2 },
                livenessProbe: { httpGet: { path: '/q/health/live', port: 8080 }, initialDelaySeconds: 10, periodSeconds: 5, timeoutSeconds: 2 },
                volumeMounts: [{ name: 'volume', mountPath: '/inputs', readOnly: false }],
              },
            ],
            volumes: [{ name: 'volume', persistentVolumeClaim: { claimName: `${name}-pvc` } }],
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        ...metadata,
        annotations: {
          'prometheus.io/path': '/q/metrics',
          'prometheus.io/scheme': 'http',
          'prometheus.io/scrape': 'true',
          'service.beta.openshift.io/serving-cert-secret-name': `${name}-internal`,
        },
      },
      spec: {
        ports: [
          { name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 },
          { name: 'https', protocol: 'TCP', port: 443, targetPort: 4443 },
        ],
        type: 'ClusterIP',
        selector: labels,
      },
    },
  ];
}

/** An update as Metacontroller sends it for an existing child: the desired object over the live one's identity. */
async function update(k: ReturnType<typeof kube>, live: KubeObject, desired: HookObject): Promise<KubeObject> {
  const path = await k.objectPath(live, live.metadata.name);
  const metadata = { ...desired.metadata, resourceVersion: live.metadata.resourceVersion, ownerReferences: live.metadata.ownerReferences };
  return k.call('PUT', `${path}?fieldValidation=Strict`, { ...desired, metadata });
}

describe("the operator's Deployment and Services are adopted in place", () => {
  const k = kube();
  beforeAll(async () => {
    await installCrds(k);
    await k.ensureNamespace(NS);
  });

  it.each([
    { name: 'sample', version: '1.39.0' },
    { name: 'older', version: '1.38.0' },
  ])('$name (operator $version): same selector, updates accepted, same objects', async ({ name, version }) => {
    const parent = await k.apply({
      apiVersion: 'trustyai.opendatahub.io/v1',
      kind: 'TrustyAIService',
      metadata: { name, namespace: NS },
      spec: {
        storage: { format: 'PVC', folder: '/inputs', size: '1Gi' },
        data: { filename: 'data.csv', format: 'CSV' },
        metrics: { schedule: '5s', batchSize: 5000 },
        replicas: 1,
      },
    } as KubeObject);
    const owner = {
      apiVersion: 'trustyai.opendatahub.io/v1',
      kind: 'TrustyAIService',
      name,
      uid: parent.metadata.uid,
      controller: true,
      blockOwnerDeletion: true,
    };
    const created = [];
    for (const obj of operatorObjects(name, version, owner)) created.push(await k.create(obj));
    const [deployment, service] = created as [KubeObject, KubeObject];

    const out = runSync(trustyai, { parent: parent as unknown as HookObject, observed: created as unknown as HookObject[], config });
    const wanted = out.child('Deployment', name) as HookObject & { spec: { selector: unknown } };
    expect(wanted.spec.selector).toEqual((deployment.spec as { selector: unknown }).selector);
    expect(out.condition('DeploymentReady')?.reason).not.toBe('ImmutableField');

    const after = await update(k, deployment, wanted);
    expect(after.metadata.uid).toBe(deployment.metadata.uid);
    expect((after.spec as { selector: unknown }).selector).toEqual((deployment.spec as { selector: unknown }).selector);
    const svc = await update(k, service, out.child('Service', name) as HookObject);
    expect(svc.metadata.uid).toBe(service.metadata.uid);
    expect((svc.spec as { selector: unknown }).selector).toEqual((service.spec as { selector: unknown }).selector);

    // The teeth: the selector an earlier modelhooks used is refused by the same API server.
    const earlier = {
      ...wanted,
      spec: { ...wanted.spec, selector: { matchLabels: { 'app.kubernetes.io/instance': name, 'app.kubernetes.io/component': 'trustyai-service' } } },
    };
    const refused = await update(k, after, earlier as HookObject).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(KubeError);
    expect((refused as KubeError).message).toMatch(/field is immutable/);
  });
});
