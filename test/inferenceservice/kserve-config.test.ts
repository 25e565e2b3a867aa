import { describe, expect, it } from 'vitest';
import { defaultHookConfig, loadConfig, type HookConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { converge, runCustomize, type ConvergeOptions } from '../../hooks/testing/index.js';

// Each sync converged: the Ingress, whose hosts these tests read, is made once the predictor is ready (kube_ingress_reconciler.go createRawIngress).
const runSync = (composition: typeof inferenceservice, options: ConvergeOptions<HookConfig>) => converge(composition, options).result;

/*
 * KServe's inferenceservice-config read as data from KServe's namespace. Keys and fields as
 * KServe v0.20.0 reads them: config/configmap/inferenceservice.yaml (the shipped values),
 * pkg/apis/serving/v1beta1/configmap.go (ExplainersConfig `explainers.art.image`/`defaultImageVersion`,
 * IngressConfig `ingressDomain`, `ingressClassName`, `domainTemplate`, `urlScheme`),
 * storage initializer `image` (pkg/webhook/admission/pod/storage_initializer_injector.go
 * StorageInitializerConfig), logger `defaultUrl` (agent_injector.go LoggerConfig).
 */

const config = defaultHookConfig();
const isvc = (namespace = 'ml'): KubeObject => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'demo', namespace, generation: 1 },
  spec: { predictor: { sklearn: { storageUri: 'gs://b/m' } }, explainer: { art: { type: 'SquareAttack' } } },
});
const configMap = (data: Record<string, string>, namespace = 'kserve', name = 'inferenceservice-config'): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data }) as KubeObject;
const SHIPPED = {
  explainers: JSON.stringify({ art: { image: 'mirror.local/art-explainer', defaultImageVersion: 'v0.20.0-m' } }),
  storageInitializer: JSON.stringify({ image: 'mirror.local/storage-initializer:v0.20.0', memoryRequest: '100Mi' }),
  ingress: JSON.stringify({
    ingressDomain: 'models.corp',
    ingressClassName: 'nginx',
    domainTemplate: '{{ .Name }}.{{ .Namespace }}.{{ .IngressDomain }}',
    urlScheme: 'https',
    enableGatewayApi: false,
  }),
  logger: JSON.stringify({ image: 'kserve/agent:latest', defaultUrl: 'http://broker.corp' }),
};
const hosts = (out: ReturnType<typeof runSync>) => (out.child('Ingress', 'demo') as any).spec.rules.map((r: any) => r.host);
const pod = (out: ReturnType<typeof runSync>, name: string): any => (out.child('Deployment', name) as any).spec.template.spec;

describe("KServe's inferenceservice-config, read from KServe's namespace", () => {
  it("customize asks for it by name in MODELHOOKS_KSERVE_NAMESPACE (default kserve), and for nothing else outside the parent's namespace", () => {
    const rules = runCustomize(inferenceservice, { parent: isvc(), config });
    expect(rules).toContainEqual({ apiVersion: 'v1', resource: 'configmaps', namespace: 'kserve', names: ['inferenceservice-config'] });
    expect(rules.filter((r) => r.namespace !== undefined && r.namespace !== 'ml')).toEqual([
      { apiVersion: 'v1', resource: 'configmaps', namespace: 'kserve', names: ['inferenceservice-config'] },
    ]);
    const platform = loadConfig({ MODELHOOKS_KSERVE_NAMESPACE: 'platform' }).hooks as HookConfig;
    expect(runCustomize(inferenceservice, { parent: isvc(), config: platform })).toContainEqual({
      apiVersion: 'v1',
      resource: 'configmaps',
      namespace: 'platform',
      names: ['inferenceservice-config'],
    });
  });

  it('honours explainers, storageInitializer.image, ingress and logger.defaultUrl over the MODELHOOKS_* settings', () => {
    const out = runSync(inferenceservice, { parent: isvc(), related: [configMap(SHIPPED)], config });
    expect(pod(out, 'demo-explainer').containers[0].image).toBe('mirror.local/art-explainer:v0.20.0-m');
    expect(pod(out, 'demo-predictor').initContainers[0].image).toBe('mirror.local/storage-initializer:v0.20.0');
    expect(hosts(out)).toContain('demo.ml.models.corp');
    expect((out.child('Ingress', 'demo') as any).spec.ingressClassName).toBe('nginx');
    expect(out.condition('KServeConfig')).toMatchObject({ status: 'True', reason: 'ConfigRead' });
    expect(out.condition('KServeConfig')?.message).toContain('ingress.urlScheme');
  });

  it('logger.defaultUrl reaches the agent of a logger without url', () => {
    const parent = { ...isvc(), spec: { predictor: { sklearn: { storageUri: 'gs://b/m' }, logger: { mode: 'all' } } } };
    const agent = pod(runSync(inferenceservice, { parent, related: [configMap(SHIPPED)], config }), 'demo-predictor').containers.find(
      (c: any) => c.name === 'agent',
    );
    expect(agent.args).toContain('http://broker.corp');
  });

  it.each<{ reason: string; data: Record<string, string>; names: string }>([
    { reason: 'a key that is not JSON', data: { ingress: '{ "ingressDomain": "models.corp", }' }, names: 'data.ingress: not JSON' },
    {
      reason: 'a field of the wrong kind',
      data: { ingress: JSON.stringify({ ingressDomain: 'models.corp', urlScheme: 'ftp' }) },
      names: 'data.ingress.urlScheme: "ftp" is not http or https',
    },
    { reason: 'a key that is JSON but not an object', data: { explainers: '["art"]' }, names: 'data.explainers: not a JSON object' },
    // Issue 32 item 1: what the API server stores, bounded before any hook reads it (kit/bounded.ts).
    {
      reason: 'a key of 0.95 MiB of nested brackets',
      data: { ingress: `${'['.repeat(5e5)}${']'.repeat(5e5)}` },
      names: 'data.ingress: 1000000 bytes, more than the 131072 modelhooks reads',
    },
    {
      reason: 'a key nested 5,000 deep',
      data: { ingress: `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}` },
      names: 'data.ingress: nested deeper than 100 levels (at .a[0][0][0][0][0][0][0][0][0][0][0]…)',
    },
  ])('$reason: KServeConfig False naming it, that setting from MODELHOOKS_*, the rest served', ({ data, names }) => {
    const out = runSync(inferenceservice, { parent: isvc(), related: [configMap(data)], config });
    expect(out.condition('KServeConfig')).toMatchObject({ status: 'False', reason: 'InvalidConfig' });
    expect(out.condition('KServeConfig')?.message).toContain(names);
    expect(out.child('Deployment', 'demo-predictor')).toBeDefined();
    expect(out.child('Deployment', 'demo-explainer')).toBeDefined();
  });

  it('a valid field beside an invalid one is still honoured', () => {
    const out = runSync(inferenceservice, {
      parent: isvc(),
      related: [configMap({ ingress: JSON.stringify({ ingressDomain: 'models.corp', urlScheme: 'ftp' }) })],
      config,
    });
    expect(hosts(out)).toContain('demo-ml.models.corp');
    expect(out.status.url ?? '').not.toContain('ftp');
  });

  it.each([
    { reason: 'in another namespace', cm: configMap(SHIPPED, 'elsewhere') },
    { reason: "in the parent's namespace (a tenant's)", cm: configMap(SHIPPED, 'ml') },
    { reason: 'under another name in kserve', cm: configMap(SHIPPED, 'kserve', 'other-config') },
  ])('a ConfigMap $reason is not read', ({ cm }) => {
    const out = runSync(inferenceservice, { parent: isvc(), related: [cm], config });
    expect(hosts(out)).toContain('demo-ml.example.com');
    expect(out.condition('KServeConfig')).toBeUndefined();
  });

  it("a Namespace's own modelhooks.dev/ingress-domain wins over the ConfigMap's", () => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ml', annotations: { 'modelhooks.dev/ingress-domain': 'team.corp' } } } as KubeObject;
    const out = runSync(inferenceservice, { parent: isvc(), related: [configMap(SHIPPED), ns], config });
    expect(hosts(out)).toContain('demo.ml.team.corp');
  });

  it('without the ConfigMap: the MODELHOOKS_* settings and no KServeConfig condition', () => {
    const out = runSync(inferenceservice, { parent: isvc(), config });
    expect(hosts(out)).toContain('demo-ml.example.com');
    expect(out.condition('KServeConfig')).toBeUndefined();
  });
});
