import { describe, expect, it } from 'vitest';
import { modelNameFromArgs } from '../../hooks/inferencegraph/endpoint.js';
import { graphJson } from '../../hooks/inferencegraph/graph.js';
import { inferencegraphSpec } from '../../hooks/inferencegraph/spec.js';
import { graph, graphArg, isvc, router, run } from './support.js';

/*
 * What the router receives (`--graph-json`, raw_ig.go createInferenceGraphPodSpec): Go's
 * encoding/json of v1alpha1.InferenceGraphSpec (pkg/apis/serving/v1alpha1/inference_graph.go,
 * KServe v0.20.0), after controller.go Reconcile filled each serviceName step's serviceUrl with
 * GetPredictorEndpoint (pkg/controller/v1beta1/inferenceservice/utils/utils.go).
 */

const json = (spec: unknown) => graphJson(inferencegraphSpec.parse(spec));

describe('--graph-json: encoding/json of InferenceGraphSpec', () => {
  const rows: Array<{ rule: string; cite: string; spec: unknown; expected: string }> = [
    {
      rule: 'serviceName is omitempty in v0.20.0 (v1alpha1/inference_graph.go InferenceTarget): left out when empty; resources is a struct: always written',
      cite: 'inference_graph.go InferenceTarget.ServiceName `json:"serviceName"`; InferenceGraphSpec.Resources (struct)',
      spec: { nodes: { root: { routerType: 'Switch', steps: [{ serviceUrl: 'http://a', condition: 'c' }] } } },
      expected: '{"nodes":{"root":{"routerType":"Switch","steps":[{"serviceUrl":"http://a","condition":"c"}]}},"resources":{}}',
    },
    {
      rule: 'map keys sorted; step fields in declaration order (name, nodeName, serviceName, serviceUrl, data, mapPredictionsToInstances, weight, condition, dependency)',
      cite: 'inference_graph.go InferenceStep, InferenceTarget (inline); encoding/json sorts map keys',
      spec: {
        nodes: {
          root: {
            routerType: 'Sequence',
            steps: [{ dependency: 'Hard', data: '$response', nodeName: 'zeta', name: 'first', mapPredictionsToInstances: true }],
          },
          zeta: { routerType: 'Splitter', steps: [{ weight: 100, serviceUrl: 'http://b' }] },
          alpha: { routerType: 'Ensemble' },
        },
      },
      expected:
        '{"nodes":{"alpha":{"routerType":"Ensemble"},"root":{"routerType":"Sequence","steps":[{"name":"first","nodeName":"zeta","data":"$response","mapPredictionsToInstances":true,"dependency":"Hard"}]},"zeta":{"routerType":"Splitter","steps":[{"serviceUrl":"http://b","weight":100}]}},"resources":{}}',
    },
    {
      rule: 'pointers written when set, even 0 (minReplicas, weight); maxReplicas (int32, omitempty) left out when 0; spec fields in declaration order',
      cite: 'inference_graph.go InferenceGraphSpec (MinReplicas *int32, MaxReplicas int32 omitempty, …), InferenceStep.Weight *int64',
      spec: {
        serviceAccountName: 'sa',
        nodeSelector: { z: '1', a: '2' },
        scaleMetric: 'cpu',
        scaleTarget: 50,
        maxReplicas: 0,
        minReplicas: 0,
        routerTimeouts: { serviceClient: 4, serverRead: 1 },
        timeout: 30,
        resources: { requests: { memory: '1Gi', cpu: '1' } },
        nodes: {
          root: {
            routerType: 'Splitter',
            steps: [
              { serviceUrl: 'http://a', weight: 0 },
              { serviceUrl: 'http://b', weight: 100 },
            ],
          },
        },
      },
      expected:
        '{"nodes":{"root":{"routerType":"Splitter","steps":[{"serviceUrl":"http://a","weight":0},{"serviceUrl":"http://b","weight":100}]}},"resources":{"requests":{"cpu":"1","memory":"1Gi"}},"timeout":30,"routerTimeouts":{"serverRead":1,"serviceClient":4},"minReplicas":0,"scaleTarget":50,"scaleMetric":"cpu","nodeSelector":{"a":"2","z":"1"},"serviceAccountName":"sa"}',
    },
  ];
  for (const r of rows) it(`${r.rule} (${r.cite})`, () => expect(json(r.spec)).toBe(r.expected));

  it('node names sorted as Go sorts map keys, bytewise, integer-like ones too ("10" before "9")', () => {
    const nodes = {
      root: { routerType: 'Sequence', steps: [{ nodeName: '9' }, { nodeName: '10' }] },
      '9': { routerType: 'Ensemble' },
      '10': { routerType: 'Ensemble' },
    };
    expect(Object.keys(JSON.parse(json({ nodes })).nodes)).toEqual(['9', '10', 'root']); // JSON.parse reorders; the text does not:
    expect(json({ nodes }).indexOf('"10":')).toBeLessThan(json({ nodes }).indexOf('"9":'));
    expect(json({ nodes }).indexOf('"9":')).toBeLessThan(json({ nodes }).indexOf('"root":'));
  });

  it('fields outside the Go struct are not passed (the CRD prunes them; json.Marshal of the struct cannot carry them)', () => {
    expect(json({ nodes: { root: { routerType: 'Sequence', steps: [{ serviceUrl: 'http://a', extra: 1 }], extra: 2 } }, extra: 3 })).toBe(
      '{"nodes":{"root":{"routerType":"Sequence","steps":[{"serviceUrl":"http://a"}]}},"resources":{}}',
    );
  });
});

describe('serviceUrl of a serviceName step: GetPredictorEndpoint (utils.go)', () => {
  const step = (spec: Record<string, unknown>, status?: Parameters<typeof isvc>[2]) => {
    const out = run(graph({ nodes: { root: { routerType: 'Sequence', steps: [{ serviceName: 'm' }] } } }), { related: [isvc('m', spec, status)] });
    return graphArg(out)?.nodes.root.steps[0].serviceUrl;
  };
  const base = 'http://m-predictor.kserve-test.svc.cluster.local';
  const rows: Array<{ case: string; cite: string; spec: Record<string, unknown>; expected: string }> = [
    {
      case: 'sklearn, no protocolVersion: v1 predict path, model named after the service',
      cite: 'predictor_sklearn.go GetProtocol (v1); constants.go PredictPath; utils.go GetModelName',
      spec: { predictor: { sklearn: { storageUri: 'gs://b' } } },
      expected: `${base}/v1/models/m:predict`,
    },
    {
      case: 'protocolVersion v2: v2 infer path',
      cite: 'predictor_model.go GetProtocol; constants.go PredictPath (ProtocolV2)',
      spec: { predictor: { model: { modelFormat: { name: 'sklearn' }, protocolVersion: 'v2', storageUri: 'gs://b' } } },
      expected: `${base}/v2/models/m/infer`,
    },
    {
      case: 'MLSERVER_MODEL_NAME names the model',
      cite: 'utils.go GetModelName (MLServerModelNameEnv)',
      spec: {
        predictor: {
          model: { modelFormat: { name: 'sklearn' }, protocolVersion: 'v2', storageUri: 'gs://b', env: [{ name: 'MLSERVER_MODEL_NAME', value: 'iris' }] },
        },
      },
      expected: `${base}/v2/models/iris/infer`,
    },
    {
      case: 'huggingface: v2 by default',
      cite: 'predictor_huggingfaceruntime.go GetProtocol',
      spec: { predictor: { huggingface: { args: ['--model_name=llm'] } } },
      expected: `${base}/v2/models/m/infer`,
    },
    {
      case: 'gRPC protocol: no path',
      cite: 'utils.go GetPredictorEndpoint (path only for v1 and v2)',
      spec: { predictor: { tensorflow: { storageUri: 'gs://b', protocolVersion: 'grpc-v2' } } },
      expected: base,
    },
    { case: 'no storageUri: a multi-model server, no path', cite: 'utils.go IsMMSPredictor', spec: { predictor: { sklearn: {} } }, expected: base },
    {
      case: 'custom container: PROTOCOL env and --model_name',
      cite: 'predictor_custom.go GetProtocol (PROTOCOL); utils.go getModelNameFromArgs',
      spec: {
        predictor: { containers: [{ name: 'kserve-container', image: 'i', args: ['--model_name', 'custom'], env: [{ name: 'PROTOCOL', value: 'v2' }] }] },
      },
      expected: `${base}/v2/models/custom/infer`,
    },
    {
      case: 'custom container with MULTI_MODEL_SERVER=true: no path',
      cite: 'utils.go IsMMSPredictor (CustomSpecMultiModelServerEnvVarKey)',
      spec: { predictor: { containers: [{ name: 'c', image: 'i', env: [{ name: 'MULTI_MODEL_SERVER', value: 'true' }] }] } },
      expected: base,
    },
    {
      case: 'a transformer: its protocol and its --model_name',
      cite: 'transformer_custom.go GetProtocol; utils.go GetModelName (transformer first)',
      spec: {
        predictor: { sklearn: { storageUri: 'gs://b' } },
        transformer: { containers: [{ name: 'kserve-container', image: 't', args: ['--model_name=tm'] }] },
      },
      expected: `${base}/v1/models/tm:predict`,
    },
  ];
  for (const r of rows) it(`${r.case} (${r.cite})`, () => expect(step(r.spec)).toBe(r.expected));

  it('getModelNameFromArgs quirks: `--model_name=a` then a following value wins; `--model_name x`', () => {
    expect(modelNameFromArgs(['--model_name=a'])).toBe('a');
    expect(modelNameFromArgs(['--model_name', 'b'])).toBe('b');
    expect(modelNameFromArgs(['--model_name=a', 'b'])).toBe('b');
    expect(modelNameFromArgs(['--model_name', '--port=1'])).toBe('');
  });

  it('the router gets nothing from an InferenceService without an address (controller.go: "service %s is not ready")', () => {
    const out = run(graph({ nodes: { root: { routerType: 'Sequence', steps: [{ serviceName: 'm' }] } } }), {
      related: [isvc('m', { predictor: { sklearn: { storageUri: 'gs://b' } } }, { address: '', ready: 'False' })],
    });
    expect(router(out)).toBeUndefined();
  });
});
