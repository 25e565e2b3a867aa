import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../hooks/kit/index.js';
import { runCustomize, runSync } from '../../hooks/testing/index.js';
import { defaultHookConfig, loadConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import { kserveRuntimes } from '../../hooks/inferenceservice/runtime/kserve-runtimes.js';
import { protocolOf, selectRuntime, supportingRuntimes, type ServingRuntime } from '../../hooks/inferenceservice/runtime/selection.js';
import { readinessFor, replacePlaceholders, servedModelName, updateImageTag, mergeRuntimeContainer } from '../../hooks/inferenceservice/runtime/container.js';
import { INFERENCESERVICE_IMAGES } from '../../hooks/inferenceservice/config.js';

const config = defaultHookConfig();
const builtin = kserveRuntimes(INFERENCESERVICE_IMAGES);
const shipped = { namespaced: [], cluster: builtin };
const isvc = (predictor: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'demo', namespace: 'ml', generation: 1, ...meta },
  spec: { predictor },
});
const server = (out: ReturnType<typeof runSync>) => (out.children.find((c) => c.kind === 'Deployment') as any)?.spec.template.spec.containers[0];
const sr = (kind: 'ServingRuntime' | 'ClusterServingRuntime', name: string, spec: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject =>
  ({
    apiVersion: 'serving.kserve.io/v1alpha1',
    kind,
    metadata: { name, ...(kind === 'ServingRuntime' ? { namespace: 'ml' } : {}), ...meta },
    spec,
  }) as KubeObject;
const vllm = (meta: Record<string, unknown> = {}) =>
  sr(
    'ServingRuntime',
    'my-vllm',
    {
      supportedModelFormats: [{ name: 'huggingface', version: '1', autoSelect: true, priority: 5 }],
      protocolVersions: ['v2', 'v1'],
      containers: [
        { name: 'kserve-container', image: 'vllm/vllm-openai:v0.9.0', args: ['--port=8080', '--served-model-name={{.Name}}', '--model=/mnt/models'] },
      ],
    },
    meta,
  );

// KServe v0.20.0: pkg/apis/serving/v1beta1/predictor_model.go GetSupportingRuntimes over config/runtimes/*.yaml.
describe('auto-selection among the shipped runtimes (GetSupportingRuntimes)', () => {
  it.each([
    { reason: 'sklearn, no protocol: GetProtocol is v1, mlserver speaks only v2', format: 'sklearn', protocol: undefined, want: 'kserve-sklearnserver' },
    { reason: 'sklearn v2: kserve-mlserver (priority 2) beats kserve-sklearnserver (1)', format: 'sklearn', protocol: 'v2', want: 'kserve-mlserver' },
    { reason: 'xgboost v2: kserve-mlserver', format: 'xgboost', protocol: 'v2', want: 'kserve-mlserver' },
    { reason: 'lightgbm v2: kserve-mlserver', format: 'lightgbm', protocol: 'v2', want: 'kserve-mlserver' },
    { reason: 'lightgbm v1: kserve-lgbserver', format: 'lightgbm', protocol: 'v1', want: 'kserve-lgbserver' },
    { reason: 'tensorflow v1: TF Serving (priority 2) over Triton', format: 'tensorflow', protocol: undefined, want: 'kserve-tensorflow-serving' },
    { reason: 'tensorflow v2: only Triton speaks v2', format: 'tensorflow', protocol: 'v2', want: 'kserve-tritonserver' },
    { reason: 'pytorch: TorchServe (Triton does not auto-select pytorch)', format: 'pytorch', protocol: 'v2', want: 'kserve-torchserve' },
    { reason: 'huggingface: the multi-node runtime (priority 2) needs a workerSpec', format: 'huggingface', protocol: 'v2', want: 'kserve-huggingfaceserver' },
    { reason: 'pmml', format: 'pmml', protocol: undefined, want: 'kserve-pmmlserver' },
    { reason: 'vllm: format names are case-sensitive (the runtime lists vLLM), as KServe labels them', format: 'vllm', protocol: 'v2', want: undefined },
    { reason: 'predictiveserver never auto-selects', format: 'sklearn', protocol: 'grpc-v2', want: undefined },
  ])('$reason', ({ format, protocol, want }) => {
    const choice = selectRuntime({ modelFormat: { name: format } }, protocol, shipped);
    expect('runtime' in choice ? choice.runtime.metadata.name : undefined).toBe(want);
  });

  it('vLLM has no protocolVersions: it speaks any, v2 by the webhook', () => {
    const choice = selectRuntime({ modelFormat: { name: 'vLLM' } }, protocolOf({ modelFormat: { name: 'vLLM' } }, undefined), shipped);
    expect('runtime' in choice && choice.runtime.metadata.name).toBe('kserve-vllmserver');
  });

  it('a model format version must be one the runtime lists; without a version any matches', () => {
    expect(selectRuntime({ modelFormat: { name: 'xgboost', version: '1' } }, 'v1', shipped)).toMatchObject({ reason: 'NoSupportingRuntime' });
    expect(selectRuntime({ modelFormat: { name: 'xgboost', version: '1' } }, 'v2', shipped)).toMatchObject({
      runtime: { metadata: { name: 'kserve-mlserver' } },
    });
    expect(selectRuntime({ modelFormat: { name: 'xgboost', version: '2' } }, 'v1', shipped)).toMatchObject({
      runtime: { metadata: { name: 'kserve-xgbserver' } },
    });
  });

  it('namespaced runtimes come before cluster ones, whatever their priority', () => {
    const low = vllm() as unknown as ServingRuntime;
    low.spec.supportedModelFormats = [{ name: 'sklearn', autoSelect: true, priority: 1 }];
    const list = supportingRuntimes({ modelFormat: { name: 'sklearn' } }, 'v2', { namespaced: [low], cluster: builtin });
    expect(list.map((r) => r.metadata.name)).toEqual(['my-vllm', 'kserve-mlserver', 'kserve-sklearnserver']);
  });

  it('ties: lower protocol rank, then the newest, then the name (sortServingRuntimeList)', () => {
    const mk = (name: string, created: string, protocols: string[]) =>
      ({
        apiVersion: 'x',
        kind: 'ClusterServingRuntime',
        metadata: { name, creationTimestamp: created },
        spec: { supportedModelFormats: [{ name: 'f', autoSelect: true, priority: 1 }], protocolVersions: protocols },
      }) as ServingRuntime;
    const list = supportingRuntimes({ modelFormat: { name: 'f' } }, 'v2', {
      namespaced: [],
      cluster: [
        mk('b', '2026-01-01T00:00:00Z', ['v2']),
        mk('a', '2026-01-01T00:00:00Z', ['v2']),
        mk('c', '2026-02-01T00:00:00Z', ['v2']),
        mk('d', '2020-01-01T00:00:00Z', ['v1', 'v2']),
      ],
    });
    expect(list.map((r) => r.metadata.name)).toEqual(['d', 'c', 'a', 'b']);
  });
});

describe('an explicit runtime (reconcileModel)', () => {
  it.each([
    { reason: 'a name no runtime has', runtime: 'nope', format: 'sklearn', protocol: undefined, want: 'RuntimeNotRecognized' },
    { reason: 'a runtime for another format', runtime: 'kserve-sklearnserver', format: 'xgboost', protocol: undefined, want: 'NoSupportingRuntime' },
    { reason: 'a protocol the runtime does not speak', runtime: 'kserve-mlserver', format: 'sklearn', protocol: 'v1', want: 'NoSupportingRuntime' },
    {
      reason: 'the multi-node runtime',
      runtime: 'kserve-huggingfaceserver-multinode',
      format: 'huggingface',
      protocol: undefined,
      want: 'NoSupportingRuntime',
    },
  ])('fails for $reason', ({ runtime, format, protocol, want }) => {
    expect(selectRuntime({ modelFormat: { name: format }, runtime }, protocol, shipped)).toMatchObject({ reason: want });
  });

  it('a named runtime may serve a format it does not auto-select (Triton and pytorch)', () => {
    expect(selectRuntime({ modelFormat: { name: 'pytorch' }, runtime: 'kserve-tritonserver' }, undefined, shipped)).toMatchObject({
      statusField: 'clusterServingRuntimeName',
    });
  });

  it('the namespace is looked in first', () => {
    const mine = sr('ServingRuntime', 'kserve-sklearnserver', {
      supportedModelFormats: [{ name: 'sklearn' }],
      containers: [{ name: 'kserve-container', image: 'mine:1' }],
    }) as unknown as ServingRuntime;
    expect(
      selectRuntime({ modelFormat: { name: 'sklearn' }, runtime: 'kserve-sklearnserver' }, undefined, { namespaced: [mine], cluster: builtin }),
    ).toMatchObject({ runtime: { spec: { containers: [{ image: 'mine:1' }] } }, statusField: 'servingRuntimeName' });
  });
});

describe('runtimes read from the cluster (sync)', () => {
  it('customize asks for the namespace ServingRuntimes and every ClusterServingRuntime', () => {
    const rules = runCustomize(inferenceservice, { parent: isvc({ sklearn: {} }), config });
    expect(rules).toContainEqual({ apiVersion: 'serving.kserve.io/v1alpha1', resource: 'servingruntimes', namespace: 'ml' });
    expect(rules).toContainEqual({ apiVersion: 'serving.kserve.io/v1alpha1', resource: 'clusterservingruntimes', labelSelector: {} });
  });

  // Metacontroller runs every rule of every parent on each event it watches (customize/manager.go
  // findRelatedParents): a runtime the spec names is asked for by that name only.
  it('a model naming its runtime asks for that ServingRuntime and ClusterServingRuntime by name (utils.GetServingRuntime), no others', () => {
    const rules = runCustomize(inferenceservice, { parent: isvc({ model: { modelFormat: { name: 'sklearn' }, runtime: 'kserve-sklearnserver' } }), config });
    const runtimeRules = rules.filter((r) => r.resource.endsWith('servingruntimes'));
    expect(runtimeRules).toEqual([
      { apiVersion: 'serving.kserve.io/v1alpha1', resource: 'servingruntimes', namespace: 'ml', names: ['kserve-sklearnserver'] },
      { apiVersion: 'serving.kserve.io/v1alpha1', resource: 'clusterservingruntimes', names: ['kserve-sklearnserver'] },
    ]);
    // Synced with the runtime found by that name, it is the one chosen.
    const named = kserveRuntimes(INFERENCESERVICE_IMAGES).find((r) => r.metadata.name === 'kserve-sklearnserver');
    const out = runSync(inferenceservice, {
      parent: isvc({ model: { modelFormat: { name: 'sklearn' }, runtime: 'kserve-sklearnserver' } }),
      related: [named as unknown as KubeObject],
      config,
    });
    expect(out.status.clusterServingRuntimeName).toBe('kserve-sklearnserver');
  });

  it("a predictor of the user's own containers asks for no runtime", () => {
    const rules = runCustomize(inferenceservice, { parent: isvc({ containers: [{ name: 'kserve-container', image: 'mine:1' }] }), config });
    expect(rules.filter((r) => r.resource.endsWith('servingruntimes'))).toEqual([]);
  });

  it('a user ServingRuntime auto-selecting huggingface with a higher priority wins, and is named in the status', () => {
    const out = runSync(inferenceservice, {
      parent: isvc({ model: { modelFormat: { name: 'huggingface' }, storageUri: 'hf://org/m' } }),
      related: [vllm()],
      config,
    });
    expect(server(out).image).toBe('vllm/vllm-openai:v0.9.0');
    expect(server(out).args).toEqual(['--port=8080', '--served-model-name=demo', '--model=/mnt/models']);
    expect(out.status.servingRuntimeName).toBe('my-vllm');
    expect(out.status.clusterServingRuntimeName).toBeUndefined();
    // An unknown server type: the model name cannot be known, so KServe's TCP probe.
    expect(server(out).readinessProbe).toEqual({ tcpSocket: { port: 8080 }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
  });

  it('a ServingRuntime of another namespace offered in related is ignored', () => {
    const out = runSync(inferenceservice, {
      parent: isvc({ model: { modelFormat: { name: 'huggingface' } } }),
      related: [vllm({ namespace: 'other' })],
      config,
    });
    expect(out.status.clusterServingRuntimeName).toBe('kserve-huggingfaceserver');
    expect(out.status.servingRuntimeName).toBeUndefined();
  });

  it('a disabled ClusterServingRuntime is skipped; cluster runtimes replace the built-in set', () => {
    const [mlserver, sklearnserver] = ['kserve-mlserver', 'kserve-sklearnserver'].map(
      (n) => builtin.find((r) => r.metadata.name === n) as unknown as KubeObject,
    );
    const disabled = { ...mlserver, spec: { ...(mlserver?.spec as object), disabled: true } } as KubeObject;
    const v2 = isvc({ sklearn: { protocolVersion: 'v2', storageUri: 'gs://b/m' } });
    expect(
      runSync(inferenceservice, { parent: v2, related: [mlserver as KubeObject, sklearnserver as KubeObject], config }).status.clusterServingRuntimeName,
    ).toBe('kserve-mlserver');
    const out = runSync(inferenceservice, { parent: v2, related: [disabled, sklearnserver as KubeObject], config });
    expect(out.status.clusterServingRuntimeName).toBe('kserve-sklearnserver');
    // Only the cluster's runtimes count once it has any: xgboost has none there.
    const xgb = runSync(inferenceservice, { parent: isvc({ xgboost: {} }), related: [sklearnserver as KubeObject], config });
    expect(xgb.condition('PredictorReady')).toMatchObject({ status: 'False', reason: 'NoSupportingRuntime' });
  });

  it('an explicit runtime that does not exist: PredictorReady False, the running children kept', () => {
    const parent = isvc({ model: { modelFormat: { name: 'sklearn' }, runtime: 'my-runtime' } });
    const first = runSync(inferenceservice, { parent: isvc({ sklearn: {} }), config });
    const out = runSync(inferenceservice, { parent, observed: first.children, config });
    expect(out.condition('PredictorReady')).toMatchObject({ status: 'False', reason: 'RuntimeNotRecognized' });
    expect(out.condition('PredictorReady')?.message).toContain('spec.predictor.model.runtime');
    expect(out.children.map((c) => `${c.kind}/${c.metadata.name}`).sort()).toEqual(first.children.map((c) => `${c.kind}/${c.metadata.name}`).sort());
    expect(out.status.modelStatus).toMatchObject({ transitionStatus: 'InvalidSpec', lastFailureInfo: { reason: 'RuntimeNotRecognized' } });
  });

  it('an explicit disabled runtime: RuntimeDisabled', () => {
    const off = sr('ClusterServingRuntime', 'off', {
      disabled: true,
      supportedModelFormats: [{ name: 'sklearn' }],
      containers: [{ name: 'kserve-container', image: 'x:1' }],
    });
    const out = runSync(inferenceservice, { parent: isvc({ model: { modelFormat: { name: 'sklearn' }, runtime: 'off' } }), related: [off], config });
    expect(out.condition('PredictorReady')).toMatchObject({ status: 'False', reason: 'RuntimeDisabled' });
  });

  it('a runtime without a kserve-container, or with a placeholder modelhooks cannot fill: InvalidPredictorSpec', () => {
    const none = sr('ServingRuntime', 'r', { supportedModelFormats: [{ name: 'sklearn', autoSelect: true }], containers: [{ name: 'other', image: 'x:1' }] });
    expect(runSync(inferenceservice, { parent: isvc({ sklearn: {} }), related: [none], config }).condition('PredictorReady')).toMatchObject({
      status: 'False',
      reason: 'InvalidPredictorSpec',
    });
    const noImage = sr('ServingRuntime', 'r', { supportedModelFormats: [{ name: 'sklearn', autoSelect: true }], containers: [{ name: 'kserve-container' }] });
    expect(runSync(inferenceservice, { parent: isvc({ sklearn: {} }), related: [noImage], config }).condition('PredictorReady')).toMatchObject({
      status: 'False',
      reason: 'InvalidPredictorSpec',
    });
    expect(server(runSync(inferenceservice, { parent: isvc({ sklearn: { image: 'mine:2' } }), related: [noImage], config })).image).toBe('mine:2');
    const tmpl = sr('ServingRuntime', 'r', {
      supportedModelFormats: [{ name: 'sklearn', autoSelect: true }],
      containers: [{ name: 'kserve-container', image: 'x:1', args: ['{{ .Spec }}'] }],
    });
    expect(runSync(inferenceservice, { parent: isvc({ sklearn: {} }), related: [tmpl], config }).condition('PredictorReady')).toMatchObject({
      status: 'False',
      reason: 'InvalidPredictorSpec',
    });
  });

  it("the runtime's pod fields go under the user's, its sidecars after the server", () => {
    const rt = sr('ServingRuntime', 'r', {
      supportedModelFormats: [{ name: 'sklearn', autoSelect: true }],
      nodeSelector: { pool: 'cpu' },
      tolerations: [{ key: 'a', operator: 'Exists' }],
      volumes: [{ name: 'cache', emptyDir: {} }],
      containers: [
        {
          name: 'kserve-container',
          image: 'x:1',
          env: [
            { name: 'A', value: 'runtime' },
            { name: 'B', value: 'runtime' },
          ],
          volumeMounts: [{ name: 'cache', mountPath: '/cache' }],
        },
        { name: 'proxy', image: 'p:1' },
      ],
    });
    const out = runSync(inferenceservice, {
      parent: isvc({
        nodeSelector: { pool: 'mine' },
        sklearn: {
          env: [
            { name: 'B', value: 'user' },
            { name: 'C', value: 'user' },
          ],
        },
      }),
      related: [rt],
      config,
    });
    const pod = (out.children.find((c) => c.kind === 'Deployment') as any).spec.template.spec;
    expect(pod.nodeSelector).toEqual({ pool: 'mine' });
    expect(pod.tolerations).toEqual([{ key: 'a', operator: 'Exists' }]);
    expect(pod.volumes).toContainEqual({ name: 'cache', emptyDir: {} });
    expect(pod.containers.map((c: { name: string }) => c.name)).toEqual(['kserve-container', 'proxy']);
    expect(pod.containers[0].env).toEqual([
      { name: 'A', value: 'runtime' },
      { name: 'B', value: 'user' },
      { name: 'C', value: 'user' },
      { name: 'INFERENCE_SERVICE_NAME', value: 'demo' },
    ]);
  });
});

describe('the runtime container (MergeRuntimeContainers, ReplacePlaceholders, UpdateImageTag)', () => {
  it('user fields merge over the runtime: args appended, env by name, resources by key', () => {
    const merged = mergeRuntimeContainer(
      { name: 'kserve-container', image: 'r:1', args: ['--a'], env: [{ name: 'X', value: '1' }], resources: { limits: { cpu: '1', memory: '2Gi' } } },
      { args: ['--b'], env: [{ name: 'X', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }], resources: { limits: { memory: '4Gi' } } },
    );
    expect(merged).toEqual({
      name: 'kserve-container',
      image: 'r:1',
      args: ['--a', '--b'],
      env: [{ name: 'X', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
      resources: { limits: { cpu: '1', memory: '4Gi' } },
    });
  });

  it('placeholders read the name, namespace, labels and annotations; a missing key is <no value>', () => {
    const out = replacePlaceholders(
      { name: 'c', args: ['{{.Name}}', '{{ .Namespace }}', '{{.Labels.team}}', '{{.Annotations.modelFormat}}', '{{.Labels.none}}'] },
      { name: 'n', namespace: 'ns', labels: { team: 'a"b' }, annotations: { modelFormat: 'sklearn' } },
    );
    expect(out).toEqual({ name: 'c', args: ['n', 'ns', 'a"b', 'sklearn', '<no value>'] });
  });

  it.each([
    {
      reason: 'runtimeVersion replaces the tag',
      image: 'kserve/sklearnserver:v0.20.0',
      version: '1.0',
      type: 'sklearnserver',
      gpu: false,
      want: 'kserve/sklearnserver:1.0',
    },
    { reason: 'runtimeVersion adds a tag', image: 'reg:5000/img', version: '2', type: '', gpu: false, want: 'reg:5000/img:2' },
    {
      reason: 'Hugging Face with a GPU: -gpu tag',
      image: 'kserve/huggingfaceserver:v0.20.0',
      version: undefined,
      type: 'huggingfaceserver',
      gpu: true,
      want: 'kserve/huggingfaceserver:v0.20.0-gpu',
    },
    {
      reason: 'TorchServe with a GPU',
      image: 'pytorch/torchserve-kfs:0.9.0',
      version: undefined,
      type: 'torchserve',
      gpu: true,
      want: 'pytorch/torchserve-kfs:0.9.0-gpu',
    },
    {
      reason: 'sklearn with a GPU: unchanged',
      image: 'kserve/sklearnserver:v0.20.0',
      version: undefined,
      type: 'sklearnserver',
      gpu: true,
      want: 'kserve/sklearnserver:v0.20.0',
    },
    {
      reason: 'vLLM without a GPU: the -cpu repository',
      image: 'vllm/vllm-openai:latest',
      version: undefined,
      type: 'vllmserver',
      gpu: false,
      want: 'vllm/vllm-openai-cpu:latest',
    },
    {
      reason: 'a digest is left alone',
      image: 'kserve/huggingfaceserver@sha256:abc',
      version: '1',
      type: 'huggingfaceserver',
      gpu: true,
      want: 'kserve/huggingfaceserver@sha256:abc',
    },
  ])('$reason', ({ image, version, type, gpu, want }) => expect(updateImageTag(image, version, type, gpu)).toBe(want));

  it('a MIG resource counts as a GPU (IsGPUEnabled)', () => {
    const out = runSync(inferenceservice, { parent: isvc({ huggingface: { resources: { limits: { 'nvidia.com/mig-1g.5gb': '1' } } } }), config });
    expect(server(out).image).toBe('kserve/huggingfaceserver:v0.20.0-gpu');
    const cpu = runSync(inferenceservice, { parent: isvc({ huggingface: { resources: { requests: { cpu: '1' } } } }), config });
    expect(server(cpu).image).toBe('kserve/huggingfaceserver:v0.20.0');
    // A GPU requested without its limit: the API server refuses such a pod (validateResourceRequirements), so no image is chosen.
    const requested = runSync(inferenceservice, { parent: isvc({ huggingface: { resources: { requests: { 'nvidia.com/gpu': '1' } } } }), config });
    expect(requested.condition('Ready')?.message).toContain('spec.predictor.huggingface.resources.limits: nvidia.com/gpu: a limit must be set');
  });
});

describe('readiness that tracks the served model', () => {
  it.each([
    { reason: '--model_name=X, the last one wins', args: ['--model_name=demo', '--model_name=llama2'], want: 'llama2' },
    { reason: '--model_name X', args: ['--model_name', 'llama2', '--x'], want: 'llama2' },
    { reason: 'none', args: ['--model_dir=/mnt/models'], want: undefined },
  ])('model name from args: $reason', ({ args, want }) => expect(servedModelName({ name: 'c', args }, 'sklearnserver')).toBe(want));

  it('MODELHOOKS_MODEL_READINESS=true: the Hugging Face sample with --model_name=llama2 probes /v2/models/llama2/ready', () => {
    const modelReadiness = loadConfig({ MODELHOOKS_MODEL_READINESS: 'true' }).hooks;
    const out = runSync(inferenceservice, {
      parent: isvc({ model: { modelFormat: { name: 'huggingface' }, args: ['--model_name=llama2'] } }),
      config: modelReadiness,
    });
    expect(server(out).readinessProbe.httpGet.path).toBe('/v1/models/llama2');
    const v2 = runSync(inferenceservice, { parent: isvc({ huggingface: { args: ['--model_name=llama2'] } }), config: modelReadiness });
    expect(server(v2).readinessProbe.httpGet.path).toBe('/v2/models/llama2/ready');
  });

  it("by default KServe's TCP probe on 8080, whatever the server (deployment_reconciler.go setDefaultPodSpec), so a KServe Deployment's pods are not rolled", () => {
    const out = runSync(inferenceservice, { parent: isvc({ huggingface: { args: ['--model_name=llama2'] } }), config });
    expect(server(out).readinessProbe).toEqual({ tcpSocket: { port: 8080 }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    expect(server(out).ports).toBeUndefined();
  });

  it('MLServer: the model name from MLSERVER_MODEL_NAME; TorchServe and unknown servers: TCP', () => {
    expect(readinessFor({ name: 'c', env: [{ name: 'MLSERVER_MODEL_NAME', value: 'm' }] }, 'mlserver', 'v2')).toMatchObject({
      httpGet: { path: '/v2/models/m/ready' },
    });
    expect(readinessFor({ name: 'c', args: ['--model_name=m'] }, 'torchserve', 'v1')).toMatchObject({ tcpSocket: { port: 8080 } });
    expect(readinessFor({ name: 'c', ports: [{ containerPort: 9000 }] }, '', 'v1')).toMatchObject({ tcpSocket: { port: 9000 } });
  });

  it("only the probes the runtime declares: vLLM's startup probe is kept, sklearn gets none, and no runtime gets a liveness probe (deployment_reconciler.go setDefaultPodSpec)", () => {
    const vllm = server(runSync(inferenceservice, { parent: isvc({ model: { modelFormat: { name: 'vLLM' }, storageUri: 'hf://org/m' } }), config }));
    expect(vllm.startupProbe).toEqual({
      httpGet: { path: '/v1/models', port: 8080 },
      failureThreshold: 60,
      periodSeconds: 30,
      successThreshold: 1,
      timeoutSeconds: 10,
      initialDelaySeconds: 30,
    });
    expect(vllm.livenessProbe).toBeUndefined();
    const sklearn = server(runSync(inferenceservice, { parent: isvc({ sklearn: {} }), config }));
    expect(sklearn.startupProbe).toBeUndefined();
    expect(sklearn.livenessProbe).toBeUndefined();
    const rt = sr('ServingRuntime', 'own', {
      supportedModelFormats: [{ name: 'sklearn', autoSelect: true }],
      containers: [{ name: 'kserve-container', image: 'x:1', livenessProbe: { httpGet: { path: '/health', port: 8080 } } }],
    });
    expect(server(runSync(inferenceservice, { parent: isvc({ sklearn: {} }), related: [rt], config })).livenessProbe).toEqual({
      httpGet: { path: '/health', port: 8080 },
    });
  });
});

describe('runtimes of another shape in related (a hostile or broken request)', () => {
  it.each([
    { reason: 'containers not a list', spec: { supportedModelFormats: [{ name: 'sklearn', autoSelect: true, priority: 9 }], containers: 'x' } },
    {
      reason: 'protocolVersions not strings',
      spec: { supportedModelFormats: [{ name: 'sklearn', autoSelect: true, priority: 9 }], protocolVersions: [1], containers: [] },
    },
    { reason: 'a format without a name', spec: { supportedModelFormats: [{ autoSelect: true }], containers: [{ name: 'kserve-container' }] } },
    {
      reason: 'a container without a name',
      spec: { supportedModelFormats: [{ name: 'sklearn', autoSelect: true, priority: 9 }], containers: [{ image: 'x' }] },
    },
  ])('$reason: ignored, no 500', ({ spec }) => {
    const out = runSync(inferenceservice, { parent: isvc({ sklearn: {} }), related: [sr('ServingRuntime', 'bad', spec)], config });
    expect(out.status.clusterServingRuntimeName).toBe('kserve-sklearnserver');
  });
});
