import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { runSync } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';

/*
 * The payload logger's URL matches what the TrustyAI pod serves in each install variant.
 * Upstream: the operator (trustyai-service-operator v1.38.0) always mounts the service CA's
 * `<n>-internal` certificate (controllers/tas/templates/service/deployment.tmpl.yaml) and so
 * logs raw InferenceServices to https://<n>.<ns>.svc.cluster.local (controllers/utils/utils.go
 * GenerateHTTPSKServeLoggerURL; controllers/tas/inference_services.go patchKServe), its
 * Service mapping 443 → 4443 and 80 → 8080 (templates/service/service-internal.tmpl.yaml);
 * GenerateKServeLoggerURL is the http:// one. KServe's agent (kserve v0.20.0
 * pkg/logger/worker.go) posts to the URL as given, with TLS for https. Here the pod serves
 * 4443 only where a certificate is issued (openshift, cert-manager with an issuer): the
 * TrustyAIService's status.servesHttps says so and the InferenceService reads it.
 */
const NS = 'ml';
const tas: KubeObject = {
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  metadata: { name: 'trusty', namespace: NS, uid: 'uid-trusty', generation: 1 },
  spec: { storage: { format: 'PVC', folder: '/inputs', size: '1Gi' }, data: { filename: 'data.csv', format: 'CSV' }, metrics: { schedule: '5s' } },
} as KubeObject;
const isvc: KubeObject = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'demo', namespace: NS, uid: 'uid-demo', generation: 1 },
  spec: { predictor: { sklearn: { storageUri: 'pvc://models/iris' } } },
} as KubeObject;

type Port = { name?: string; port?: number; containerPort?: number; targetPort?: number };
const containerPorts = (out: ReturnType<typeof runSync>) =>
  (
    (out.child('Deployment', 'trusty')?.spec as { template: { spec: { containers: Array<{ name: string; ports?: Port[] }> } } }).template.spec.containers.find(
      (c) => c.name === 'trustyai-service',
    )?.ports ?? []
  ).map((p) => p.containerPort);
const servicePorts = (out: ReturnType<typeof runSync>) =>
  ((out.child('Service', 'trusty')?.spec as { ports: Port[] }).ports ?? []).map((p) => [p.port, p.targetPort]);
const logUrl = (tasStatus: Record<string, unknown>) => {
  const out = runSync(inferenceservice, { parent: isvc, related: [{ ...tas, status: tasStatus } as KubeObject], config: loadConfig({}).hooks });
  const containers = (out.child('Deployment', 'demo-predictor')?.spec as { template: { spec: { containers: Array<{ name: string; args?: string[] }> } } })
    .template.spec.containers;
  const args = containers.find((c) => c.name === 'agent')?.args ?? [];
  return args[args.indexOf('--log-url') + 1];
};

describe('the payload logger uses the scheme and port the TrustyAI pod serves, per install variant', () => {
  it.each([
    { variant: 'default', env: {}, https: false },
    { variant: 'prometheus', env: {}, https: false },
    { variant: 'cert-manager', env: {}, https: false, why: 'no issuer configured: no Certificate, plain HTTP only' },
    { variant: 'cert-manager', env: { MODELHOOKS_TRUSTYAI_CERT_ISSUER: 'ClusterIssuer/ca' }, https: true },
    { variant: 'openshift', env: {}, https: true },
  ])('$variant $env → https: $https', ({ variant, env, https }) => {
    const served = runSync(trustyai, { parent: tas, variant, config: loadConfig(env).hooks });
    expect(served.status.servesHttps).toBe(https);
    // What the pod serves: 8080 always, 4443 where it has a certificate; the Service maps 80 → 8080 and 443 → 4443.
    expect(containerPorts(served)).toEqual(https ? [8080, 4443] : [8080]);
    expect(servicePorts(served)).toEqual([
      [80, 8080],
      [443, 4443],
    ]);
    expect(logUrl(served.status)).toBe(https ? 'https://trusty.ml.svc.cluster.local' : 'http://trusty.ml.svc.cluster.local');
  });

  it('a TrustyAIService whose status has not said yet (its first sync pending): http, which every variant serves', () => {
    expect(logUrl({})).toBe('http://trusty.ml.svc.cluster.local');
    expect(logUrl({ servesHttps: 'true' })).toBe('http://trusty.ml.svc.cluster.local');
  });
});
