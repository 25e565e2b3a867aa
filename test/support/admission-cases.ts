/*
 * InferenceServices KServe v0.20's validating webhook rejects for a static reason, with the
 * message it rejects them with, and near neighbours it accepts. Used by the e2e tier (the CRD's
 * CEL rules against a real API server) and by the hook's own checks.
 *
 * | rule                       | upstream (path@v0.20.0) |
 * |----------------------------|-------------------------|
 * | scaleMetric cpu/memory     | pkg/apis/serving/v1beta1/inference_service_validation.go validateScalingHPACompExtension, validateHPAMetrics; pkg/constants/constants.go AutoscalerAllowedHPAMetricsList |
 * | minReplicas ≤ maxReplicas  | pkg/apis/serving/v1beta1/component.go validateReplicas, MinReplicasShouldBeLessThanMaxError |
 * | exactly one implementation | pkg/apis/serving/v1beta1/component.go validateExactlyOneImplementation, ExactlyOneErrorFor; predictor.go GetImplementations |
 * | canary[] percent, sum, name| pkg/apis/serving/v1beta1/inference_service_validation.go validateCanarySpecs |
 */

export interface AdmissionCase {
  name: string;
  spec: Record<string, unknown>;
  /** KServe's message (a rejected case), or undefined (accepted). */
  rejected?: string;
  /** The hook rejects it too (InvalidSpec), its message containing `hookMessage` (default: `rejected`). */
  hook?: boolean;
  hookMessage?: string;
  /** What the API server's message contains (default: `rejected`): KServe's without the value where CEL's cost budget forbids formatting it. */
  cel?: string;
}

const sklearn = { sklearn: { storageUri: 'gs://b/m' } };
const exactlyOne =
  'exactly one of [Name, SKLearn, XGBoost, Tensorflow, PyTorch, Triton, ONNX, HuggingFace, PMML, LightGBM, Paddle, Model, StorageUris, StorageContainerName, WorkerSpec, PodSpec] must be specified in PredictorSpec';
const canary = (name: string | undefined, trafficPercent: number) => ({
  predictor: { ...(name ? { name } : {}), sklearn: { storageUri: `gs://b/${name ?? 'x'}` } },
  trafficPercent,
});

export const admissionCases: AdmissionCase[] = [
  {
    name: 'scaleMetric concurrency',
    spec: { predictor: { ...sklearn, scaleMetric: 'concurrency' } },
    rejected: '[concurrency] is not a supported metric',
    hook: true,
  },
  {
    name: 'scaleMetric rps on a transformer',
    spec: { predictor: sklearn, transformer: { scaleMetric: 'rps', containers: [{ name: 'kserve-container', image: 't:1' }] } },
    rejected: '[rps] is not a supported metric',
    hook: true,
  },
  { name: 'scaleMetric memory', spec: { predictor: { ...sklearn, scaleMetric: 'memory' } } },
  {
    name: 'minReplicas above maxReplicas',
    spec: { predictor: { ...sklearn, minReplicas: 3, maxReplicas: 2 } },
    rejected: "'MinReplicas' cannot be greater than MaxReplicas",
    hook: true,
  },
  {
    name: 'minReplicas above maxReplicas on an explainer',
    spec: { predictor: sklearn, explainer: { minReplicas: 5, maxReplicas: 1, containers: [{ name: 'kserve-container', image: 'e:1' }] } },
    rejected: "'MinReplicas' cannot be greater than MaxReplicas",
    hook: true,
  },
  { name: 'maxReplicas 0 (no bound) under minReplicas 3', spec: { predictor: { ...sklearn, minReplicas: 3, maxReplicas: 0 } } },
  { name: 'minReplicas equal to maxReplicas', spec: { predictor: { ...sklearn, minReplicas: 2, maxReplicas: 2 } } },
  { name: 'two frameworks', spec: { predictor: { ...sklearn, xgboost: { storageUri: 'gs://b/x' } } }, rejected: exactlyOne, hook: true },
  {
    name: 'a framework and model',
    spec: { predictor: { ...sklearn, model: { modelFormat: { name: 'sklearn' }, storageUri: 'gs://b/m' } } },
    rejected: exactlyOne,
    hook: true,
  },
  {
    name: 'a framework and a kserve-container',
    spec: { predictor: { ...sklearn, containers: [{ name: 'kserve-container', image: 'c:1' }] } },
    rejected: exactlyOne,
    hook: true,
    hookMessage: 'a container beside a model needs a name other than kserve-container',
  },
  { name: 'no implementation at all', spec: { predictor: { minReplicas: 1 } }, rejected: exactlyOne, hook: true },
  { name: 'a framework with a sidecar container', spec: { predictor: { ...sklearn, containers: [{ name: 'sidecar', image: 's:1' }] } } },
  { name: 'a custom predictor (containers only)', spec: { predictor: { containers: [{ name: 'server', image: 'c:1' }] } } },
  {
    name: 'canaryTrafficPercent 101',
    spec: { predictor: { ...sklearn, canaryTrafficPercent: 101 } },
    rejected: 'should be less than or equal to 100',
    hook: true,
    hookMessage: 'predictor.canaryTrafficPercent',
  },
  { name: 'canaryTrafficPercent 0', spec: { predictor: { ...sklearn, canaryTrafficPercent: 0 } } },
  {
    name: 'canary[] trafficPercent 150',
    spec: { predictor: sklearn, canary: [canary('v2', 150)] },
    rejected: 'canary "v2" trafficPercent must be between 0 and 100, got 150',
    hook: true,
    cel: 'canary "v2" trafficPercent must be between 0 and 100',
  },
  {
    name: 'canary[] trafficPercent -1',
    spec: { predictor: sklearn, canary: [canary('v2', -1)] },
    rejected: 'canary "v2" trafficPercent must be between 0 and 100, got -1',
    hook: true,
    cel: 'canary "v2" trafficPercent must be between 0 and 100',
  },
  {
    name: 'canary[] percents adding up to 110',
    spec: { predictor: sklearn, canary: [canary('v2', 60), canary('v3', 50)] },
    rejected: 'sum of canary trafficPercent values (110) must be <= 100',
    hook: true,
    cel: 'sum of canary trafficPercent values must be <= 100',
  },
  {
    name: 'canary[] without predictor.name',
    spec: { predictor: sklearn, canary: [canary(undefined, 10)] },
    rejected: 'canary predictor.name is required',
    hook: true,
  },
  { name: 'canary[] percents adding up to 100', spec: { predictor: sklearn, canary: [canary('v2', 60), canary('v3', 40)] } },
  {
    name: 'canary[] with a custom predictor',
    spec: { predictor: sklearn, canary: [{ predictor: { name: 'v2', containers: [{ name: 'server', image: 'c:2' }] }, trafficPercent: 10 }] },
  },
  {
    name: 'canary[] with two frameworks',
    spec: { predictor: sklearn, canary: [{ predictor: { name: 'v2', ...sklearn, onnx: { storageUri: 'gs://b/o' } }, trafficPercent: 10 }] },
    rejected: exactlyOne,
  },
  {
    name: 'canary[] with scaleMetric rps',
    spec: { predictor: sklearn, canary: [{ predictor: { name: 'v2', ...sklearn, scaleMetric: 'rps' }, trafficPercent: 10 }] },
    rejected: '[rps] is not a supported metric',
  },
  { name: 'canary[] dark launch at 0', spec: { predictor: sklearn, canary: [canary('v2', 0)] } },
];
