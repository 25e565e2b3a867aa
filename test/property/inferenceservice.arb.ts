import fc from 'fast-check';

const FRAMEWORKS = ['sklearn', 'xgboost', 'lightgbm', 'tensorflow', 'pytorch', 'onnx', 'triton', 'huggingface'] as const;
const storageUri = fc.oneof(
  fc.constantFrom(
    'gs://kfserving-examples/models/sklearn/1.0/model',
    's3://models/iris',
    'https://example.com/model.tar.gz',
    'hf://org/model',
    '/mnt/local/model',
  ),
  fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/), fc.constantFrom('', '/v1', '/models/iris')).map(([claim, path]) => `pvc://${claim}${path}`),
);
const resources = fc.record(
  {
    // Requests at most the limits below and the built-in runtimes' (1 CPU, 2Gi): the API server refuses a request above its limit.
    requests: fc.record({ cpu: fc.constantFrom('100m', '1', 1), memory: fc.constantFrom('512Mi', '2Gi') }, { requiredKeys: [] }),
    limits: fc.record({ cpu: fc.constantFrom('2', 4), memory: fc.constantFrom('4Gi') }, { requiredKeys: [] }),
  },
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
const scalingFields = fc.record(
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
/** A logger and/or a batcher on about a quarter of the components each (each adds the agent sidecar: a heavier render). */
const rarely = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: arb, weight: 1 });
const agentFields = fc
  .tuple(
    rarely(
      fc.record(
        {
          url: fc.constantFrom('http://sink.ml', 'https://trusty.ml.svc.cluster.local'),
          mode: fc.constantFrom('all', 'request', 'response'),
          metadataHeaders: fc.subarray(['x-a', 'x-b']),
        },
        { requiredKeys: [] },
      ),
    ),
    rarely(fc.record({ maxBatchSize: fc.integer({ min: 1, max: 64 }), maxLatency: fc.integer({ min: 1, max: 5000 }) }, { requiredKeys: [] })),
  )
  .map(([logger, batcher]) => ({ ...(logger ? { logger } : {}), ...(batcher ? { batcher } : {}) }));
const scaling = fc.tuple(scalingFields, agentFields).map(([a, b]) => ({ ...a, ...b }));
/** 1–3 container ports, each a Service port: named when several (grpc-named ones get h2c). */
const ports = fc
  .tuple(fc.uniqueArray(fc.integer({ min: 1024, max: 65535 }), { minLength: 1, maxLength: 3 }), fc.boolean())
  .map(([numbers, named]) =>
    numbers.map((containerPort, i) => (numbers.length > 1 || named ? { name: ['http', 'grpc', 'metrics'][i], containerPort } : { containerPort })),
  );
const container = fc.record(
  {
    name: fc.constant('kserve-container'),
    image: fc.constantFrom('example.com/server:1', 'kserve/image-transformer:latest'),
    ports,
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

/** Container security fields a tenant may write, allowed and forbidden at restricted alike. */
const containerSecurity = fc.record(
  {
    privileged: fc.boolean(),
    allowPrivilegeEscalation: fc.boolean(),
    runAsUser: fc.constantFrom(0, 1000),
    runAsNonRoot: fc.boolean(),
    readOnlyRootFilesystem: fc.boolean(),
    capabilities: fc.record(
      { add: fc.subarray(['NET_BIND_SERVICE', 'CHOWN', 'SYS_ADMIN']), drop: fc.constantFrom(['ALL'], ['NET_RAW']) },
      { requiredKeys: [] },
    ),
    seccompProfile: fc.constantFrom({ type: 'RuntimeDefault' }, { type: 'Unconfined' }, { type: 'Localhost', localhostProfile: 'p.json' }),
    procMount: fc.constantFrom('Default', 'Unmasked'),
  },
  { requiredKeys: [] },
);
/** Pod fields a tenant may write, allowed and forbidden at restricted alike. */
const podSecurity = fc.record(
  {
    securityContext: fc.record(
      {
        runAsUser: fc.constantFrom(0, 1000),
        runAsNonRoot: fc.boolean(),
        fsGroup: fc.constant(2000),
        sysctls: fc.subarray(
          [
            { name: 'net.ipv4.tcp_keepalive_time', value: '60' },
            { name: 'kernel.msgmax', value: '1' },
          ],
          { minLength: 1 },
        ),
        seLinuxOptions: fc.constantFrom({ type: 'container_t' }, { type: 'spc_t' }, { level: 's0:c1' }),
      },
      { requiredKeys: [] },
    ),
    hostNetwork: fc.boolean(),
    hostPID: fc.boolean(),
    volumes: fc.subarray(
      [
        { name: 'scratch', emptyDir: {} },
        { name: 'root', hostPath: { path: '/' } },
        { name: 'share', nfs: { server: 'nfs', path: '/x' } },
      ],
      { minLength: 1 },
    ),
  },
  { requiredKeys: [] },
);

/** Mostly nothing or only what restricted allows, sometimes anything. */
const sometimes = <T>(allowed: T, any: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: fc.constant(allowed), weight: 2 }, { arbitrary: any, weight: 1 });

/**
 * Valid InferenceService specs with random pod and container security fields on every
 * component: some allowed at the restricted level, some not.
 */
export const inferenceserviceSpecWithSecurity: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    inferenceserviceSpec,
    fc.array(
      fc.tuple(
        sometimes<Record<string, unknown>>({ securityContext: { runAsUser: 1000, fsGroup: 2000 }, volumes: [{ name: 'scratch', emptyDir: {} }] }, podSecurity),
        sometimes<Record<string, unknown>>({ readOnlyRootFilesystem: true, capabilities: { add: ['NET_BIND_SERVICE'] } }, containerSecurity),
      ),
      { minLength: 3, maxLength: 3 },
    ),
  )
  .map(([spec, extras]) => {
    const out: Record<string, unknown> = { ...spec };
    (['predictor', 'transformer', 'explainer'] as const).forEach((role, i) => {
      const component = spec[role] as Record<string, unknown> | undefined;
      const [pod = {}, sc] = extras[i] as [Record<string, unknown> | undefined, Record<string, unknown> | undefined];
      if (!component) return;
      const withSc = (c: unknown) => (sc ? { ...(c as object), securityContext: sc } : c);
      const model = ['model', ...FRAMEWORKS].find((k) => component[k] !== undefined);
      out[role] = {
        ...component,
        ...pod,
        ...(model ? { [model]: withSc(component[model]) } : {}),
        ...(Array.isArray(component.containers) ? { containers: component.containers.map(withSc) } : {}),
      };
    });
    return out;
  });
