import { z } from 'zod';
import { annotationMapSchema, conditionSchema, DNS1035_LABEL, labelMapSchema, quantity } from '../kit/index.js';
import {
  canaryPercentRange,
  canarySum,
  CANARY_NAME_REQUIRED,
  componentRules,
  MAX_CANARIES,
  MIN_ABOVE_MAX,
  PREDICTOR_EXACTLY_ONE,
  predictorRules,
  canaryPredictorRules,
  canaryRules,
  specRules,
  unsupportedMetric,
  validations,
} from './input/admission.js';
import { MODEL_DIR } from './storage/storage-plan.js';
import { commonParentPath, storageUriProblem } from './storage/uri.js';
import { PASSED_POD_FIELDS } from './pod/passthrough.js';

/*
 * KServe's InferenceService spec, as far as raw-deployment mode acts on it. KServe's own CRD
 * (config/crd/full/serving.kserve.io_inferenceservices.yaml) is ~2 MB: it spells out every
 * field of every PodSpec and Container. Here every field it names is named too, so that the
 * API server (strict field validation: `kubectl apply` warns or refuses) and `render` see a
 * field KServe does not have (`storageURI`), as they would with KServe's CRD; the fields not
 * acted on here are typed only as "kept" (preserve-unknown-fields inside them), which keeps
 * the CRD small. The objects stay `looseObject` for zod, so whatever reaches the hook anyway
 * (a CRD of an older release) is kept and named in the UnknownFields condition.
 */

/**
 * An object the CRD closes (engine/schema.ts): the API server reports fields it does not name.
 * `kept`: fields it names besides those typed here, kept as written and not looked into (their
 * schema is Kubernetes' or KServe's); written into the CRD and known to the UnknownFields check,
 * but not to zod, whose output keeps the key order of before (a spec's hash rolls no pod).
 */
const closed = (kept: readonly string[] = []) => ({ 'x-kubernetes-preserve-unknown-fields': false, ...(kept.length > 0 ? { 'x-modelhooks-kept': kept } : {}) });
const CLOSED = closed();

/** Container fields of Kubernetes 1.35 (core/v1 Container) that KServe's CRD has and that are passed through, not read. */
const CONTAINER_KEPT = [
  'workingDir',
  'envFrom',
  'resizePolicy',
  'restartPolicy',
  'restartPolicyRules',
  'volumeMounts',
  'volumeDevices',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
  'terminationMessagePath',
  'terminationMessagePolicy',
  'imagePullPolicy',
  'securityContext',
  'stdin',
  'stdinOnce',
  'tty',
] as const;

/**
 * The PodSpec and ComponentExtensionSpec fields of a component (pkg/apis/serving/v1beta1/component.go,
 * predictor.go `PodSpec json:",inline"`) not typed below: those passed to the pod as written
 * (pod/passthrough.ts; workloadRef is Kubernetes 1.35's, not yet in KServe v0.20's CRD), and those
 * merged (initContainers, volumes, securityContext) or named in IgnoredFields.
 */
const COMPONENT_KEPT = [
  ...PASSED_POD_FIELDS,
  'activeDeadlineSeconds',
  'autoScaling',
  'deploymentStrategy',
  'initContainers',
  'scaleMetricType',
  'securityContext',
  'volumes',
].sort();

const quantities = z.record(z.string(), quantity('500m or 1Gi'));

const envVar = z.looseObject({ name: z.string() }).meta(closed(['value', 'valueFrom']));
const containerPort = z
  .looseObject({
    containerPort: z.number().int().min(1).max(65535),
    name: z.string().optional(),
    protocol: z.string().optional(),
  })
  .meta(closed(['hostIP', 'hostPort']));

/** A Kubernetes container, typed only where we read it. */
export const containerSchema = z
  .looseObject({
    // 63: a DNS label, as the API server requires of container names; it also bounds the CEL rules' cost.
    name: z.string().max(63).optional().describe('Defaults to kserve-container for the first container.'),
    image: z.string().optional(),
    command: z.array(z.string()).optional(),
    args: z.array(z.string()).optional(),
    env: z.array(envVar).optional(),
    ports: z.array(containerPort).optional(),
    resources: z
      .looseObject({ requests: quantities.optional(), limits: quantities.optional() })
      .meta(closed(['claims']))
      .optional(),
  })
  .meta(closed(CONTAINER_KEPT));

/** Fields of a framework key (`sklearn`, …) and of `model`: a container plus where the model is. */
const predictorExtension = {
  ...containerSchema.shape,
  storageUri: z.string().optional().describe('Where the model is: gs://, s3://, https://, hf://, pvc://claim/path …'),
  protocolVersion: z.enum(['v1', 'v2', 'grpc-v1', 'grpc-v2']).optional(),
  runtimeVersion: z.string().optional().describe('Image tag of the runtime.'),
  storage: z
    .looseObject({
      key: z.string().optional().describe('Key of the storage-config Secret (default: default or default_<type>).'),
      path: z.string().optional().describe('Path of the model in the storage.'),
      parameters: z.record(z.string(), z.string()).optional().describe("Overrides of the Secret's settings (type, bucket …)."),
    })
    .meta(closed(['schemaPath']))
    .optional()
    .describe('The model in a storage described by the storage-config Secret (KServe storage spec).'),
};
/** A framework key's and `model`'s fields KServe's CRD has and nothing here reads (v1beta1 PredictorExtensionSpec). */
const EXTENSION_KEPT = [...CONTAINER_KEPT, 'confidential'];
const frameworkSchema = z.looseObject(predictorExtension).meta(closed(EXTENSION_KEPT));
const modelSchema = z
  .looseObject({
    ...predictorExtension,
    modelFormat: z.looseObject({ name: z.string().min(1), version: z.string().optional() }).meta(CLOSED),
    runtime: z.string().optional().describe('Name of a built-in runtime, e.g. kserve-sklearnserver.'),
  })
  .meta(closed(EXTENSION_KEPT));

export const FRAMEWORK_KEYS = ['sklearn', 'xgboost', 'lightgbm', 'tensorflow', 'pytorch', 'onnx', 'triton', 'huggingface'] as const;
export type FrameworkKey = (typeof FRAMEWORK_KEYS)[number];

/** KServe's LoggerSpec (pkg/apis/serving/v1beta1/inference_service.go): payload logging by the agent sidecar. */
export const loggerSchema = z
  .looseObject({
    url: z.string().optional().describe('Where the agent posts CloudEvents; default http://default-broker (MODELHOOKS_LOGGER_DEFAULT_URL).'),
    mode: z.enum(['all', 'request', 'response']).optional().describe('Default all.'),
    metadataHeaders: z.array(z.string()).optional(),
    metadataAnnotations: z.array(z.string()).optional(),
    storage: z
      .looseObject({
        path: z.string().optional(),
        parameters: z.record(z.string(), z.string()).optional(),
        key: z.string().optional(),
        serviceAccountName: z.string().optional(),
      })
      .meta(CLOSED)
      .optional(),
    marshallerUrl: z.string().optional(),
    batchSize: z.number().int().optional(),
    batchInterval: z.string().optional(),
  })
  .meta(CLOSED);
/** KServe's Batcher: request batching by the agent sidecar. */
export const batcherSchema = z
  .looseObject({
    maxBatchSize: z.number().int().optional(),
    maxLatency: z.number().int().optional().describe('Milliseconds.'),
    timeout: z.number().int().optional().describe('Accepted; KServe v0.20 passes it to nothing either.'),
  })
  .meta(CLOSED);
export type LoggerSpec = z.infer<typeof loggerSchema>;
export type BatcherSpec = z.infer<typeof batcherSchema>;

/** Scaling and pod fields every component shares (KServe's ComponentExtensionSpec + PodSpec). */
const componentFields = {
  minReplicas: z.number().int().min(0).optional().describe('Default 1.'),
  maxReplicas: z.number().int().min(0).optional().describe('Default: minReplicas.'),
  scaleTarget: z.number().int().min(1).optional().describe('Target utilisation in percent (default 80 for cpu).'),
  scaleMetric: z.enum(['cpu', 'memory', 'concurrency', 'rps']).optional(),
  canaryTrafficPercent: z.number().int().min(0).max(100).optional(),
  timeout: z.number().int().min(1).optional().describe('Request timeout in seconds (HTTPRoutes).'),
  containerConcurrency: z.number().int().min(0).optional().describe("A transformer's or explainer's --workers (KServe passes it to no predictor in raw mode)."),
  serviceAccountName: z.string().optional().describe("Its Secrets (or the default ServiceAccount's) give the storage initializer its credentials."),
  storageUris: z
    .array(
      z
        .looseObject({ uri: z.string().min(1), mountPath: z.string().regex(/^\//, 'an absolute path').max(255).optional().describe('Default /mnt/models.') })
        .meta(CLOSED),
    )
    .optional()
    .describe('Several models (e.g. a base model and adapters), each downloaded to its mountPath.'),
  containers: z.array(containerSchema).optional(),
  labels: labelMapSchema.optional(),
  annotations: annotationMapSchema.optional(),
  logger: loggerSchema.optional(),
  batcher: batcherSchema.optional(),
};

const predictorFields = z
  .looseObject({
    ...componentFields,
    name: z.string().max(63).regex(DNS1035_LABEL).optional().describe("A variant's name; required in spec.canary[]."),
    ...Object.fromEntries(FRAMEWORK_KEYS.map((k) => [k, frameworkSchema.optional()])),
    // KServe implementations no runtime here serves: typed so the CRD's one-of rule can count them.
    pmml: frameworkSchema.optional(),
    paddle: frameworkSchema.optional(),
    model: modelSchema.optional(),
  })
  .meta(closed([...COMPONENT_KEPT, 'storageContainerName', 'workerSpec']));
const predictorSchema = predictorFields.meta(validations(predictorRules)) as z.ZodType<PredictorSpec>;
const canaryPredictorSchema = predictorFields.meta(validations(canaryPredictorRules)) as z.ZodType<PredictorSpec>;

const auxiliarySchema = z.looseObject(componentFields).meta(closed(COMPONENT_KEPT)).meta(validations(componentRules));

/** KServe v0.20's ARTExplainerSpec: ExplainerExtensionSpec (storageUri, runtimeVersion, config, a container's fields) and the attack type. */
const artSchema = z
  .looseObject({
    ...containerSchema.shape,
    type: z.string().optional().describe('The attack, passed as --adversary_type (KServe knows SquareAttack).'),
    storageUri: z.string().optional().describe('Downloaded to /mnt/models and passed as --storage_uri.'),
    runtimeVersion: z.string().optional().describe("Image tag (default: the art-explainer image's)."),
    config: z.record(z.string(), z.string()).optional().describe('Each entry passed as --<key> <value>, keys sorted.'),
  })
  .meta(closed([...CONTAINER_KEPT, 'storage']));
const explainerSchema = z
  .looseObject({ ...componentFields, art: artSchema.optional() })
  .meta(closed(COMPONENT_KEPT))
  .meta(validations(componentRules));

/** KServe v0.20's spec.canary[] entry: a predictor variant (by name) and its traffic share. */
const canarySchema = z
  .looseObject({ predictor: canaryPredictorSchema, trafficPercent: z.number().int().describe('0–100; 0 deploys without traffic.') })
  .meta(CLOSED)
  .meta(validations(canaryRules));

export type ContainerSpec = z.infer<typeof containerSchema>;
export type ModelSpec = z.infer<typeof modelSchema>;
export type FrameworkSpec = z.infer<typeof frameworkSchema>;
type ComponentFields = z.infer<z.ZodObject<typeof componentFields>>;
export type ComponentSpec = ComponentFields & Record<string, unknown>;
export type PredictorSpec = ComponentSpec & Partial<Record<FrameworkKey, FrameworkSpec>> & { model?: ModelSpec };

export const inferenceserviceSpec = z
  .looseObject({
    predictor: predictorSchema,
    transformer: auxiliarySchema.optional(),
    explainer: explainerSchema.optional(),
    // At most MAX_CANARIES: the bound keeps the CRD's CEL rules within the API server's cost budget.
    canary: z.array(canarySchema).max(MAX_CANARIES).optional(),
  })
  .meta(CLOSED)
  .meta(validations(specRules))
  .superRefine((spec, ctx) => {
    const p = spec.predictor;
    const chosen = [...FRAMEWORK_KEYS.filter((k) => p[k] !== undefined), ...(p.model ? ['model'] : [])];
    if (chosen.length > 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['predictor'],
        message: `${PREDICTOR_EXACTLY_ONE}: one of ${[...FRAMEWORK_KEYS, 'model'].join(', ')} (got ${chosen.join(', ')})`,
      });
    }
    if (chosen.length === 0 && !(p.containers && p.containers.length > 0)) {
      ctx.addIssue({
        code: 'custom',
        path: ['predictor'],
        message: `${PREDICTOR_EXACTLY_ONE}: needs a model, one of ${[...FRAMEWORK_KEYS, 'model'].join(', ')}, or containers`,
      });
    }
    const uri = modelOf(p)?.storageUri;
    const problem = uri === undefined ? undefined : storageUriProblem(uri);
    if (problem) ctx.addIssue({ code: 'custom', path: ['predictor', chosen[0] ?? 'model', 'storageUri'], message: problem });
    for (const c of ['predictor', 'transformer', 'explainer'] as const) {
      (spec[c]?.storageUris ?? []).forEach((u, i) => {
        const bad = storageUriProblem(u.uri);
        if (bad) ctx.addIssue({ code: 'custom', path: [c, 'storageUris', i, 'uri'], message: bad });
      });
      // KServe mounts one emptyDir at the downloads' common parent: / would hide the whole image.
      const downloads = (spec[c]?.storageUris ?? []).filter((u) => !/^(pvc|oci):\/\//.test(u.uri)).map((u) => u.mountPath || MODEL_DIR);
      if (downloads.length > 1 && commonParentPath(downloads) === '/') {
        ctx.addIssue({
          code: 'custom',
          path: [c, 'storageUris'],
          message: `the mount paths ${downloads.join(', ')} share no parent directory but /: one emptyDir is mounted at their common parent`,
        });
      }
    }
    for (const c of ['predictor', 'transformer', 'explainer'] as const) {
      const comp = spec[c];
      if (!comp) continue;
      (comp.containers ?? []).forEach((container, i) => {
        if (!container.image) ctx.addIssue({ code: 'custom', path: [c, 'containers', i, 'image'], message: 'required' });
        // Beside a model, containers run next to the runtime's kserve-container.
        if (c === 'predictor' && chosen.length > 0 && (container.name || 'kserve-container') === 'kserve-container') {
          ctx.addIssue({ code: 'custom', path: [c, 'containers', i, 'name'], message: 'a container beside a model needs a name other than kserve-container' });
        }
      });
      // KServe's validateLogger (component.go): a logger storage needs all three fields.
      const store = comp.logger?.storage;
      if (store && (store.path === undefined || store.parameters === undefined || store.key === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: [c, 'logger', 'storage'],
          message: 'invalid logger storage configuration: path, parameters and key are all required',
        });
      }
      if (comp.scaleMetric === 'concurrency' || comp.scaleMetric === 'rps') {
        ctx.addIssue({
          code: 'custom',
          path: [c, 'scaleMetric'],
          message: `${unsupportedMetric(comp.scaleMetric)}: it needs Knative; a raw deployment scales on cpu or memory`,
        });
      }
      if (comp.minReplicas !== undefined && comp.maxReplicas !== undefined && comp.maxReplicas > 0 && comp.maxReplicas < comp.minReplicas) {
        ctx.addIssue({ code: 'custom', path: [c, 'maxReplicas'], message: `${MIN_ABOVE_MAX} (${comp.minReplicas} > ${comp.maxReplicas})` });
      }
    }
    // The CRD's CEL rules, again, for API servers that do not run them.
    (spec.canary ?? []).forEach((canary, i) => {
      const name = typeof canary.predictor.name === 'string' ? canary.predictor.name : '';
      if (name === '') ctx.addIssue({ code: 'custom', path: ['canary', i, 'predictor', 'name'], message: CANARY_NAME_REQUIRED });
      if (canary.trafficPercent < 0 || canary.trafficPercent > 100) {
        ctx.addIssue({ code: 'custom', path: ['canary', i, 'trafficPercent'], message: canaryPercentRange(name, canary.trafficPercent) });
      }
    });
    const sum = (spec.canary ?? []).reduce((total, canary) => total + canary.trafficPercent, 0);
    if (sum > 100) ctx.addIssue({ code: 'custom', path: ['canary'], message: canarySum(sum) });
  });

export type InferenceServiceSpec = z.infer<typeof inferenceserviceSpec>;
export type ComponentName = 'predictor' | 'transformer' | 'explainer';
/** KServe's components, in the order it lists them. */
export const COMPONENTS: readonly ComponentName[] = ['predictor', 'transformer', 'explainer'];

/** The components this spec has, predictor first. */
export const componentsOf = (spec: InferenceServiceSpec): ComponentName[] => COMPONENTS.filter((role) => spec[role] !== undefined);

/** Where callers enter: the transformer when there is one (it calls the predictor), else the predictor. */
export const entryComponentOf = (spec: InferenceServiceSpec): ComponentName => (spec.transformer ? 'transformer' : 'predictor');

/** The model of a predictor given by a framework key or by `model`, normalised to `model`. */
export function modelOf(p: PredictorSpec): ModelSpec | undefined {
  if (p.model) return p.model;
  const key = FRAMEWORK_KEYS.find((k) => p[k] !== undefined);
  return key ? { ...(p[key] as FrameworkSpec), modelFormat: { name: key } } : undefined;
}

export const DEFAULT_MIN_REPLICAS = 1;
export const DEFAULT_CPU_UTILIZATION = 80;

/** KServe's HPA defaults: min = max(minReplicas, 1), max = max(maxReplicas, min), cpu at 80 %. */
export function scalingOf(c: ComponentSpec): { min: number; max: number; metric: 'cpu' | 'memory'; target?: number; replicas: number } {
  const min = Math.max(c.minReplicas ?? DEFAULT_MIN_REPLICAS, DEFAULT_MIN_REPLICAS);
  const max = Math.max(c.maxReplicas ?? 0, min);
  const metric = c.scaleMetric === 'memory' ? 'memory' : 'cpu';
  const target = c.scaleTarget ?? (metric === 'cpu' ? DEFAULT_CPU_UTILIZATION : undefined);
  // Without an HPA the Deployment runs minReplicas (0 allowed: a stopped component).
  return { min, max, metric, ...(target !== undefined ? { target } : {}), replicas: c.minReplicas ?? DEFAULT_MIN_REPLICAS };
}

/** The kit's condition, loose and with any status, as KServe's own conditions may have been written. */
const kserveCondition = conditionSchema.omit({ observedGeneration: true }).extend({ status: z.string() }).loose();

export const inferenceserviceStatus = z.looseObject({
  url: z.string().optional(),
  address: z.looseObject({ url: z.string().optional() }).optional(),
  components: z.record(z.string(), z.looseObject({ url: z.string().optional() })).optional(),
  // KServe's conditions carry fields of their own (severity): kept, unlike the kit's schema.
  conditions: z.array(kserveCondition).optional(),
  deploymentMode: z.string().optional(),
  modelStatus: z.looseObject({}).optional(),
  observedGeneration: z.number().int().optional(),
});
