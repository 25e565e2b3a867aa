import fc from 'fast-check';

const FRAMEWORKS = ['sklearn', 'xgboost', 'lightgbm', 'tensorflow', 'pytorch', 'onnx', 'triton', 'huggingface'] as const;
const storageUri = fc.oneof(
  fc.constantFrom('gs://kfserving-examples/models/sklearn/1.0/model', 's3://models/iris', 'https://example.com/model.tar.gz', 'hf://org/model', '/mnt/local/model'),
  fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/), fc.constantFrom('', '/v1', '/models/iris')).map(([claim, path]) => `pvc://${claim}${path}`),
);
const resources = fc.record(
  { requests: fc.record({ cpu: fc.constantFrom('100m', '1', 2), memory: fc.constantFrom('512Mi', '2Gi') }, { requiredKeys: [] }), limits: fc.record({ cpu: fc.constantFrom('2', 4), memory: fc.constantFrom('4Gi') }, { requiredKeys: [] }) },
  { requiredKeys: [] },
);
const modelFields = fc.record(
  {
    storageUri,
    args: fc.array(fc.constantFrom('--workers=2', '--enable_docs_url=true', '--log_level=debug'), { maxLength: 2 }),
    env: fc.array(fc.record({ name: fc.stringMatching(/^[A-Z][A-Z0-9_]{0,10}$/), value: fc.string({ maxLength: 10 }) }), { maxLength: 2 }),
    resources,
  },
  { requiredKeys: [] },
);
const scaling = fc.record(
  {
    minReplicas: fc.integer({ min: 0, max: 3 }),
    maxReplicas: fc.integer({ min: 3, max: 8 }),
    scaleMetric: fc.constantFrom('cpu', 'memory'),
    scaleTarget: fc.integer({ min: 1, max: 100 }),
    timeout: fc.integer({ min: 1, max: 600 }),
    serviceAccountName: fc.constantFrom('default', 'models-sa'),
  },
  { requiredKeys: [] },
);
const container = fc.record(
  {
    name: fc.constant('kserve-container'),
    image: fc.constantFrom('example.com/server:1', 'kserve/image-transformer:latest'),
    ports: fc.array(fc.record({ containerPort: fc.integer({ min: 1024, max: 65535 }) }), { minLength: 1, maxLength: 1 }),
    args: fc.array(fc.constantFrom('--verbose', '--model_name=x'), { maxLength: 2 }),
  },
  { requiredKeys: ['name', 'image'] },
);
const byKey = fc.tuple(fc.constantFrom(...FRAMEWORKS), modelFields).map(([key, fields]) => ({ [key]: fields }));
const byFormat = fc
  .tuple(fc.constantFrom('sklearn', 'xgboost', 'tensorflow', 'pytorch', 'triton', 'huggingface', 'pmml'), fc.constantFrom(undefined, 'v1', 'v2'), modelFields)
  .map(([name, protocolVersion, fields]) => ({ model: { modelFormat: { name }, ...(protocolVersion ? { protocolVersion } : {}), ...fields } }));
const custom = container.map((c) => ({ containers: [c] }));
const predictor = fc
  .tuple(fc.oneof(byKey, byFormat, custom), scaling, fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }))
  .map(([model, scale, canary]) => ({ ...scale, ...model, ...(canary !== undefined ? { canaryTrafficPercent: canary } : {}) }));

/** Valid InferenceService specs: any predictor kind, with or without transformer and explainer. */
export const inferenceserviceSpec: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    predictor,
    transformer: fc.tuple(container, scaling).map(([c, s]) => ({ ...s, containers: [c] })),
    explainer: fc.tuple(container, scaling).map(([c, s]) => ({ ...s, containers: [c] })),
  },
  { requiredKeys: ['predictor'] },
);
