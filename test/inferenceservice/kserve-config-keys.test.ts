import { describe, expect, it } from 'vitest';
import { defaultHookConfig, loadConfig, type HookConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { runSyncSent as runSync } from '../support/credentials.js';

/*
 * Each inferenceservice-config field honoured, key by key, as KServe v0.20.0 reads and uses it
 * (the file cited in each row), in the fallback order: the ConfigMap's value, else the MODELHOOKS_*
 * variable where there is one, else KServe's shipped value (config/configmap/inferenceservice.yaml).
 * The whole table: docs/inferenceservice-config.md.
 */

type Out = ReturnType<typeof runSync>;
const configMap = (data: Record<string, unknown>): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'inferenceservice-config', namespace: 'kserve' },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, JSON.stringify(v)])),
  }) as KubeObject;
const parent = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'demo', namespace: 'ml', generation: 1 },
  spec,
});
const pod = (out: Out, role = 'predictor'): any => (out.child('Deployment', `demo-${role}`) as any).spec.template.spec;
const container = (out: Out, name: string): any => [...(pod(out).initContainers ?? []), ...pod(out).containers].find((c: any) => c.name === name);

const S3_SA = {
  spec: { predictor: { serviceAccountName: 'sa', sklearn: { storageUri: 's3://bucket/model' } } },
  related: [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa', namespace: 'ml' }, secrets: [{ name: 'c' }] },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'c', namespace: 'ml', annotations: { 'serving.kserve.io/s3-cabundle-configmap': 'my-ca' } },
      data: { AWS_ACCESS_KEY_ID: 'dg==', AWS_SECRET_ACCESS_KEY: 'dg==' },
    },
  ] as KubeObject[],
};
const SKLEARN = { predictor: { sklearn: { storageUri: 'gs://b/m' } } };
const LOGGED = { predictor: { sklearn: { storageUri: 'gs://b/m' }, logger: { mode: 'all', url: 'https://sink.corp' } } };
const MODELCAR = { predictor: { sklearn: { storageUri: 'oci://registry.corp/models/iris:1' } } };

interface Row {
  field: string;
  cite: string;
  spec?: Record<string, unknown>;
  related?: KubeObject[];
  data: Record<string, unknown>;
  read: (out: Out) => unknown;
  fromConfigMap: unknown;
  variable?: { env: Record<string, string>; want: unknown };
  kserveDefault: unknown;
}

const initResources = (out: Out) => container(out, 'storage-initializer').resources;
const agent = (out: Out) => container(out, 'agent');

const ROWS: Row[] = [
  {
    field: 'storageInitializer.memoryRequest, memoryLimit, cpuRequest, cpuLimit',
    cite: 'pkg/utils/storage.go CreateInitContainerWithConfig; pkg/types/config.go StorageInitializerConfig',
    spec: SKLEARN,
    data: { storageInitializer: { memoryRequest: '200Mi', memoryLimit: '2Gi', cpuRequest: '250m', cpuLimit: '2' } },
    read: initResources,
    fromConfigMap: { requests: { cpu: '250m', memory: '200Mi' }, limits: { cpu: '2', memory: '2Gi' } },
    kserveDefault: { requests: { cpu: '100m', memory: '100Mi' }, limits: { cpu: '1', memory: '1Gi' } },
  },
  {
    field: 'storageInitializer.caBundleVolumeMountPath',
    cite: 'pkg/webhook/admission/pod/storage_initializer_injector.go CommonStorageInitialization (needCaBundleMount; constants.DefaultCaBundleVolumeMountPath)',
    ...S3_SA,
    data: { storageInitializer: { caBundleVolumeMountPath: '/etc/pki/corp' } },
    read: (out) => container(out, 'storage-initializer').volumeMounts.find((m: any) => m.name === 'cabundle-cert')?.mountPath,
    fromConfigMap: '/etc/pki/corp',
    kserveDefault: '/etc/ssl/custom-certs',
  },
  {
    field: 'storageInitializer.cpuModelcar, memoryModelcar',
    cite: 'pkg/utils/storage.go CreateModelcarContainer, CreateModelcarInitContainer (constants.CpuModelcarDefault, MemoryModelcarDefault)',
    spec: MODELCAR,
    data: { storageInitializer: { cpuModelcar: '20m', memoryModelcar: '64Mi' } },
    read: (out) => [container(out, 'modelcar').resources, container(out, 'modelcar-init').resources],
    fromConfigMap: Array(2).fill({ limits: { cpu: '20m', memory: '64Mi' }, requests: { cpu: '20m', memory: '64Mi' } }),
    kserveDefault: Array(2).fill({ limits: { cpu: '10m', memory: '15Mi' }, requests: { cpu: '10m', memory: '15Mi' } }),
  },
  {
    field: 'storageInitializer.uidModelcar',
    cite: 'pkg/utils/storage.go CreateModelcarContainer, ConfigureModelcarToContainer (RunAsUser = UidModelcar)',
    spec: MODELCAR,
    data: { storageInitializer: { uidModelcar: 2000 } },
    read: (out) => [container(out, 'modelcar').securityContext.runAsUser, container(out, 'kserve-container').securityContext.runAsUser],
    fromConfigMap: [2000, 2000],
    kserveDefault: [1010, 1010],
  },
  {
    field: 'logger.caBundle',
    cite: 'pkg/webhook/admission/pod/agent_injector.go InjectAgent (LoggerCaBundleVolume from LoggerConfig.CaBundle)',
    spec: LOGGED,
    data: { logger: { caBundle: 'logger-ca' } },
    read: (out) => pod(out).volumes?.find((v: any) => v.name === 'agent-ca-bundle')?.configMap?.name,
    fromConfigMap: 'logger-ca',
    variable: { env: { MODELHOOKS_LOGGER_CA_BUNDLE: 'env-ca' }, want: 'env-ca' },
    kserveDefault: undefined,
  },
  {
    field: 'logger.caCertFile',
    cite: 'pkg/webhook/admission/pod/agent_injector.go InjectAgent (--logger-ca-cert-file when set)',
    spec: LOGGED,
    data: { logger: { caCertFile: 'corp.pem' } },
    read: (out) => {
      const a: string[] = agent(out).args;
      const i = a.indexOf('--logger-ca-cert-file');
      return i < 0 ? undefined : a[i + 1];
    },
    fromConfigMap: 'corp.pem',
    variable: { env: { MODELHOOKS_LOGGER_CA_CERT_FILE: 'env.pem' }, want: 'env.pem' },
    kserveDefault: undefined,
  },
  {
    field: 'logger.tlsSkipVerify',
    cite: 'pkg/webhook/admission/pod/agent_injector.go InjectAgent (--logger-tls-skip-verify FormatBool(TlsSkipVerify))',
    spec: LOGGED,
    data: { logger: { tlsSkipVerify: true } },
    read: (out) => {
      const a: string[] = agent(out).args;
      return a[a.indexOf('--logger-tls-skip-verify') + 1];
    },
    fromConfigMap: 'true',
    variable: { env: { MODELHOOKS_LOGGER_TLS_SKIP_VERIFY: 'true' }, want: 'true' },
    kserveDefault: 'false',
  },
  {
    field: 'agent.image',
    cite: 'pkg/webhook/admission/pod/agent_injector.go InjectAgent (Image: agentConfig.Image; logger.image and batcher.image are not used)',
    spec: LOGGED,
    data: { agent: { image: 'mirror.corp/agent:v0.20.0' }, logger: { image: 'not/used' } },
    read: (out) => agent(out).image,
    fromConfigMap: 'mirror.corp/agent:v0.20.0',
    variable: { env: { MODELHOOKS_IMAGE_AGENT: 'env.corp/agent:1' }, want: 'env.corp/agent:1' },
    kserveDefault: 'kserve/agent:v0.20.0',
  },
  {
    field: 'agent.memoryRequest, memoryLimit, cpuRequest, cpuLimit',
    cite: 'pkg/webhook/admission/pod/agent_injector.go InjectAgent (Resources from agentConfig), getAgentConfigs',
    spec: LOGGED,
    data: { agent: { memoryRequest: '64Mi', memoryLimit: '256Mi', cpuRequest: '50m', cpuLimit: '500m' } },
    read: (out) => agent(out).resources,
    fromConfigMap: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
    kserveDefault: { requests: { cpu: '100m', memory: '100Mi' }, limits: { cpu: '1', memory: '1Gi' } },
  },
  {
    field: 'inferenceService.resource',
    cite: 'pkg/apis/serving/v1beta1/inference_service_defaults.go setResourceRequirementDefaults (a custom container: predictor_custom.go Default); configmap.go ResourceConfig',
    spec: { predictor: { containers: [{ name: 'kserve-container', image: 'corp/server:1' }] } },
    data: { inferenceService: { resource: { cpuLimit: '4', memoryLimit: '8Gi', cpuRequest: '2', memoryRequest: '4Gi' } } },
    read: (out) => container(out, 'kserve-container').resources,
    fromConfigMap: { requests: { cpu: '2', memory: '4Gi' }, limits: { cpu: '4', memory: '8Gi' } },
    kserveDefault: { requests: { cpu: '1', memory: '2Gi' }, limits: { cpu: '1', memory: '2Gi' } },
  },
  {
    field: 'security.autoMountServiceAccountToken',
    cite: 'pkg/apis/serving/v1beta1/inference_service_defaults.go DefaultInferenceService, disableAutomountServiceAccountToken',
    spec: SKLEARN,
    data: { security: { autoMountServiceAccountToken: false } },
    read: (out) => pod(out).automountServiceAccountToken,
    fromConfigMap: false,
    kserveDefault: undefined,
  },
  {
    field: 'ingress.disableIngressCreation',
    cite: 'pkg/controller/v1beta1/inferenceservice/reconcilers/ingress/kube_ingress_reconciler.go Reconcile (no createRawIngress; createRawURL as ever)',
    data: { ingress: { disableIngressCreation: true } },
    // Nothing is Ready yet: KServe's Ingress waits for the predictor (IngressReady False, createRawIngress);
    // without an Ingress to wait for, the URL is there at once.
    read: (out) => ({ ingresses: out.childrenOf('Ingress').length, url: out.status.url, ingressReady: out.condition('IngressReady')?.status }),
    fromConfigMap: { ingresses: 0, url: 'http://demo-ml.example.com', ingressReady: 'True' },
    kserveDefault: { ingresses: 0, url: undefined, ingressReady: 'False' },
  },
  {
    field: 'deploy.deploymentRolloutStrategy',
    cite: 'pkg/controller/v1beta1/inferenceservice/reconcilers/deployment/deployment_reconciler.go createRawDefaultDeployment, applyRolloutStrategyFromConfigmap',
    data: { deploy: { defaultDeploymentMode: 'Standard', deploymentRolloutStrategy: { defaultRollout: { maxSurge: '1', maxUnavailable: '0%' } } } },
    read: (out) => (out.child('Deployment', 'demo-predictor') as any).spec.strategy,
    // KServe writes "1" as a string, which the API server refuses (apps validation: a string must be a percentage).
    fromConfigMap: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '0%' } },
    kserveDefault: undefined,
  },
  {
    field: 'service.serviceClusterIPNone',
    cite: 'pkg/controller/v1beta1/inferenceservice/reconcilers/service/service_reconciler.go createDefaultSvc (ClusterIP = ClusterIPNone); configmap.go ServiceConfig',
    spec: { ...SKLEARN, transformer: { containers: [{ name: 'kserve-container', image: 't:1' }] } },
    data: { service: { serviceClusterIPNone: true } },
    read: (out) => ['predictor', 'transformer'].map((role) => (out.child('Service', `demo-${role}`) as any).spec.clusterIP),
    fromConfigMap: ['None', 'None'],
    kserveDefault: [undefined, undefined],
  },
];

const withEnv = (env: Record<string, string>) => loadConfig(env).hooks as HookConfig;
const sync = (row: Row, config: HookConfig, withConfigMap: boolean) =>
  runSync(inferenceservice, {
    parent: parent(row.spec ?? SKLEARN),
    related: [...(row.related ?? []), ...(withConfigMap ? [configMap(row.data)] : [])],
    config,
  });

describe('inferenceservice-config, field by field: the ConfigMap, else MODELHOOKS_*, else KServe', () => {
  it.each(ROWS)('$field ($cite)', (row) => {
    const configured = sync(row, defaultHookConfig(), true);
    expect(row.read(configured)).toEqual(row.fromConfigMap);
    expect(configured.condition('KServeConfig')).toMatchObject({ status: 'True', reason: 'ConfigRead' });
    expect(row.read(sync(row, defaultHookConfig(), false))).toEqual(row.kserveDefault);
    if (row.variable) {
      expect(row.read(sync(row, withEnv(row.variable.env), false))).toEqual(row.variable.want);
      // The ConfigMap's value wins over the variable's.
      expect(row.read(sync(row, withEnv(row.variable.env), true))).toEqual(row.fromConfigMap);
    }
  });

  it("a ConfigMap without the key keeps KServe's shipped value", () => {
    for (const row of ROWS) {
      const out = runSync(inferenceservice, {
        parent: parent(row.spec ?? SKLEARN),
        related: [...(row.related ?? []), configMap({ ingress: { ingressDomain: 'models.corp' } })],
        config: defaultHookConfig(),
      });
      expect(row.read(out), row.field).toEqual(row.kserveDefault);
    }
  });

  it('inferenceService.resource: an entry left empty is no default (setResourceRequirementDefaults sets only what is set)', () => {
    const custom = { predictor: { containers: [{ name: 'kserve-container', image: 'corp/server:1' }] } };
    const out = runSync(inferenceservice, {
      parent: parent(custom),
      related: [configMap({ inferenceService: { resource: { cpuRequest: '2', memoryRequest: '', memoryLimit: '3Gi' } } })],
      config: defaultHookConfig(),
    });
    expect(container(out, 'kserve-container').resources).toEqual({ requests: { cpu: '2' }, limits: { memory: '3Gi' } });
  });

  it("inferenceService.resource is a default per entry: the container's own entries are kept, the others defaulted", () => {
    const spec = { predictor: { containers: [{ name: 'kserve-container', image: 'corp/server:1', resources: { limits: { cpu: '3' } } }] } };
    const out = runSync(inferenceservice, {
      parent: parent(spec),
      related: [configMap({ inferenceService: { resource: { cpuLimit: '4', memoryLimit: '8Gi', cpuRequest: '2', memoryRequest: '4Gi' } } })],
      config: defaultHookConfig(),
    });
    expect(container(out, 'kserve-container').resources).toEqual({ requests: { cpu: '2', memory: '4Gi' }, limits: { cpu: '3', memory: '8Gi' } });
  });

  it('security.autoMountServiceAccountToken false: a component that sets it keeps its own; every component gets it', () => {
    const spec = {
      predictor: { automountServiceAccountToken: true, sklearn: { storageUri: 'gs://b/m' } },
      transformer: { containers: [{ name: 'kserve-container', image: 't:1' }] },
    };
    const out = runSync(inferenceservice, {
      parent: parent(spec),
      related: [configMap({ security: { autoMountServiceAccountToken: false } })],
      config: defaultHookConfig(),
    });
    expect(pod(out).automountServiceAccountToken).toBe(true);
    expect(pod(out, 'transformer').automountServiceAccountToken).toBe(false);
  });

  it('service.serviceClusterIPNone: status.address is on port 8080 once the entry Service is headless (kube_ingress_reconciler.go createAddress)', () => {
    const related = [configMap({ service: { serviceClusterIPNone: true } })];
    const first = runSync(inferenceservice, { parent: parent(SKLEARN), related, config: defaultHookConfig() });
    expect(first.status.address).toEqual({ url: 'http://demo-predictor.ml.svc.cluster.local' });
    const observed = [first.child('Service', 'demo-predictor') as KubeObject];
    expect(runSync(inferenceservice, { parent: parent(SKLEARN), observed, related, config: defaultHookConfig() }).status.address).toEqual({
      url: 'http://demo-predictor.ml.svc.cluster.local:8080',
    });
  });

  it('service.serviceClusterIPNone: a Service that exists keeps its clusterIP, which cannot change (KServe compares only ports and selector)', () => {
    const service = (clusterIP: string): KubeObject =>
      ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'demo-predictor', namespace: 'ml' }, spec: { clusterIP } }) as KubeObject;
    const serve = (headless: boolean, observed: KubeObject[]) =>
      (
        runSync(inferenceservice, {
          parent: parent(SKLEARN),
          observed,
          related: [configMap({ service: { serviceClusterIPNone: headless } })],
          config: defaultHookConfig(),
        }).child('Service', 'demo-predictor') as any
      ).spec;
    expect(serve(true, [service('10.0.0.7')]).clusterIP).toBeUndefined();
    expect(serve(false, [service('None')]).clusterIP).toBe('None');
    expect(serve(true, [service('None')]).clusterIP).toBe('None');
    expect(serve(true, []).clusterIP).toBe('None');
  });

  it('ingress.disableIngressCreation: no HTTPRoute either, IngressReady True and the URL as with them (httproute_reconciler.go Reconcile)', () => {
    const out = runSync(inferenceservice, {
      parent: parent(SKLEARN),
      variant: 'gateway-api',
      related: [configMap({ ingress: { disableIngressCreation: true, urlScheme: 'https' } })],
      config: defaultHookConfig(),
    });
    expect(out.childrenOf('HTTPRoute')).toEqual([]);
    expect(out.condition('IngressReady')).toMatchObject({ status: 'True', reason: 'IngressCreationDisabled' });
    expect(out.status.url).toBe('https://demo-ml.example.com');
    const withRoutes = runSync(inferenceservice, { parent: parent(SKLEARN), variant: 'gateway-api', related: [], config: defaultHookConfig() });
    expect(withRoutes.childrenOf('HTTPRoute').length).toBeGreaterThan(0);
  });

  describe('deploy.deploymentRolloutStrategy, as applyRolloutStrategyFromConfigmap uses it', () => {
    const strategyWith = (deploy: Record<string, unknown>, spec: Record<string, unknown> = SKLEARN) => {
      const out = runSync(inferenceservice, { parent: parent(spec), related: [configMap({ deploy })], config: defaultHookConfig() });
      return { strategy: (out.child('Deployment', 'demo-predictor') as any).spec.strategy, condition: out.condition('KServeConfig') };
    };
    const rollout = { defaultRollout: { maxSurge: '50%', maxUnavailable: '' } };

    it("a value left empty is setDefaultDeploymentSpec's 25%", () => {
      expect(strategyWith({ defaultDeploymentMode: 'RawDeployment', deploymentRolloutStrategy: rollout }).strategy).toEqual({
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: '50%', maxUnavailable: '25%' },
      });
    });

    it('only where the cluster default mode is Standard (or RawDeployment): else unused, and not named as read', () => {
      for (const mode of ['Serverless', 'Knative', undefined]) {
        const got = strategyWith({ ...(mode ? { defaultDeploymentMode: mode } : {}), deploymentRolloutStrategy: rollout });
        expect(got.strategy, String(mode)).toBeUndefined();
        expect(got.condition?.message).not.toContain('deploy.deploymentRolloutStrategy');
      }
    });

    it("the component's own deploymentStrategy wins whole", () => {
      const own = { type: 'Recreate' };
      expect(
        strategyWith(
          { defaultDeploymentMode: 'Standard', deploymentRolloutStrategy: rollout },
          { predictor: { ...SKLEARN.predictor, deploymentStrategy: own } },
        ).strategy,
      ).toEqual(own);
    });
  });

  const INIT = 'storageInitializer.memoryRequest, memoryLimit, cpuRequest, cpuLimit';
  it.each([
    { row: INIT, data: { storageInitializer: { memoryLimit: 'lots' } }, names: 'data.storageInitializer.memoryLimit: "lots" is not a quantity' },
    { row: INIT, data: { storageInitializer: { memoryRequest: '' } }, names: 'data.storageInitializer.memoryRequest: "" is not a quantity' },
    { row: 'agent.memoryRequest, memoryLimit, cpuRequest, cpuLimit', data: { agent: { cpuLimit: 2 } }, names: 'data.agent.cpuLimit: 2 is not a quantity' },
    { row: 'logger.tlsSkipVerify', data: { logger: { tlsSkipVerify: 'yes' } }, names: 'data.logger.tlsSkipVerify: "yes" is not true or false' },
    {
      row: 'storageInitializer.uidModelcar',
      data: { storageInitializer: { uidModelcar: -1 } },
      names: 'data.storageInitializer.uidModelcar: -1 is not a user ID',
    },
    {
      row: 'deploy.deploymentRolloutStrategy',
      data: { deploy: { defaultDeploymentMode: 'Standard', deploymentRolloutStrategy: { defaultRollout: { maxSurge: '1.5' } } } },
      names: 'data.deploy.deploymentRolloutStrategy: {"defaultRollout":{"maxSurge":"1.5"}} is not an object whose defaultRollout',
    },
    {
      row: 'ingress.disableIngressCreation',
      data: { ingress: { disableIngressCreation: 'yes' } },
      names: 'data.ingress.disableIngressCreation: "yes" is not true or false',
    },
    {
      row: 'service.serviceClusterIPNone',
      data: { service: { serviceClusterIPNone: 'true' } },
      names: 'data.service.serviceClusterIPNone: "true" is not true or false',
    },
    {
      row: 'security.autoMountServiceAccountToken',
      data: { security: { autoMountServiceAccountToken: 'false' } },
      names: 'data.security.autoMountServiceAccountToken: "false" is not true or false',
    },
    {
      row: 'inferenceService.resource',
      data: { inferenceService: { resource: { cpuLimit: 'two' } } },
      names: 'data.inferenceService.resource: {"cpuLimit":"two"} is not an object whose',
    },
  ])('a malformed field ($names): KServeConfig False naming it, the fallback used, the rest served', ({ row: field, data, names }) => {
    const row = ROWS.find((r) => r.field === field) as Row;
    const out = runSync(inferenceservice, {
      parent: parent(row.spec ?? SKLEARN),
      related: [...(row.related ?? []), configMap(data)],
      config: defaultHookConfig(),
    });
    expect(out.condition('KServeConfig')).toMatchObject({ status: 'False', reason: 'InvalidConfig' });
    expect(out.condition('KServeConfig')?.message).toContain(names);
    expect(row.read(out)).toEqual(row.kserveDefault);
    expect(out.child('Deployment', 'demo-predictor')).toBeDefined();
  });
});

describe('inferenceService.resource, where KServe applies it', () => {
  const RESOURCE = { inferenceService: { resource: { cpuLimit: '4', memoryLimit: '8Gi', cpuRequest: '2', memoryRequest: '4Gi' } } };
  const runtime = (resources?: Record<string, unknown>): KubeObject => ({
    apiVersion: 'serving.kserve.io/v1alpha1',
    kind: 'ServingRuntime',
    metadata: { name: 'corp', namespace: 'ml' },
    spec: {
      supportedModelFormats: [{ name: 'corp', autoSelect: true }],
      containers: [{ name: 'kserve-container', image: 'corp/server:1', ...(resources ? { resources } : {}) }],
    },
  });
  const serve = (spec: Record<string, unknown>, related: KubeObject[]) =>
    container(runSync(inferenceservice, { parent: parent(spec), related, config: defaultHookConfig() }), 'kserve-container').resources;

  it("a framework's spec is not defaulted either: the webhook makes it a `model:` first (inference_service_defaults.go DefaultInferenceService runs setPredictorModelDefaults before Default()), so the runtime's resources stay", () => {
    // The shipped sklearn runtime asks 1 CPU / 2Gi (config/runtimes/kserve-sklearnserver.yaml): the ConfigMap's 2/4Gi, 4/8Gi do not reach it.
    expect(serve(SKLEARN, [configMap(RESOURCE)])).toEqual({ requests: { cpu: '1', memory: '2Gi' }, limits: { cpu: '1', memory: '2Gi' } });
  });

  it("a `model:` predictor is not defaulted (ModelSpec.Default is empty, predictor_model.go): the runtime's resources, or none", () => {
    const model = { predictor: { model: { modelFormat: { name: 'corp' }, storageUri: 'gs://b/m' } } };
    expect(serve(model, [runtime({ limits: { cpu: '3' } }), configMap(RESOURCE)])).toEqual({ limits: { cpu: '3' } });
    expect(serve(model, [runtime(), configMap(RESOURCE)])).toBeUndefined();
    // Without the ConfigMap's resource too: nothing is added to what the runtime and the model give.
    expect(serve(model, [runtime({ limits: { cpu: '3' } })])).toEqual({ limits: { cpu: '3' } });
  });
});

describe("KServe v0.20.0's shipped inferenceservice-config (config/configmap/inferenceservice.yaml)", () => {
  // Its keys as shipped, but for the `latest` tags (the release's images are tagged v0.20.0) and the
  // Istio ingress class (modelhooks leaves the class to the cluster's default).
  const SHIPPED = {
    explainers: { art: { image: 'kserve/art-explainer', defaultImageVersion: 'v0.20.0' } },
    storageInitializer: {
      image: 'kserve/storage-initializer:v0.20.0',
      memoryRequest: '100Mi',
      memoryLimit: '1Gi',
      cpuRequest: '100m',
      cpuLimit: '1',
      caBundleConfigMapName: '',
      caBundleVolumeMountPath: '/etc/ssl/custom-certs',
      enableModelcar: true,
      cpuModelcar: '10m',
      memoryModelcar: '15Mi',
      uidModelcar: 1010,
    },
    ingress: {
      enableGatewayApi: false,
      kserveIngressGateway: 'kserve/kserve-ingress-gateway',
      ingressGateway: 'knative-serving/knative-ingress-gateway',
      localGateway: 'knative-serving/knative-local-gateway',
      localGatewayService: 'knative-local-gateway.istio-system.svc.cluster.local',
      ingressDomain: 'example.com',
      ingressClassName: '',
      domainTemplate: '{{ .Name }}-{{ .Namespace }}.{{ .IngressDomain }}',
      urlScheme: 'http',
      disableIstioVirtualHost: false,
      disableIngressCreation: false,
      disableHTTPRouteTimeout: false,
    },
    logger: {
      image: 'kserve/agent:v0.20.0',
      memoryRequest: '100Mi',
      memoryLimit: '1Gi',
      cpuRequest: '100m',
      cpuLimit: '1',
      defaultUrl: 'http://default-broker',
    },
    batcher: {
      image: 'kserve/agent:v0.20.0',
      memoryRequest: '1Gi',
      memoryLimit: '1Gi',
      cpuRequest: '1',
      cpuLimit: '1',
      maxBatchSize: '32',
      maxLatency: '5000',
    },
    agent: { image: 'kserve/agent:v0.20.0', memoryRequest: '100Mi', memoryLimit: '1Gi', cpuRequest: '100m', cpuLimit: '1' },
    deploy: { defaultDeploymentMode: 'Serverless' },
    security: { autoMountServiceAccountToken: true },
    inferenceService: { resource: { cpuLimit: '1', memoryLimit: '2Gi', cpuRequest: '1', memoryRequest: '2Gi' } },
  };

  it.each([
    ['an sklearn predictor with a logger and an ART explainer', { ...LOGGED, explainer: { art: { type: 'SquareAttack' } } }, []],
    ['a model car', MODELCAR, []],
    ['S3 credentials with a CA bundle', S3_SA.spec, S3_SA.related],
  ] as Array<[string, Record<string, unknown>, KubeObject[]]>)(
    '%s: every field read, none wrong, the same children as without it (its values are the fallbacks)',
    (_, spec, related) => {
      const config = defaultHookConfig();
      const without = runSync(inferenceservice, { parent: parent(spec), related, config });
      const shipped = runSync(inferenceservice, { parent: parent(spec), related: [...related, configMap(SHIPPED)], config });
      expect(shipped.condition('KServeConfig')).toMatchObject({ status: 'True', reason: 'ConfigRead' });
      expect(shipped.children).toEqual(without.children);
    },
  );
});
