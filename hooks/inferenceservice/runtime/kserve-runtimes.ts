import { deepFreeze } from '../../kit/index.js';
import type { InferenceServiceConfig } from '../config.js';
import type { ServingRuntime } from './selection.js';

/*
 * KServe v0.20.0's shipped ClusterServingRuntimes (config/runtimes/*.yaml, the resources of
 * config/runtimes/kustomization.yaml), as data in ServingRuntime shape. They stand in for the
 * cluster's ClusterServingRuntimes when the cluster has none, so a cluster without KServe serves
 * the same models. kserve-openvino.yaml is in the directory but not in the kustomization: it is
 * not shipped, and not here. Images come from the configuration (MODELHOOKS_IMAGE_<KEY>).
 */

const SERVER_TYPE = 'serving.kserve.io/server-type';
const restricted = { allowPrivilegeEscalation: false, privileged: false, runAsNonRoot: true, capabilities: { drop: ['ALL'] } };
const oneCpu = { requests: { cpu: '1', memory: '2Gi' }, limits: { cpu: '1', memory: '2Gi' } };
const metrics = (port: string) => ({ 'prometheus.kserve.io/port': port, 'prometheus.kserve.io/path': '/metrics' });
const pythonArgs = ['--model_name={{.Name}}', '--model_dir=/mnt/models', '--http_port=8080'];

type Format = { name: string; version?: string; autoSelect?: boolean; priority?: number };
const auto = (name: string, version: string, priority: number): Format => ({ name, version, autoSelect: true, priority });

function runtime(name: string, serverType: string, spec: ServingRuntime['spec']): ServingRuntime {
  return { apiVersion: 'serving.kserve.io/v1alpha1', kind: 'ClusterServingRuntime', metadata: { name, annotations: { [SERVER_TYPE]: serverType } }, spec };
}

/** The shipped set, in the kustomization's order, with the configured images. */
export function kserveRuntimes(images: InferenceServiceConfig['images']): ServingRuntime[] {
  const kserveContainer = (image: string, fields: Record<string, unknown>) => ({ name: 'kserve-container', image, ...fields, resources: oneCpu });
  return [
    runtime('kserve-tensorflow-serving', 'tensorflow-serving', {
      annotations: metrics('8080'),
      supportedModelFormats: [auto('tensorflow', '1', 2), auto('tensorflow', '2', 2)],
      protocolVersions: ['v1', 'grpc-v1'],
      containers: [
        kserveContainer(images['kserve-tensorflow-serving'], {
          command: ['/usr/bin/tensorflow_model_server'],
          args: ['--model_name={{.Name}}', '--port=9000', '--rest_api_port=8080', '--model_base_path=/mnt/models', '--rest_api_timeout_in_ms=60000'],
          securityContext: { runAsUser: 1000, ...restricted },
        }),
      ],
    }),
    runtime('kserve-sklearnserver', 'sklearnserver', {
      annotations: metrics('8080'),
      supportedModelFormats: [auto('sklearn', '1', 1)],
      protocolVersions: ['v1', 'v2'],
      containers: [kserveContainer(images.sklearnserver, { args: pythonArgs, securityContext: restricted })],
    }),
    runtime('kserve-predictiveserver', 'predictiveserver', {
      multiModel: false,
      annotations: metrics('8080'),
      supportedModelFormats: [
        { name: 'sklearn', version: '1', autoSelect: false, priority: 3 },
        { name: 'xgboost', version: '2', autoSelect: false, priority: 3 },
        { name: 'lightgbm', version: '4', autoSelect: false, priority: 3 },
      ],
      protocolVersions: ['v1', 'v2'],
      containers: [
        kserveContainer(images.predictiveserver, {
          args: [...pythonArgs, '--framework={{.Annotations.modelFormat}}', '--nthread=1'],
          securityContext: restricted,
        }),
      ],
    }),
    runtime('kserve-mlserver', 'mlserver', {
      annotations: metrics('8080'),
      supportedModelFormats: [
        auto('sklearn', '0', 2),
        auto('sklearn', '1', 2),
        auto('xgboost', '1', 2),
        auto('xgboost', '2', 2),
        auto('lightgbm', '3', 2),
        auto('lightgbm', '4', 2),
        auto('mlflow', '1', 1),
        auto('mlflow', '2', 1),
      ],
      protocolVersions: ['v2'],
      containers: [
        kserveContainer(images.mlserver, {
          env: [
            { name: 'MLSERVER_MODEL_IMPLEMENTATION', value: '{{.Labels.modelClass}}' },
            { name: 'MLSERVER_HTTP_PORT', value: '8080' },
            { name: 'MLSERVER_GRPC_PORT', value: '9000' },
          ],
          securityContext: restricted,
        }),
      ],
    }),
    runtime('kserve-xgbserver', 'xgbserver', {
      annotations: metrics('8080'),
      supportedModelFormats: [auto('xgboost', '2', 1)],
      protocolVersions: ['v1', 'v2'],
      containers: [kserveContainer(images.xgbserver, { args: [...pythonArgs, '--nthread=1'], securityContext: restricted })],
    }),
    runtime('kserve-tritonserver', 'tritonserver', {
      annotations: metrics('8002'),
      supportedModelFormats: [
        auto('tensorrt', '8', 1),
        auto('tensorflow', '1', 1),
        auto('tensorflow', '2', 1),
        auto('onnx', '1', 1),
        { name: 'pytorch', version: '1' },
        auto('triton', '2', 1),
      ],
      protocolVersions: ['v2', 'grpc-v2'],
      containers: [
        kserveContainer(images.tritonserver, {
          args: ['tritonserver', '--model-store=/mnt/models', '--grpc-port=9000', '--http-port=8080', '--allow-grpc=true', '--allow-http=true'],
          securityContext: { runAsUser: 1000, ...restricted },
        }),
      ],
    }),
    runtime('kserve-pmmlserver', 'pmmlserver', {
      annotations: metrics('8080'),
      supportedModelFormats: [auto('pmml', '3', 1), auto('pmml', '4', 1)],
      protocolVersions: ['v1', 'v2'],
      containers: [kserveContainer(images.pmmlserver, { args: pythonArgs, securityContext: restricted })],
    }),
    runtime('kserve-paddleserver', 'paddleserver', {
      annotations: metrics('8080'),
      supportedModelFormats: [auto('paddle', '2', 1)],
      protocolVersions: ['v1', 'v2'],
      containers: [kserveContainer(images.paddleserver, { args: pythonArgs, securityContext: restricted })],
    }),
    runtime('kserve-lgbserver', 'lgbserver', {
      annotations: metrics('8080'),
      supportedModelFormats: [auto('lightgbm', '4', 1)],
      protocolVersions: ['v1', 'v2'],
      containers: [kserveContainer(images.lgbserver, { args: [...pythonArgs, '--nthread=1'], securityContext: restricted })],
    }),
    runtime('kserve-torchserve', 'torchserve', {
      annotations: metrics('8082'),
      supportedModelFormats: [auto('pytorch', '1', 2)],
      protocolVersions: ['v1', 'v2', 'grpc-v2'],
      containers: [
        kserveContainer(images.torchserve, {
          args: ['torchserve', '--start', '--model-store=/mnt/models/model-store', '--ts-config=/mnt/models/config/config.properties'],
          env: [{ name: 'TS_SERVICE_ENVELOPE', value: '{{.Labels.serviceEnvelope}}' }],
          securityContext: { runAsUser: 1000, ...restricted },
        }),
      ],
    }),
    runtime('kserve-huggingfaceserver', 'huggingfaceserver', {
      annotations: metrics('8080'),
      supportedModelFormats: [auto('huggingface', '1', 1)],
      protocolVersions: ['v2', 'v1'],
      containers: [
        kserveContainer(images.huggingfaceserver, {
          args: ['--model_name={{.Name}}'],
          env: [{ name: 'LMCACHE_USE_EXPERIMENTAL', value: 'True' }],
          securityContext: restricted,
          volumeMounts: [{ name: 'devshm', mountPath: '/dev/shm' }],
        }),
      ],
      volumes: [{ name: 'devshm', emptyDir: { medium: 'Memory' } }],
      hostIPC: false,
    }),
    // Multi-node (a Ray head and workers): KServe picks it only for a predictor with a
    // workerSpec, which modelhooks does not serve. Listed so that it is skipped, or refused
    // when named, as KServe would; its head container's script is not carried over.
    runtime('kserve-huggingfaceserver-multinode', 'huggingfaceserver', {
      annotations: metrics('8080'),
      supportedModelFormats: [auto('huggingface', '1', 2)],
      protocolVersions: ['v2', 'v1'],
      containers: [{ name: 'kserve-container', image: `${images.huggingfaceserver}-gpu`, args: ['--model_name={{.Name}}'] }],
      workerSpec: { pipelineParallelSize: 1, tensorParallelSize: 1, containers: [{ name: 'worker-container', image: `${images.huggingfaceserver}-gpu` }] },
    }),
    runtime('kserve-autogluonserver', 'autogluonserver', {
      annotations: metrics('8080'),
      supportedModelFormats: [auto('autogluon', '1', 1)],
      protocolVersions: ['v1', 'v2'],
      containers: [kserveContainer(images.autogluonserver, { args: pythonArgs, securityContext: restricted })],
    }),
    runtime('kserve-vllmserver', 'vllmserver', {
      annotations: metrics('8080'),
      supportedModelFormats: [auto('vLLM', '1', 1)],
      containers: [
        {
          name: 'kserve-container',
          image: images.vllmserver,
          command: ['python', '-m', 'vllm.entrypoints.openai.api_server'],
          args: ['--port=8080', '--served-model-name={{.Name}}', '--model=/mnt/models'],
          env: [
            { name: 'LMCACHE_USE_EXPERIMENTAL', value: 'True' },
            { name: 'HF_HOME', value: '/tmp' },
            { name: 'VLLM_CONFIG_ROOT', value: '/tmp' },
            { name: 'VLLM_WORKER_MULTIPROC_METHOD', value: 'spawn' },
          ],
          securityContext: { allowPrivilegeEscalation: false, privileged: false, capabilities: { drop: ['ALL'] } },
          resources: oneCpu,
          readinessProbe: { httpGet: { path: '/v1/models', port: 8080 }, failureThreshold: 3, periodSeconds: 10, successThreshold: 1, timeoutSeconds: 5 },
          startupProbe: {
            httpGet: { path: '/v1/models', port: 8080 },
            failureThreshold: 60,
            periodSeconds: 30,
            successThreshold: 1,
            timeoutSeconds: 10,
            initialDelaySeconds: 30,
          },
          volumeMounts: [{ name: 'devshm', mountPath: '/dev/shm' }],
        },
      ],
      volumes: [{ name: 'devshm', emptyDir: { medium: 'Memory' } }],
      hostIPC: false,
    }),
  ];
}

/**
 * kserveRuntimes for one configuration's images, built on its first sync and kept: every sync
 * of every InferenceService reads the set, and building it was a measurable part of a sync.
 * Frozen all the way down, so code that tried to change a kept runtime would throw instead of
 * changing what later syncs read.
 */
const builtFor = new WeakMap<InferenceServiceConfig['images'], ServingRuntime[]>();

export function builtinRuntimes(images: InferenceServiceConfig['images']): ServingRuntime[] {
  let runtimes = builtFor.get(images);
  if (runtimes === undefined) {
    runtimes = deepFreeze(kserveRuntimes(images));
    builtFor.set(images, runtimes);
  }
  return runtimes;
}
