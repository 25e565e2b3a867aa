/*
 * The static rules of KServe v0.20's validating webhook, as CEL rules (x-kubernetes-validations)
 * of the generated CRD, so `kubectl apply` fails with KServe's message; spec.ts keeps the same
 * checks in the hook (InvalidSpec) for API servers without CEL. Sources, at v0.20.0:
 * pkg/apis/serving/v1beta1/component.go (validateReplicas, ExactlyOneErrorFor),
 * pkg/apis/serving/v1beta1/inference_service_validation.go (validateScalingHPACompExtension,
 * validateCanarySpecs), pkg/apis/serving/v1beta1/predictor.go (PredictorSpec, GetImplementations).
 *
 * CEL cannot see what KServe's webhook keys the scale-metric rule on (the deploymentMode and
 * autoscalerClass annotations): a rule on a CRD's root sees metadata.name and generateName only.
 * Every InferenceService this CRD serves is a raw deployment (ModelMesh ones are left alone and
 * never scale by metric), so the rule applies to all.
 */

export interface CelRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  fieldPath?: string;
  reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
}

/** KServe's MinReplicasShouldBeLessThanMaxError. */
export const MIN_ABOVE_MAX = "'MinReplicas' cannot be greater than MaxReplicas";
/** KServe's validateHPAMetrics message; only cpu and memory are HPA metrics (AutoscalerAllowedHPAMetricsList). */
export const unsupportedMetric = (metric: string) => `[${metric}] is not a supported metric`;
export const HPA_METRICS = ['cpu', 'memory'] as const;

/**
 * ExactlyOneErrorFor(PredictorSpec): every field of the Go struct but the last
 * (ComponentExtensionSpec), in declaration order, under its Go name.
 */
const PREDICTOR_GO_FIELDS = [
  'Name',
  'SKLearn',
  'XGBoost',
  'Tensorflow',
  'PyTorch',
  'Triton',
  'ONNX',
  'HuggingFace',
  'PMML',
  'LightGBM',
  'Paddle',
  'Model',
  'StorageUris',
  'StorageContainerName',
  'WorkerSpec',
  'PodSpec',
];
export const PREDICTOR_EXACTLY_ONE = `exactly one of [${PREDICTOR_GO_FIELDS.join(', ')}] must be specified in PredictorSpec`;
/** The JSON keys GetImplementations counts, besides containers. */
export const PREDICTOR_IMPLEMENTATION_KEYS = [
  'xgboost',
  'pytorch',
  'triton',
  'sklearn',
  'tensorflow',
  'onnx',
  'pmml',
  'lightgbm',
  'paddle',
  'huggingface',
  'model',
] as const;

/** KServe sets no bound; CEL rules over an unbounded list of predictors exceed the API server's cost budget. */
export const MAX_CANARIES = 10;

/** validateCanarySpecs' messages. */
export const canaryPercentRange = (name: string, percent: number) => `canary "${name}" trafficPercent must be between 0 and 100, got ${percent}`;
export const canarySum = (sum: number) => `sum of canary trafficPercent values (${sum}) must be <= 100`;
export const CANARY_NAME_REQUIRED = 'canary predictor.name is required';

/** Rules on every component (predictor, transformer, explainer, a canary's predictor). */
export const componentRules: CelRule[] = [
  {
    rule: `!has(self.scaleMetric) || self.scaleMetric in ${JSON.stringify(HPA_METRICS).replaceAll('"', "'")}`,
    messageExpression: `'[' + self.scaleMetric + '] is not a supported metric'`,
    fieldPath: '.scaleMetric',
    reason: 'FieldValueInvalid',
  },
  {
    // validateReplicas: minReplicas defaults to 1 and maxReplicas 0 means "no bound".
    rule: '!has(self.minReplicas) || !has(self.maxReplicas) || self.maxReplicas == 0 || self.minReplicas <= self.maxReplicas',
    message: MIN_ABOVE_MAX,
    fieldPath: '.minReplicas',
    reason: 'FieldValueInvalid',
  },
];

/**
 * GetImplementations: each framework key and `model` counts one, each container named
 * kserve-container one more; with none of those, non-empty containers are the one (custom).
 */
const frameworks = PREDICTOR_IMPLEMENTATION_KEYS.map((k) => `(has(self.${k}) ? 1 : 0)`).join(' + ');
const isServer = "c.name == 'kserve-container'";
export const predictorRules: CelRule[] = [
  ...componentRules,
  {
    // With a kserve-container no framework may be set; without, one framework, or none and
    // containers (a custom predictor). Two kserve-containers (KServe counts each) are left to
    // the API server's own duplicate-name check: a second pass over containers is over budget.
    rule: `has(self.containers) && self.containers.exists(c, has(c.name) && ${isServer}) ? ${frameworks} == 0 : ${frameworks} == 1 || (${frameworks} == 0 && has(self.containers) && size(self.containers) > 0)`,
    message: PREDICTOR_EXACTLY_ONE,
  },
];

/**
 * A canary's predictor: the component rules and the one-of rule without its pass over
 * containers (ten canaries of it are over the cost budget); the hook checks the rest.
 */
export const canaryPredictorRules: CelRule[] = [
  ...componentRules,
  { rule: `${frameworks} == 1 || (${frameworks} == 0 && has(self.containers) && size(self.containers) > 0)`, message: PREDICTOR_EXACTLY_ONE },
];

/** One entry of spec.canary[]. */
export const canaryRules: CelRule[] = [
  {
    rule: 'self.trafficPercent >= 0 && self.trafficPercent <= 100',
    // KServe's message but the value: string(int) has no size bound, over the CEL cost budget.
    messageExpression: `'canary "' + (has(self.predictor.name) ? self.predictor.name : '') + '" trafficPercent must be between 0 and 100'`,
    fieldPath: '.trafficPercent',
    reason: 'FieldValueInvalid',
  },
  { rule: "has(self.predictor.name) && self.predictor.name != ''", message: CANARY_NAME_REQUIRED, fieldPath: '.predictor', reason: 'FieldValueRequired' },
];

/** The whole spec: the canaries' percents add up to at most 100. */
export const specRules: CelRule[] = [
  {
    rule: '!has(self.canary) || self.canary.map(c, c.trafficPercent).sum() <= 100',
    // KServe's message but the sum: string(int) has no size bound, over the CEL cost budget.
    message: 'sum of canary trafficPercent values must be <= 100',
    fieldPath: '.canary',
    reason: 'FieldValueInvalid',
  },
];

/** The zod `.meta()` that puts rules into the generated CRD. */
export const validations = (rules: CelRule[]) => ({ 'x-kubernetes-validations': rules });
