import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { converge, runSync } from '../../hooks/testing/index.js';
import { expectValid } from '../support/validate.js';

// Behaviour a real cluster exposed (review against KServe, and the run with real Metacontroller).
const config = defaultHookConfig();
const isvc = (spec: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'demo', namespace: 'ml', generation: 1, ...meta },
  spec,
});
const podOf = (d: KubeObject | undefined): any => (d?.spec as any).template.spec;
const sklearn = { predictor: { sklearn: { storageUri: 's3://bucket/model' } } };

describe('storage credentials', () => {
  const secret = (keys: string[]) =>
    ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'creds', namespace: 'ml' },
      data: Object.fromEntries(keys.map((k) => [k, 'c2VjcmV0'])),
    }) as KubeObject;
  const annotated = isvc(sklearn, { annotations: { 'serving.kserve.io/storageSecretName': 'creds' } });
  const sa = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'ml' } } as KubeObject;
  const initEnv = (related: KubeObject[]) =>
    podOf(runSync(inferenceservice, { parent: annotated, config, related: [sa, ...related] }).child('Deployment', 'demo-predictor')).initContainers[0].env;

  it.each([
    { reason: "KServe's default key names", keys: ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] },
    { reason: 'the camelCase names of older installs', keys: ['awsAccessKeyID', 'awsSecretAccessKey'] },
  ])('S3 keys by $reason are referenced, never copied', ({ keys }) => {
    const env = initEnv([secret(keys)]);
    expect(env).toContainEqual({ name: 'AWS_ACCESS_KEY_ID', valueFrom: { secretKeyRef: { name: 'creds', key: keys[0] } } });
    expect(env).toContainEqual({ name: 'AWS_SECRET_ACCESS_KEY', valueFrom: { secretKeyRef: { name: 'creds', key: keys[1] } } });
    expect(JSON.stringify(env)).not.toContain('c2VjcmV0');
  });
});

describe('autoscaling', () => {
  it.each(['external', 'kpa', 'keda'])('autoscalerClass %s leaves the replicas to that autoscaler (no HPA, no replicas)', (cls) => {
    const out = runSync(inferenceservice, {
      parent: isvc({ predictor: { minReplicas: 2, sklearn: { storageUri: 'gs://b/m' } } }, { annotations: { 'serving.kserve.io/autoscalerClass': cls } }),
      config,
    });
    expect(out.childrenOf('HorizontalPodAutoscaler')).toEqual([]);
    expect(out.child('Deployment', 'demo-predictor')?.spec).not.toHaveProperty('replicas');
  });
  it('autoscalerClass none pins minReplicas', () => {
    const out = runSync(inferenceservice, {
      parent: isvc({ predictor: { minReplicas: 2, sklearn: { storageUri: 'gs://b/m' } } }, { annotations: { 'serving.kserve.io/autoscalerClass': 'none' } }),
      config,
    });
    expect(out.child('Deployment', 'demo-predictor')?.spec).toMatchObject({ replicas: 2 });
  });
});

describe('containers', () => {
  it('a sidecar beside the model is kept as written: no port, no probes, no resources, no security field (KServe defaults only the first container: predictor_custom.go Default; deployment_reconciler.go setDefaultPodSpec adds IfNotPresent)', () => {
    const parent = isvc({ predictor: { sklearn: { storageUri: 'gs://b/m' }, containers: [{ name: 'fluent-bit', image: 'fluent/fluent-bit:3' }] } });
    const out = runSync(inferenceservice, { parent, config });
    const sidecar = podOf(out.child('Deployment', 'demo-predictor')).containers.find((c: { name: string }) => c.name === 'fluent-bit');
    expect(sidecar).toBeDefined();
    expect(sidecar.ports).toBeUndefined();
    expect(sidecar.readinessProbe).toBeUndefined();
    expect(sidecar.livenessProbe).toBeUndefined();
    expect(sidecar.resources).toBeUndefined();
    expect(sidecar.securityContext).toBeUndefined();
    expect(sidecar).toEqual({
      name: 'fluent-bit',
      image: 'fluent/fluent-bit:3',
      imagePullPolicy: 'IfNotPresent',
      env: [{ name: 'INFERENCE_SERVICE_NAME', value: 'demo' }],
    });
    for (const child of out.children) expectValid(child);
  });
  it('a model that loads for an hour is never restarted: no liveness or startup probe KServe does not set (deployment_reconciler.go setDefaultPodSpec)', () => {
    for (const parent of [isvc(sklearn), isvc({ ...sklearn, transformer: { containers: [{ image: 'me/t:1' }] } })]) {
      const out = runSync(inferenceservice, { parent, config });
      for (const d of out.children.filter((c) => c.kind === 'Deployment')) {
        for (const c of podOf(d).containers) {
          expect(c.livenessProbe, `${d.metadata.name} ${c.name}`).toBeUndefined();
          expect(c.startupProbe, `${d.metadata.name} ${c.name}`).toBeUndefined();
        }
      }
    }
  });
  it('an explainer gets --model_name, --predictor_host and --http_port as in KServe', () => {
    const parent = isvc({ ...sklearn, explainer: { containers: [{ name: 'kserve-container', image: 'me/explainer:1', args: ['AnchorTabular'] }] } });
    const args = podOf(runSync(inferenceservice, { parent, config }).child('Deployment', 'demo-explainer')).containers[0].args;
    expect(args).toEqual(['AnchorTabular', '--model_name', 'demo', '--predictor_host', 'demo-predictor.ml', '--http_port', '8080']);
  });
  it('TorchServe is probed on its port: it names models after their archive, not the InferenceService', () => {
    const parent = isvc({ predictor: { pytorch: { storageUri: 'gs://b/m' } } });
    const server = podOf(runSync(inferenceservice, { parent, config }).child('Deployment', 'demo-predictor')).containers[0];
    expect(server.readinessProbe.tcpSocket).toEqual({ port: 8080 });
  });
});

describe('exposure', () => {
  it('a domain template that makes the host invalid keeps the live Ingress, and says why', () => {
    // Converged: the Ingress is made once the predictor is ready (kube_ingress_reconciler.go createRawIngress).
    const first = converge(inferenceservice, { parent: isvc(sklearn), config }).result;
    const ingress = first.child('Ingress', 'demo');
    expect(ingress).toBeDefined();
    const isvcConfig = config.inferenceservice;
    const broken = { ...config, inferenceservice: { ...isvcConfig, ingress: { ...isvcConfig.ingress, domain: 'bad_domain' } } };
    const out = runSync(inferenceservice, { parent: isvc(sklearn), config: broken, observed: first.children });
    expect(out.condition('IngressReady')).toMatchObject({ status: 'False', reason: 'InvalidHost' });
    expect(out.child('Ingress', 'demo')).toEqual(ingress);
  });

  it('with a transformer in front, no split is possible: the new spec rolls out in place and no traffic list is claimed', () => {
    const v1 = { transformer: { containers: [{ name: 'kserve-container', image: 't:1' }] }, predictor: { sklearn: { storageUri: 'gs://b/v1' } } };
    const first = runSync(inferenceservice, { parent: isvc(v1), config, variant: 'gateway-api' });
    const v2 = { ...v1, predictor: { canaryTrafficPercent: 20, sklearn: { storageUri: 'gs://b/v2' } } };
    const out = runSync(inferenceservice, { parent: isvc(v2), config, variant: 'gateway-api', observed: first.children });
    expect(out.child('Deployment', 'demo-predictor-canary')).toBeUndefined();
    expect(out.condition('CanaryTrafficSplit')).toMatchObject({ status: 'False', reason: 'RolledOutInPlace' });
    expect(out.condition('CanaryTrafficSplit')?.message).toContain('the transformer calls demo-predictor directly');
    expect((out.status.components as any).predictor.traffic).toBeUndefined();
  });
});
