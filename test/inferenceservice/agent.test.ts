import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../hooks/kit/index.js';
import { runCustomize, runSync } from '../../hooks/testing/index.js';
import { defaultHookConfig, loadConfig, type HookConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import { goProbeJson } from '../../hooks/inferenceservice/pod/agent.js';
import { logsToTrustyAI } from '../../hooks/inferenceservice/pod/trustyai-logger.js';
import { compositionRules } from '../support/rules.js';
import { expectValid } from '../support/validate.js';

/*
 * KServe's agent sidecar, the Service ports and the TrustyAI logger wiring, field by field.
 * Upstream files: kserve/kserve at v0.20.0; trustyai-explainability/trustyai-service-operator at v1.38.0.
 */
const AGENT = 'pkg/webhook/admission/pod/agent_injector.go@v0.20.0';
const COMPONENT = 'pkg/controller/v1beta1/inferenceservice/components/component.go@v0.20.0';
const CONSTANTS = 'pkg/constants/constants.go@v0.20.0';
const CONFIGMAP = 'config/configmap/inferenceservice.yaml@v0.20.0';
const SERVICE = 'pkg/controller/v1beta1/inferenceservice/reconcilers/service/service_reconciler.go@v0.20.0';
const TAS = 'controllers/tas/inference_services.go@v1.38.0 (patchKServe)';
const TAS_URL = 'controllers/utils/utils.go@v1.38.0 (GenerateHTTPSKServeLoggerURL, GenerateKServeLoggerURL)';

const config = defaultHookConfig();
const isvc = (spec: Record<string, unknown>, meta: Record<string, unknown> = {}, name = 'demo'): KubeObject => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name, namespace: 'ml', generation: 1, ...meta },
  spec,
});
const sklearn = (extra: Record<string, unknown> = {}) => ({ predictor: { ...extra, sklearn: { storageUri: 'gs://bucket/model' } } });
const tas = (name: string, namespace = 'ml', meta: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  metadata: { name, namespace, ...meta },
  spec: { storage: { format: 'PVC', folder: '/inputs', size: '1Gi' }, data: { filename: 'data.csv', format: 'CSV' }, metrics: { schedule: '5s' } },
});
type Out = ReturnType<typeof runSync>;
const deployment = (out: Out, name = 'demo-predictor') => out.children.find((c) => c.kind === 'Deployment' && c.metadata.name === name) as any;
const service = (out: Out, name = 'demo-predictor') => out.children.find((c) => c.kind === 'Service' && c.metadata.name === name) as any;
const containers = (out: Out, name?: string) => deployment(out, name).spec.template.spec.containers as any[];
const agentOf = (out: Out, name?: string) => containers(out, name).find((c) => c.name === 'agent');
const argValue = (args: string[], flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);

describe('the agent sidecar for a logger', () => {
  const out = runSync(inferenceservice, {
    parent: isvc(sklearn({ logger: { url: 'http://sink.ml/', mode: 'request', metadataHeaders: ['x-a', 'x-b'], metadataAnnotations: ['team', 'absent'] } }), {
      annotations: { team: 'fraud' },
    }),
    config,
  });
  const agent = agentOf(out);
  const fields: Array<{ field: string; upstream: string; value: unknown; want: unknown }> = [
    { field: 'name', upstream: `${CONSTANTS} AgentContainerName`, value: agent.name, want: 'agent' },
    {
      field: 'image',
      upstream: `${CONFIGMAP} agent.image, tagged as charts/kserve-resources/values.yaml kserve.version`,
      value: agent.image,
      want: 'kserve/agent:v0.20.0',
    },
    {
      field: 'ports',
      upstream: `${AGENT} (agent-port), ${CONSTANTS} InferenceServiceDefaultAgentPort`,
      value: agent.ports,
      want: [{ name: 'agent-port', containerPort: 9081, protocol: 'TCP' }],
    },
    {
      field: 'resources',
      upstream: `${CONFIGMAP} agent cpu/memory request/limit`,
      value: agent.resources,
      want: { requests: { cpu: '100m', memory: '100Mi' }, limits: { cpu: '1', memory: '1Gi' } },
    },
    { field: '--log-url', upstream: `${COMPONENT} addLoggerAnnotations → ${AGENT}`, value: argValue(agent.args, '--log-url'), want: 'http://sink.ml/' },
    { field: '--log-mode', upstream: `${COMPONENT} addLoggerAnnotations`, value: argValue(agent.args, '--log-mode'), want: 'request' },
    { field: '--inference-service', upstream: `${AGENT} (InferenceServiceLabel)`, value: argValue(agent.args, '--inference-service'), want: 'demo' },
    { field: '--namespace', upstream: AGENT, value: argValue(agent.args, '--namespace'), want: 'ml' },
    { field: '--endpoint', upstream: `${AGENT} (the endpoint label: none in raw mode)`, value: argValue(agent.args, '--endpoint'), want: '' },
    { field: '--component', upstream: `${AGENT} (component label)`, value: argValue(agent.args, '--component'), want: 'predictor' },
    { field: '--metadata-headers', upstream: `${COMPONENT} (joined by ,)`, value: argValue(agent.args, '--metadata-headers'), want: 'x-a,x-b' },
    {
      field: '--metadata-annotations',
      upstream: `${AGENT} (key=value of annotations present)`,
      value: argValue(agent.args, '--metadata-annotations'),
      want: 'team=fraud',
    },
    {
      field: '--logger-tls-skip-verify',
      upstream: `${AGENT} (LoggerConfig.TlsSkipVerify, default false)`,
      value: argValue(agent.args, '--logger-tls-skip-verify'),
      want: 'false',
    },
    {
      field: '--component-port',
      upstream: `${AGENT} (first port of the serving container, default 8080)`,
      value: argValue(agent.args, '--component-port'),
      want: '8080',
    },
    {
      field: 'args order',
      upstream: AGENT,
      value: agent.args.filter((a: string) => a.startsWith('--')),
      want: [
        '--log-url',
        '--source-uri',
        '--log-mode',
        '--inference-service',
        '--namespace',
        '--endpoint',
        '--component',
        '--metadata-headers',
        '--metadata-annotations',
        '--logger-tls-skip-verify',
        '--component-port',
      ],
    },
    {
      field: 'readinessProbe',
      upstream: `${AGENT} (K-Network-Probe: queue on 9081; path / as the served container probes TCP: deployment_reconciler.go setDefaultPodSpec)`,
      value: agent.readinessProbe,
      want: { httpGet: { path: '/', port: 9081, scheme: 'HTTP', httpHeaders: [{ name: 'K-Network-Probe', value: 'queue' }] } },
    },
    {
      field: 'env SERVING_READINESS_PROBE',
      upstream: `${AGENT} (no queue-proxy in raw mode: the first container's probe as JSON, after API defaults)`,
      value: agent.env.find((e: any) => e.name === 'SERVING_READINESS_PROBE')?.value,
      want: '{"tcpSocket":{"port":8080},"timeoutSeconds":1,"periodSeconds":10,"successThreshold":1,"failureThreshold":3}',
    },
    { field: 'securityContext', upstream: `${AGENT} (copy of the first container's)`, value: agent.securityContext, want: containers(out)[0].securityContext },
    { field: 'Service targetPort', upstream: `${SERVICE} createDefaultSvc (Logger → agent port)`, value: service(out).spec.ports[0].targetPort, want: 9081 },
  ];
  it.each(fields)('$field ($upstream)', ({ value, want }) => expect(value).toEqual(want));

  it('passes the pod name from the downward API, as KServe passes the pod name', () => {
    expect(argValue(agent.args, '--source-uri')).toBe('$(POD_NAME)');
    expect(agent.env[0]).toEqual({ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } });
  });
  it('defaults the URL to KServe logger.defaultUrl and the mode to all', () => {
    const a = agentOf(runSync(inferenceservice, { parent: isvc(sklearn({ logger: {} })), config }));
    expect([argValue(a.args, '--log-url'), argValue(a.args, '--log-mode')]).toEqual(['http://default-broker', 'all']);
  });
  it('passes the logger storage and batching settings (path, format, marshaller, batch size and interval)', () => {
    const logger = {
      url: 'http://x',
      storage: { path: '/logs', parameters: { format: 'json', type: 's3' }, key: 'k' },
      marshallerUrl: 'http://m:9083/marshal',
      batchSize: 10,
      batchInterval: '5s',
    };
    const a = agentOf(runSync(inferenceservice, { parent: isvc(sklearn({ logger })), config }));
    expect([
      argValue(a.args, '--log-store-path'),
      argValue(a.args, '--log-store-format'),
      argValue(a.args, '--log-marshaller-url'),
      argValue(a.args, '--log-batch-size'),
      argValue(a.args, '--log-batch-interval'),
    ]).toEqual(['/logs', 'json', 'http://m:9083/marshal', '10', '5s']);
  });
  it('refuses a logger storage without path, parameters and key, naming the field (KServe validateLogger)', () => {
    const o = runSync(inferenceservice, { parent: isvc(sklearn({ logger: { storage: { path: '/logs' } } })), config });
    expect(o.condition('Ready')).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(o.condition('Ready')?.message).toContain('spec.predictor.logger.storage');
  });
  it('with the config: the image, the default URL and the CA bundle volume KServe mounts', () => {
    const hooks = loadConfig({
      MODELHOOKS_IMAGE_AGENT: 'mirror.local/agent:1',
      MODELHOOKS_LOGGER_DEFAULT_URL: 'http://broker.ml',
      MODELHOOKS_LOGGER_CA_BUNDLE: 'openshift-service-ca.crt',
      MODELHOOKS_LOGGER_CA_CERT_FILE: 'ca.crt',
      MODELHOOKS_LOGGER_TLS_SKIP_VERIFY: 'true',
    }).hooks as HookConfig;
    const o = runSync(inferenceservice, { parent: isvc(sklearn({ logger: {} })), config: hooks });
    const a = agentOf(o);
    expect(a.image).toBe('mirror.local/agent:1');
    expect([argValue(a.args, '--log-url'), argValue(a.args, '--logger-ca-cert-file'), argValue(a.args, '--logger-tls-skip-verify')]).toEqual([
      'http://broker.ml',
      'ca.crt',
      'true',
    ]);
    expect(a.volumeMounts).toEqual([{ name: 'agent-ca-bundle', mountPath: '/etc/tls/logger', readOnly: true }]);
    expect(deployment(o).spec.template.spec.volumes).toContainEqual({
      name: 'agent-ca-bundle',
      configMap: { name: 'openshift-service-ca.crt', optional: true },
    });
    for (const child of o.children) expectValid(child);
  });
  it("a user's own container named agent: without a logger the Service still targets the server; with one KServe injects nothing more", () => {
    const spec = (extra: Record<string, unknown>) => ({
      predictor: { ...extra, sklearn: { storageUri: 'gs://b/m' }, containers: [{ name: 'agent', image: 'me/agent:1' }] },
    });
    const plain = runSync(inferenceservice, { parent: isvc(spec({})), config });
    expect(service(plain).spec.ports[0].targetPort).toBe(8080);
    const logging = runSync(inferenceservice, { parent: isvc(spec({ logger: {} })), config });
    expect(
      containers(logging)
        .filter((c) => c.name === 'agent')
        .map((c) => c.image),
    ).toEqual(['me/agent:1']);
    expect(service(logging).spec.ports[0].targetPort).toBe(9081);
  });
  it('no logger and no batcher: no agent, the Service targets the server', () => {
    const o = runSync(inferenceservice, { parent: isvc(sklearn()), config });
    expect(agentOf(o)).toBeUndefined();
    expect(service(o).spec.ports[0].targetPort).toBe(8080);
  });
  it('a transformer logs and batches through its own agent; an explainer batches never (KServe adds no batcher annotation for it)', () => {
    const spec = {
      ...sklearn(),
      transformer: { logger: { url: 'http://t' }, batcher: { maxBatchSize: 4 }, containers: [{ image: 'me/t:1' }] },
      explainer: { logger: { url: 'http://e' }, batcher: { maxBatchSize: 4 }, containers: [{ image: 'me/e:1' }] },
    };
    const o = runSync(inferenceservice, { parent: isvc(spec), config });
    const t = agentOf(o, 'demo-transformer');
    const e = agentOf(o, 'demo-explainer');
    expect([argValue(t.args, '--log-url'), argValue(t.args, '--component'), t.args.includes('--enable-batcher')]).toEqual(['http://t', 'transformer', true]);
    expect([argValue(e.args, '--log-url'), argValue(e.args, '--component'), e.args.includes('--enable-batcher')]).toEqual(['http://e', 'explainer', false]);
    expect(agentOf(o)).toBeUndefined();
    expect(service(o, 'demo-transformer').spec.ports[0].targetPort).toBe(9081);
    // Acted on: no word about loggers or the transformer's batcher; the explainer's batcher is named.
    expect(o.condition('IgnoredFields')?.message).toBe('not acted on by modelhooks (kept in the resource, no effect): spec.explainer.batcher');
  });
});

describe('the agent sidecar for a batcher', () => {
  it.each([
    { batcher: { maxBatchSize: 16, maxLatency: 300 }, args: ['--enable-batcher', '--max-batchsize', '16', '--max-latency', '300', '--component-port', '8080'] },
    // Unset fields are left to the agent's own flag defaults (cmd/agent/main.go: 32 and 5000).
    { batcher: {}, args: ['--enable-batcher', '--component-port', '8080'] },
    { batcher: { maxLatency: 50, timeout: 60 }, args: ['--enable-batcher', '--max-latency', '50', '--component-port', '8080'] },
  ])(`$batcher → $args (${COMPONENT} addBatcherAnnotations, ${AGENT})`, ({ batcher, args }) => {
    const o = runSync(inferenceservice, { parent: isvc(sklearn({ batcher })), config });
    expect(agentOf(o).args).toEqual(args);
    expect(service(o).spec.ports[0].targetPort).toBe(9081);
  });
  it('logger and batcher share one agent: batcher arguments first', () => {
    const a = agentOf(runSync(inferenceservice, { parent: isvc(sklearn({ batcher: { maxBatchSize: 2 }, logger: { url: 'http://x' } })), config }));
    expect(a.args.slice(0, 4)).toEqual(['--enable-batcher', '--max-batchsize', '2', '--log-url']);
  });
});

describe("the readiness probe JSON KServe's webhook hands the agent", () => {
  it.each([
    {
      probe: { tcpSocket: { port: 8080 } },
      json: '{"tcpSocket":{"port":8080},"timeoutSeconds":1,"periodSeconds":10,"successThreshold":1,"failureThreshold":3}',
    },
    {
      probe: { httpGet: { path: '/h', port: 'http', scheme: 'HTTPS' }, periodSeconds: 3 },
      json: '{"httpGet":{"path":"/h","port":"http","scheme":"HTTPS"},"timeoutSeconds":1,"periodSeconds":3,"successThreshold":1,"failureThreshold":3}',
    },
  ])('$json', ({ probe, json }) => expect(goProbeJson(probe as never)).toBe(json));
  it('an exec probe gives no SERVING_READINESS_PROBE and the agent probes /', () => {
    const spec = { predictor: { logger: { url: 'http://x' }, containers: [{ image: 'me/s:1', readinessProbe: { exec: { command: ['true'] } } }] } };
    const a = agentOf(runSync(inferenceservice, { parent: isvc(spec), config }));
    expect(a.env.map((e: any) => e.name)).toEqual(['POD_NAME']);
    expect(a.readinessProbe.httpGet.path).toBe('/');
  });
});

describe(`Service ports (${SERVICE} createDefaultSvc)`, () => {
  const custom = (ports: unknown[], extra: Record<string, unknown> = {}) => isvc({ predictor: { ...extra, containers: [{ image: 'me/s:1', ports }] } });
  it.each([
    { what: 'one unnamed port: no name, 80 → it', ports: [{ containerPort: 5000 }], want: [{ port: 80, targetPort: 5000, protocol: 'TCP' }] },
    {
      what: 'a port named h2c gets appProtocol',
      ports: [{ name: 'h2c', containerPort: 9000 }],
      want: [{ name: 'h2c', port: 80, targetPort: 9000, protocol: 'TCP', appProtocol: 'kubernetes.io/h2c' }],
    },
    {
      what: 'every port: the first as 80, the others on their own numbers, grpc in the name → h2c, protocol kept',
      ports: [
        { name: 'http', containerPort: 8000 },
        { name: 'grpc-inference', containerPort: 8001 },
        { name: 'metrics', containerPort: 8002, protocol: 'UDP' },
      ],
      want: [
        { name: 'http', port: 80, targetPort: 8000, protocol: 'TCP' },
        { name: 'grpc-inference', port: 8001, targetPort: 8001, protocol: 'TCP', appProtocol: 'kubernetes.io/h2c' },
        { name: 'metrics', port: 8002, targetPort: 8002, protocol: 'UDP' },
      ],
    },
  ])('$what', ({ ports, want }) => {
    const o = runSync(inferenceservice, { parent: custom(ports), config });
    expect(service(o).spec.ports).toEqual(want);
    for (const child of o.children) expectValid(child);
  });
  it('with a logger only the first port moves to the agent', () => {
    const o = runSync(inferenceservice, {
      parent: custom(
        [
          { name: 'http', containerPort: 8000 },
          { name: 'grpc', containerPort: 8001 },
        ],
        { logger: {} },
      ),
      config,
    });
    expect(service(o).spec.ports.map((p: any) => [p.port, p.targetPort])).toEqual([
      [80, 9081],
      [8001, 8001],
    ]);
    expect(argValue(agentOf(o).args, '--component-port')).toBe('8000');
  });
  it('a collocated transformer-container is the one the Service and the agent front (TransformerContainerName)', () => {
    const spec = {
      predictor: {
        logger: {},
        sklearn: { storageUri: 'gs://b/m' },
        containers: [{ name: 'transformer-container', image: 'me/t:1', ports: [{ name: 'http', containerPort: 8081 }] }],
      },
    };
    const o = runSync(inferenceservice, { parent: isvc(spec), config });
    expect(service(o).spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 9081, protocol: 'TCP' }]);
    expect(argValue(agentOf(o).args, '--component-port')).toBe('8081');
  });
  it.each([
    {
      what: 'an unnamed port among several',
      ports: [{ name: 'http', containerPort: 8000 }, { containerPort: 8001 }],
      path: 'spec.predictor.containers[0].ports[1].name',
    },
    {
      what: 'a name used twice',
      ports: [
        { name: 'http', containerPort: 8000 },
        { name: 'http', containerPort: 8001 },
      ],
      path: 'spec.predictor.containers[0].ports[1].name',
    },
    {
      what: 'a second port on 80',
      ports: [
        { name: 'http', containerPort: 8000 },
        { name: 'web', containerPort: 80 },
      ],
      path: 'spec.predictor.containers[0].ports[1].containerPort',
    },
  ])('refuses $what (the API server would refuse the Service), naming the field', ({ ports, path }) => {
    const o = runSync(inferenceservice, { parent: custom(ports), config });
    expect(o.condition('Ready')).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(o.condition('Ready')?.message).toContain(path);
  });
});

describe(`TrustyAI logger wiring (${TAS}; ${TAS_URL})`, () => {
  it('customize asks for the TrustyAIServices of the parent namespace', () => {
    expect(compositionRules(runCustomize(inferenceservice, { parent: isvc(sklearn()), config }))).toContainEqual({
      apiVersion: 'trustyai.opendatahub.io/v1',
      resource: 'trustyaiservices',
      namespace: 'ml',
    });
  });
  it('a predictor with its own logger asks for no TrustyAIService (the operator patches only those without one: logsToTrustyAI)', () => {
    const logged = sklearn({ logger: { mode: 'all', url: 'http://mine' } });
    expect(runCustomize(inferenceservice, { parent: isvc(logged), config }).some((r) => r.resource === 'trustyaiservices')).toBe(false);
  });
  it('a TrustyAIService in the namespace whose status does not say it serves HTTPS: the predictor logs everything to its Service over http (port 80 → 8080, GenerateKServeLoggerURL)', () => {
    const o = runSync(inferenceservice, { parent: isvc(sklearn()), related: [tas('trusty')], config });
    const a = agentOf(o);
    expect([argValue(a.args, '--log-url'), argValue(a.args, '--log-mode')]).toEqual(['http://trusty.ml.svc.cluster.local', 'all']);
    expect(service(o).spec.ports[0].targetPort).toBe(9081);
  });
  it('removing the TrustyAIService removes the agent on the next sync', () => {
    const withTas = runSync(inferenceservice, { parent: isvc(sklearn()), related: [tas('trusty')], config });
    const observed = withTas.children;
    const without = runSync(inferenceservice, { parent: isvc(sklearn()), observed, related: [], config });
    expect(agentOf(without)).toBeUndefined();
    expect(service(without).spec.ports[0].targetPort).toBe(8080);
  });
  it('a TrustyAIService being deleted is not logged to (the operator finalizer removes its logger)', () => {
    const o = runSync(inferenceservice, { parent: isvc(sklearn()), related: [tas('trusty', 'ml', { deletionTimestamp: '2026-01-01T00:00:00Z' })], config });
    expect(agentOf(o)).toBeUndefined();
  });
  it('several: the first by name, whatever order they arrive in', () => {
    for (const related of [
      [tas('b'), tas('a')],
      [tas('a'), tas('b')],
    ]) {
      expect(argValue(agentOf(runSync(inferenceservice, { parent: isvc(sklearn()), related, config })).args, '--log-url')).toBe(
        'http://a.ml.svc.cluster.local',
      );
    }
  });
  it('a TrustyAIService of another namespace is ignored', () => {
    expect(agentOf(runSync(inferenceservice, { parent: isvc(sklearn()), related: [tas('trusty', 'elsewhere')], config }))).toBeUndefined();
  });
  it('an InferenceService with its own logger keeps it', () => {
    const a = agentOf(
      runSync(inferenceservice, { parent: isvc(sklearn({ logger: { url: 'http://mine', mode: 'response' } })), related: [tas('trusty')], config }),
    );
    expect([argValue(a.args, '--log-url'), argValue(a.args, '--log-mode')]).toEqual(['http://mine', 'response']);
  });
  it('only the predictor logs to TrustyAI (patchKServe sets spec.predictor.logger only)', () => {
    const spec = { ...sklearn(), transformer: { containers: [{ image: 'me/t:1' }] } };
    const o = runSync(inferenceservice, { parent: isvc(spec), related: [tas('trusty')], config });
    expect(agentOf(o)).toBeDefined();
    expect(agentOf(o, 'demo-transformer')).toBeUndefined();
  });
  it('a batcher of its own and a TrustyAIService: one agent that batches and logs', () => {
    const a = agentOf(runSync(inferenceservice, { parent: isvc(sklearn({ batcher: {} })), related: [tas('trusty')], config }));
    expect([a.args[0], argValue(a.args, '--log-url')]).toEqual(['--enable-batcher', 'http://trusty.ml.svc.cluster.local']);
  });
});

describe('logsToTrustyAI: the same rule, for the TrustyAIService side', () => {
  const services = [tas('b'), tas('a'), tas('z', 'other')];
  it.each([
    { what: 'no logger, the chosen one', parent: isvc(sklearn()), name: 'a', want: true },
    { what: 'no logger, not the chosen one', parent: isvc(sklearn()), name: 'b', want: false },
    { what: 'an own logger', parent: isvc(sklearn({ logger: { url: 'http://x' } })), name: 'a', want: false },
    {
      what: 'ModelMesh (not served here)',
      parent: isvc(sklearn(), { annotations: { 'serving.kserve.io/deploymentMode': 'ModelMesh' } }),
      name: 'a',
      want: false,
    },
    { what: 'a TrustyAIService of another namespace', parent: isvc(sklearn()), name: 'z', want: false },
  ])('$what → $want', ({ parent, name, want }) => {
    expect(logsToTrustyAI(parent, name, services)).toBe(want);
    // It agrees with what the InferenceService's own hook renders.
    if (parent.metadata.annotations?.['serving.kserve.io/deploymentMode'] !== 'ModelMesh') {
      const url = argValue(agentOf(runSync(inferenceservice, { parent, related: services, config }))?.args ?? [], '--log-url');
      expect(url === `http://${name}.ml.svc.cluster.local`).toBe(want);
    }
  });
});
