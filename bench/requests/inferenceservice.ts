/**
 * KServe InferenceService (raw deployment) requests: a Hugging Face LLM, an ONNX model, and a
 * Gateway API canary (HTTPRoutes splitting 80/20 after a model change).
 */
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { Json } from '../dress.js';
import { buildCase, type CaseSpec } from './build.js';

const isvc = (name: string, spec: Json, annotations?: Json): Json => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name, namespace: 'models', labels: { team: 'ml-platform', 'app.kubernetes.io/part-of': 'chat' }, ...(annotations ? { annotations } : {}) },
  spec,
});

const hfLlm: CaseSpec = {
  name: 'inferenceservice/hf-llm',
  description: 'Hugging Face LLM (vLLM args, GPU, S3 secret), Ingress',
  composition: inferenceservice,
  steps: [
    isvc(
      'llama3-8b',
      {
        predictor: {
          minReplicas: 1,
          maxReplicas: 4,
          model: {
            modelFormat: { name: 'huggingface' },
            args: ['--model_name=llama3', '--model_id=meta-llama/meta-llama-3-8b-instruct', '--max_model_len=8192', '--gpu_memory_utilization=0.9'],
            storageUri: 's3://models/meta-llama/meta-llama-3-8b-instruct',
            env: [{ name: 'HF_HUB_OFFLINE', value: '1' }],
            resources: { requests: { cpu: '6', memory: '24Gi', 'nvidia.com/gpu': '1' }, limits: { cpu: '6', memory: '24Gi', 'nvidia.com/gpu': '1' } },
          },
        },
      },
      { 'serving.kserve.io/storageSecretName': 's3-models' },
    ),
  ],
  related: () => [
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 's3-models',
        namespace: 'models',
        annotations: { 'serving.kserve.io/s3-endpoint': 's3.eu-west-1.amazonaws.com', 'serving.kserve.io/s3-usehttps': '1' },
      },
      type: 'Opaque',
      data: { AWS_ACCESS_KEY_ID: 'QUtJQUlPU0ZPRE5ON0VYQU1QTEU=', AWS_SECRET_ACCESS_KEY: 'd0phbHJYVXRuRkVNSS9LN01ERU5HL2JQeFJmaUNZRVhBTVBMRUtFWQ==' },
    },
  ],
};

const onnx: CaseSpec = {
  name: 'inferenceservice/onnx',
  description: 'ONNX model (Triton runtime), Ingress',
  composition: inferenceservice,
  steps: [
    isvc('style-sample', {
      predictor: {
        onnx: { storageUri: 'gs://kfserving-examples/models/onnx', resources: { requests: { cpu: '1', memory: '2Gi' }, limits: { cpu: '2', memory: '4Gi' } } },
      },
    }),
  ],
};

const flowers = (uri: string, canary?: number): Json =>
  isvc('flowers', {
    predictor: {
      minReplicas: 2,
      maxReplicas: 6,
      scaleMetric: 'cpu',
      scaleTarget: 70,
      ...(canary === undefined ? {} : { canaryTrafficPercent: canary }),
      tensorflow: { storageUri: uri },
    },
  });

const httprouteCanary: CaseSpec = {
  name: 'inferenceservice/httproute-canary',
  description: 'Gateway API: a model change at canaryTrafficPercent 20 (stable + canary, HTTPRoutes 80/20)',
  composition: inferenceservice,
  variant: 'gateway-api',
  steps: [flowers('gs://models/flowers/v1'), flowers('gs://models/flowers/v2', 20)],
};

export const inferenceserviceCases = () => [hfLlm, onnx, httprouteCanary].map(buildCase);
