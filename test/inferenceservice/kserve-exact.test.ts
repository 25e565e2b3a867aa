import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { converge, ready } from '../../hooks/testing/index.js';
import { runSyncSent as runSync } from '../support/credentials.js';

/*
 * What KServe v0.20.0 writes on the children that modelhooks used to write otherwise (issue 31):
 * each expected value is read from the KServe file named in the test.
 */

const config = defaultHookConfig();
const isvc = (spec: Record<string, unknown>, meta: { labels?: Record<string, string>; annotations?: Record<string, string> } = {}): KubeObject => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'demo', namespace: 'ml', generation: 1, ...meta },
  spec,
});
const sklearn = { predictor: { sklearn: { storageUri: 'gs://b/m' } } };
type Obj = Record<string, any>;
const child = (out: ReturnType<typeof runSync>, kind: string, name: string) => out.child(kind, name) as Obj;
const podMeta = (out: ReturnType<typeof runSync>, name = 'demo-predictor') => child(out, 'Deployment', name).spec.template.metadata;

describe("the defaulting webhook's metadata (pkg/apis/serving/v1beta1/inference_service_defaults.go DefaultInferenceService)", () => {
  it('serving.kserve.io/deploymentMode: Standard on every child, also over the legacy RawDeployment', () => {
    for (const annotations of [undefined, { 'serving.kserve.io/deploymentMode': 'RawDeployment' }]) {
      const out = runSync(inferenceservice, { parent: isvc(sklearn, annotations ? { annotations } : {}), config });
      for (const c of out.children) expect(c.metadata.annotations?.['serving.kserve.io/deploymentMode'], `${c.kind}`).toBe('Standard');
      expect(podMeta(out).annotations['serving.kserve.io/deploymentMode']).toBe('Standard');
    }
  });

  it('modelFormat: the model format on the Ingress only (setPredictorModelDefaults; the disallowed list keeps it off the workloads), a user value kept', () => {
    // Converged: the Ingress is made once the predictor is ready (kube_ingress_reconciler.go createRawIngress).
    const settled = (parent: KubeObject) => converge(inferenceservice, { parent, config }).result;
    const out = settled(isvc(sklearn));
    expect(child(out, 'Ingress', 'demo').metadata.annotations.modelFormat).toBe('sklearn');
    expect(child(out, 'Deployment', 'demo-predictor').metadata.annotations.modelFormat).toBeUndefined();
    const own = settled(isvc(sklearn, { annotations: { modelFormat: 'mine' } }));
    expect(child(own, 'Ingress', 'demo').metadata.annotations.modelFormat).toBe('mine');
    const custom = settled(isvc({ predictor: { containers: [{ image: 'me/s:1' }] } }));
    expect(child(custom, 'Ingress', 'demo').metadata.annotations.modelFormat).toBeUndefined();
  });
});

describe('labels SetRuntimeDefaults adds in the controller (inference_service_defaults.go SetMlServerDefaults, SetTorchServeDefaults)', () => {
  it('modelClass on every component of an MLServer predictor, pods included (components/predictor.go buildObjectMeta, transformer.go read isvc.Labels)', () => {
    const spec = { predictor: { sklearn: { protocolVersion: 'v2', storageUri: 'gs://b/m' } }, transformer: { containers: [{ image: 'me/t:1' }] } };
    const out = runSync(inferenceservice, { parent: isvc(spec), config });
    expect(podMeta(out).labels.modelClass).toBe('mlserver_sklearn.SKLearnModel');
    expect(podMeta(out, 'demo-transformer').labels.modelClass).toBe('mlserver_sklearn.SKLearnModel');
    expect(child(out, 'Service', 'demo-predictor').metadata.labels.modelClass).toBe('mlserver_sklearn.SKLearnModel');
  });

  it('serviceEnvelope on a TorchServe predictor: kserve for v1, kservev2 for v2', () => {
    const v1 = runSync(inferenceservice, { parent: isvc({ predictor: { pytorch: { storageUri: 'gs://b/m' } } }), config });
    expect(podMeta(v1).labels.serviceEnvelope).toBe('kserve');
    const v2 = runSync(inferenceservice, { parent: isvc({ predictor: { pytorch: { storageUri: 'gs://b/m', protocolVersion: 'v2' } } }), config });
    expect(podMeta(v2).labels.serviceEnvelope).toBe('kservev2');
  });
});

describe("the component reconcilers' internal annotations (controller/v1beta1/inferenceservice/components/component.go, predictor.go)", () => {
  it('the storage URI, on the Deployment, its pods, the Service and the HPA (addStorageInitializerAnnotations; componentMeta goes to each)', () => {
    const out = runSync(inferenceservice, { parent: isvc(sklearn), config });
    for (const c of [
      child(out, 'Deployment', 'demo-predictor'),
      child(out, 'Service', 'demo-predictor'),
      child(out, 'HorizontalPodAutoscaler', 'demo-predictor'),
    ]) {
      expect(c.metadata.annotations['internal.serving.kserve.io/storage-initializer-sourceuri']).toBe('gs://b/m');
    }
    expect(podMeta(out).annotations['internal.serving.kserve.io/storage-initializer-sourceuri']).toBe('gs://b/m');
  });

  it('a logger and a batcher (addLoggerAnnotations, addBatcherAnnotations)', () => {
    const spec = {
      predictor: {
        sklearn: { storageUri: 'gs://b/m' },
        logger: { url: 'http://sink', mode: 'request', metadataHeaders: ['a', 'b'] },
        batcher: { maxBatchSize: 16, maxLatency: 300 },
      },
    };
    const a = podMeta(runSync(inferenceservice, { parent: isvc(spec), config })).annotations;
    expect(a).toMatchObject({
      'internal.serving.kserve.io/logger': 'true',
      'internal.serving.kserve.io/logger-sink-url': 'http://sink',
      'internal.serving.kserve.io/logger-mode': 'request',
      'internal.serving.kserve.io/logger-metadata-headers': 'a,b',
      'internal.serving.kserve.io/batcher': 'true',
      'internal.serving.kserve.io/batcher-max-batchsize': '16',
      'internal.serving.kserve.io/batcher-max-latency': '300',
    });
  });

  it("a storage spec (addStorageSpecAnnotations: parameters as Go's JSON, the path behind the scheme placeholder)", () => {
    const spec = {
      predictor: { model: { modelFormat: { name: 'sklearn' }, storage: { key: 'k', path: '/models/m', parameters: { type: 's3', bucket: 'b' } } } },
    };
    const related: KubeObject[] = [
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'storage-config', namespace: 'ml' },
        data: { k: Buffer.from('{"type":"s3","bucket":"b"}').toString('base64') },
      },
    ];
    const a = child(runSync(inferenceservice, { parent: isvc(spec), config, related }), 'Deployment', 'demo-predictor').metadata.annotations;
    expect(a).toMatchObject({
      'internal.serving.kserve.io/storage-spec': 'true',
      'internal.serving.kserve.io/storage-spec-param': '{"bucket":"b","type":"s3"}',
      'internal.serving.kserve.io/storage-spec-key': 'k',
      'internal.serving.kserve.io/storage-initializer-sourceuri': '<scheme-placeholder>://models/m',
    });
  });
});

describe("what KServe's pod webhook leaves on every pod (pkg/webhook/admission/pod/metrics_aggregate_injector.go InjectMetricsAggregator)", () => {
  it('enable-metric-aggregation and enable-prometheus-scraping as the shipped metricsAggregator says ("false"), no prometheus.io/port', () => {
    const a = podMeta(runSync(inferenceservice, { parent: isvc(sklearn), config })).annotations;
    expect(a['serving.kserve.io/enable-metric-aggregation']).toBe('false');
    expect(a['serving.kserve.io/enable-prometheus-scraping']).toBe('false');
    expect(a['prometheus.io/port']).toBeUndefined();
  });

  it("scraping on: prometheus.io/port 9091 (constants.DefaultPodPrometheusPort) and path /metrics, over the user's", () => {
    const annotations = { 'serving.kserve.io/enable-prometheus-scraping': 'true', 'prometheus.io/port': '1234' };
    const a = podMeta(runSync(inferenceservice, { parent: isvc(sklearn, { annotations }), config })).annotations;
    expect(a).toMatchObject({ 'prometheus.io/port': '9091', 'prometheus.io/path': '/metrics', 'serving.kserve.io/enable-metric-aggregation': 'false' });
  });
});

describe('HPA and model car as KServe writes them', () => {
  it('the HPA has an empty behavior, which the API server fills (reconcilers/hpa/hpa_reconciler.go createHPA)', () => {
    expect(child(runSync(inferenceservice, { parent: isvc(sklearn), config }), 'HorizontalPodAutoscaler', 'demo-predictor').spec.behavior).toEqual({});
  });

  it('minReplicas equal to maxReplicas: still an HPA (min = max), no replicas on the Deployment; autoscalerClass none: replicas = minReplicas, no HPA (deployment_reconciler.go createRawDefaultDeployment, hpa_reconciler.go createHPA, shouldCreateHPA)', () => {
    const pinned = runSync(inferenceservice, { parent: isvc({ predictor: { ...sklearn.predictor, minReplicas: 3, maxReplicas: 3 } }), config });
    expect(child(pinned, 'Deployment', 'demo-predictor').spec.replicas).toBeUndefined();
    expect(child(pinned, 'HorizontalPodAutoscaler', 'demo-predictor').spec).toMatchObject({ minReplicas: 3, maxReplicas: 3 });
    const none = runSync(inferenceservice, {
      parent: isvc({ predictor: { ...sklearn.predictor, minReplicas: 3, maxReplicas: 3 } }, { annotations: { 'serving.kserve.io/autoscalerClass': 'none' } }),
      config,
    });
    expect(child(none, 'Deployment', 'demo-predictor').spec.replicas).toBe(3);
    expect(none.child('HorizontalPodAutoscaler', 'demo-predictor')).toBeUndefined();
  });

  describe('autoScaling.metrics, as getHPAMetrics reads them (reconcilers/hpa/hpa_reconciler.go)', () => {
    const hpaOf = (predictor: Record<string, unknown>) =>
      child(
        runSync(inferenceservice, { parent: isvc({ predictor: { ...sklearn.predictor, ...predictor } }), config }),
        'HorizontalPodAutoscaler',
        'demo-predictor',
      ).spec;
    const resource = (name: string, target: Record<string, unknown>) => ({ type: 'Resource', resource: { name, target } });

    it('memory AverageValue and Utilization, cpu at its utilization or 80 whatever its type, in order; scaleMetric and scaleTarget no longer read', () => {
      const metrics = [
        resource('memory', { type: 'AverageValue', averageValue: '1Gi' }),
        resource('cpu', { type: 'AverageValue', averageValue: '2' }),
        resource('memory', { type: 'Utilization', averageUtilization: 70 }),
        resource('cpu', { type: 'Utilization', averageUtilization: 60 }),
      ];
      expect(hpaOf({ minReplicas: 1, maxReplicas: 3, scaleMetric: 'cpu', scaleTarget: 50, autoScaling: { metrics } }).metrics).toEqual([
        resource('memory', { type: 'AverageValue', averageValue: '1Gi' }),
        resource('cpu', { type: 'Utilization', averageUtilization: 80 }),
        resource('memory', { type: 'Utilization', averageUtilization: 70 }),
        resource('cpu', { type: 'Utilization', averageUtilization: 60 }),
      ]);
    });

    it("External and PodMetric (KEDA's) give no HPA metric; none left: no metrics, the API server's cpu 80 %, not scaleTarget", () => {
      const external = { type: 'External', external: { metric: { backend: 'prometheus', query: 'q' }, target: { type: 'Value', value: '10' } } };
      expect(hpaOf({ scaleTarget: 50, autoScaling: { metrics: [external] } }).metrics).toBeUndefined();
      expect(hpaOf({ scaleTarget: 50, autoScaling: {} }).metrics).toBeUndefined();
      expect(hpaOf({ scaleTarget: 50 }).metrics).toEqual([resource('cpu', { type: 'Utilization', averageUtilization: 50 })]);
    });

    it('a memory target the API server would refuse in an HPA (Value; a type without its value) gives none', () => {
      const metrics = [
        resource('memory', { type: 'Value', value: '1Gi' }),
        resource('memory', { type: 'Utilization' }),
        resource('memory', { type: 'AverageValue' }),
      ];
      expect(hpaOf({ autoScaling: { metrics } }).metrics).toBeUndefined();
    });

    it('is acted on, so not named in IgnoredFields', () => {
      const out = runSync(inferenceservice, { parent: isvc({ predictor: { ...sklearn.predictor, autoScaling: { metrics: [] } } }), config });
      expect(out.condition('IgnoredFields')).toBeUndefined();
    });
  });

  it('INFERENCE_SERVICE_NAME before MODEL_INIT_MODE on the server, none on the model car (buildPredictorResources runs before pkg/utils/storage.go ConfigureModelcarToContainer)', () => {
    const out = runSync(inferenceservice, { parent: isvc({ predictor: { sklearn: { storageUri: 'oci://quay.io/m:1' } } }), config });
    const containers = child(out, 'Deployment', 'demo-predictor').spec.template.spec.containers as Obj[];
    expect(containers.find((c) => c.name === 'kserve-container')?.env.map((e: Obj) => e.name)).toEqual(['INFERENCE_SERVICE_NAME', 'MODEL_INIT_MODE']);
    expect(containers.find((c) => c.name === 'modelcar')?.env).toBeUndefined();
  });
});

describe('the pod template name and the Ingress rules in KServe order', () => {
  it('the pod template is named after the Deployment (deployment_reconciler.go createRawDefaultDeployment: podMetadata := componentMeta)', () => {
    expect(podMeta(runSync(inferenceservice, { parent: isvc(sklearn), config })).name).toBe('demo-predictor');
  });

  it('rules: top, explainer, predictor; with a transformer: explainer, top, transformer, predictor (kube_ingress_reconciler.go createRawIngress)', () => {
    const explainer = { containers: [{ image: 'me/e:1' }] };
    const hostsOf = (spec: Record<string, unknown>) =>
      (child(converge(inferenceservice, { parent: isvc(spec), config }).result, 'Ingress', 'demo').spec.rules as Obj[]).map((r) => r.host.split('.')[0]);
    expect(hostsOf({ ...sklearn, explainer })).toEqual(['demo-ml', 'demo-explainer-ml', 'demo-predictor-ml']);
    expect(hostsOf({ ...sklearn, explainer, transformer: { containers: [{ image: 'me/t:1' }] } })).toEqual([
      'demo-explainer-ml',
      'demo-ml',
      'demo-transformer-ml',
      'demo-predictor-ml',
    ]);
  });
});

describe('the Ingress once the components callers enter through are ready (reconcilers/ingress/kube_ingress_reconciler.go createRawIngress)', () => {
  const explainer = { containers: [{ image: 'me/e:1' }] };
  const transformer = { containers: [{ image: 'me/t:1' }] };
  /** A sync with these of the first sync's children observed, made ready. */
  const syncWith = (spec: Record<string, unknown>, readyNames: string[], meta: Parameters<typeof isvc>[1] = {}) => {
    const first = runSync(inferenceservice, { parent: isvc(spec, meta), config });
    const observed = first.children.filter((c) => readyNames.includes(c.metadata.name) || c.kind !== 'Deployment').map((c) => ready(c));
    return runSync(inferenceservice, { parent: isvc(spec, meta), config, observed });
  };
  const ingressReady = (out: ReturnType<typeof runSync>) => {
    const c = out.condition('IngressReady');
    return [c?.status, c?.reason];
  };

  it('none before the predictor is ready: IngressReady False PredictorNotReady ("Predictor ingress not created"), no url', () => {
    const out = runSync(inferenceservice, { parent: isvc(sklearn), config });
    expect(out.child('Ingress', 'demo')).toBeUndefined();
    expect(ingressReady(out)).toEqual(['False', 'PredictorNotReady']);
    expect(out.condition('IngressReady')?.message).toContain('Predictor ingress not created');
    expect(out.status.url).toBeUndefined();
    expect(syncWith(sklearn, ['demo-predictor']).child('Ingress', 'demo')).toBeDefined();
  });

  it('with a transformer, it waits for the transformer too (TransformerNotReady); with an explainer and no transformer, for the explainer', () => {
    const withTransformer = { ...sklearn, transformer, explainer };
    expect(syncWith(withTransformer, ['demo-predictor']).child('Ingress', 'demo')).toBeUndefined();
    expect(ingressReady(syncWith(withTransformer, ['demo-predictor']))).toEqual(['False', 'TransformerNotReady']);
    // KServe does not wait for the explainer once there is a transformer.
    expect(syncWith(withTransformer, ['demo-predictor', 'demo-transformer']).child('Ingress', 'demo')).toBeDefined();
    const withExplainer = { ...sklearn, explainer };
    expect(ingressReady(syncWith(withExplainer, ['demo-predictor']))).toEqual(['False', 'ExplainerNotReady']);
    expect(syncWith(withExplainer, ['demo-predictor', 'demo-explainer']).child('Ingress', 'demo')).toBeDefined();
  });

  it('once made it stays when the predictor is no longer ready (KServe never deletes it for that); cluster-local: none, IngressReady True', () => {
    const made = converge(inferenceservice, { parent: isvc(sklearn), config }).result;
    const ingress = made.child('Ingress', 'demo') as KubeObject;
    const unready = made.children.filter((c) => c.kind !== 'Deployment' && c.kind !== 'Ingress').map((c) => ready(c));
    const out = runSync(inferenceservice, { parent: isvc(sklearn), config, observed: [...unready, ready(ingress)] });
    expect(out.child('Ingress', 'demo')).toEqual(ingress);
    expect(out.condition('IngressReady')?.status).toBe('True');
    const local = runSync(inferenceservice, { parent: isvc(sklearn, { labels: { 'networking.kserve.io/visibility': 'cluster-local' } }), config });
    expect(ingressReady(local)).toEqual(['True', 'ClusterLocal']);
  });
});

describe('an InferenceService as KServe v0.20.0 stored it (the takeover: test/oracle/migration.oracle.ts)', () => {
  it('model.name "" is the default kserve-container: corev1.Container.Name has no omitempty, so KServe\'s defaulting webhook stores it (pkg/apis/serving/v1beta1/predictor_model.go)', () => {
    const stored = isvc({
      predictor: { model: { name: '', modelFormat: { name: 'sklearn' }, storageUri: 'gs://kfserving-examples/models/sklearn/1.0/model' } },
    });
    const out = runSync(inferenceservice, { parent: stored, config });
    const d = out.children.find((o) => o.kind === 'Deployment') as KubeObject;
    expect(d, JSON.stringify(out.status)).toBeDefined();
    const containers = (d.spec as { template: { spec: { containers: Array<{ name: string }> } } }).template.spec.containers;
    expect(containers[0]?.name).toBe('kserve-container');
  });
});
