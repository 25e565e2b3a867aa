import { describe, expect, it } from 'vitest';
import { config, graph, NS, run, sklearn } from './support.js';

/*
 * The router's children, field by field, as KServe v0.20.0 builds them in raw ("Standard")
 * mode. Paths are in github.com/kserve/kserve at tag v0.20.0; `raw_ig.go` and `controller.go`
 * are under pkg/controller/v1alpha1/inferencegraph/, the reconcilers under
 * pkg/controller/v1beta1/inferenceservice/reconcilers/.
 */

const parent = graph(
  { nodes: { root: { routerType: 'Sequence', steps: [{ serviceName: 'sklearn-iris' }] } } },
  { labels: { team: 'a' }, annotations: { note: 'x' } },
);
const out = run(parent, { related: [sklearn('sklearn-iris')] });
const d = out.child('Deployment', 'g') as any;
const pod = d.spec.template.spec;
const c = pod.containers[0];
const svc = out.child('Service', 'g') as any;
const hpa = out.child('HorizontalPodAutoscaler', 'g') as any;

interface Row {
  field: string;
  cite: string;
  actual: () => unknown;
  expected: unknown;
}

const rows: Row[] = [
  {
    field: "the pods' labels: KServe's only (the graph's, its label, app), so a Deployment KServe made is not rolled",
    cite: 'raw_ig.go constructForRawDeployment; deployment_reconciler.go createRawDefaultDeployment (podMetadata.Labels["app"])',
    actual: () => d.spec.template.metadata.labels,
    expected: { team: 'a', 'serving.kserve.io/inferencegraph': 'g', app: 'isvc.g' },
  },
  { field: 'no liveness probe', cite: 'raw_ig.go createInferenceGraphPodSpec (ReadinessProbe only)', actual: () => c.livenessProbe, expected: undefined },
  {
    field: 'the pod security context: empty unless the Namespace enforces restricted',
    cite: 'deployment_reconciler.go setDefaultPodSpec (SecurityContext = &PodSecurityContext{})',
    actual: () => pod.securityContext,
    expected: {},
  },
  {
    field: 'the Service port named after the graph',
    cite: 'service_reconciler.go createDefaultSvc (Name: componentMeta.Name for a container without ports)',
    actual: () => svc.spec.ports[0].name,
    expected: 'g',
  },
  {
    field: 'HPA behavior {}',
    cite: 'hpa_reconciler.go createHPA (Behavior: &HorizontalPodAutoscalerBehavior{})',
    actual: () => hpa.spec.behavior,
    expected: {},
  },
  { field: 'Deployment name: the graph name', cite: 'raw_ig.go constructForRawDeployment (Name: graph.Name)', actual: () => d.metadata.name, expected: 'g' },
  { field: 'container name: the graph name', cite: 'raw_ig.go createInferenceGraphPodSpec (Name: graph.Name)', actual: () => c.name, expected: 'g' },
  {
    field: 'container args',
    cite: 'raw_ig.go createInferenceGraphPodSpec (Args: --graph-json, json.Marshal(graph.Spec))',
    actual: () => c.args[0],
    expected: '--graph-json',
  },
  {
    field: 'image: the router entry of inferenceservice-config',
    cite: 'config/configmap/inferenceservice.yaml router.image (kserve/router, the release tag)',
    actual: () => c.image,
    expected: 'kserve/router:v0.20.0',
  },
  {
    field: 'imagePullPolicy',
    cite: 'config/configmap/inferenceservice.yaml router.imagePullPolicy',
    actual: () => c.imagePullPolicy,
    expected: 'IfNotPresent',
  },
  {
    field: 'resources without spec.resources',
    cite: 'knative_reconciler.go constructResourceRequirements; inferenceservice.yaml router cpu/memory',
    actual: () => c.resources,
    expected: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '100m', memory: '100Mi' } },
  },
  {
    field: 'readiness probe',
    cite: 'pkg/constants/constants.go GetRouterReadinessProbe (RouterReadinessEndpoint /readyz, RouterPort 8080)',
    actual: () => c.readinessProbe,
    expected: {
      httpGet: { path: '/readyz', port: 8080, scheme: 'HTTP' },
      initialDelaySeconds: 5,
      timeoutSeconds: 2,
      periodSeconds: 5,
      successThreshold: 1,
      failureThreshold: 3,
    },
  },
  {
    field: 'container security context',
    cite: 'raw_ig.go createInferenceGraphPodSpec (SecurityContext)',
    actual: () => ({ ...c.securityContext }),
    expected: { privileged: false, runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
  },
  {
    field: 'no service account token',
    cite: 'raw_ig.go createInferenceGraphPodSpec (AutomountServiceAccountToken false)',
    actual: () => pod.automountServiceAccountToken,
    expected: false,
  },
  {
    field: 'no container ports (the Service targets 8080)',
    cite: 'raw_ig.go createInferenceGraphPodSpec (no Ports)',
    actual: () => c.ports,
    expected: undefined,
  },
  {
    field: 'no env without router headers config',
    cite: 'raw_ig.go createInferenceGraphPodSpec (PROPAGATE_HEADERS only with headers.propagate)',
    actual: () => c.env,
    expected: undefined,
  },
  {
    field: 'selector app: isvc.<n>',
    cite: 'reconcilers/deployment/deployment_reconciler.go createRawDefaultDeployment (GetRawServiceLabel)',
    actual: () => d.spec.selector.matchLabels,
    expected: { app: 'isvc.g' },
  },
  {
    field: 'label serving.kserve.io/inferencegraph',
    cite: 'raw_ig.go constructForRawDeployment (constants.InferenceGraphLabel)',
    actual: () => d.spec.template.metadata.labels['serving.kserve.io/inferencegraph'],
    expected: 'g',
  },
  {
    field: "the graph's labels on the pods",
    cite: 'raw_ig.go constructForRawDeployment (labels := graph.Labels)',
    actual: () => d.spec.template.metadata.labels.team,
    expected: 'a',
  },
  {
    field: "the graph's annotations on the Deployment",
    cite: 'raw_ig.go constructForRawDeployment (annotations := graph.Annotations)',
    actual: () => d.metadata.annotations,
    expected: { note: 'x' },
  },
  {
    field: 'replicas left to the HPA',
    cite: 'deployment_reconciler.go createRawDefaultDeployment (Replicas only for autoscalerClass none)',
    actual: () => d.spec.replicas,
    expected: undefined,
  },
  {
    field: 'Service name',
    cite: 'reconcilers/service/service_reconciler.go createDefaultSvc (ObjectMeta: componentMeta)',
    actual: () => svc.metadata.name,
    expected: 'g',
  },
  {
    field: 'Service port 80 → 8080 (port named http here; KServe names it after the graph)',
    cite: 'service_reconciler.go createDefaultSvc (no container ports: CommonDefaultHttpPort → InferenceServiceDefaultHttpPort)',
    actual: () => svc.spec.ports.map((p: any) => [p.port, p.targetPort, p.protocol]),
    expected: [[80, 8080, 'TCP']],
  },
  {
    field: 'Service selector',
    cite: 'service_reconciler.go createDefaultSvc (GetRawServiceLabel)',
    actual: () => svc.spec.selector,
    expected: { app: 'isvc.g' },
  },
  {
    field: 'HPA min and max',
    cite: 'reconcilers/hpa/hpa_reconciler.go createHPA (DefaultMinReplicas 1; max at least min)',
    actual: () => [hpa.spec.minReplicas, hpa.spec.maxReplicas],
    expected: [1, 1],
  },
  {
    field: 'HPA metric: cpu 80 %',
    cite: 'hpa_reconciler.go getHPAMetrics (DefaultCPUUtilization)',
    actual: () => hpa.spec.metrics,
    expected: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
  },
];

describe('InferenceGraph router: children as KServe v0.20 raw mode builds them', () => {
  for (const r of rows) it(`${r.field} (${r.cite})`, () => expect(r.actual()).toEqual(r.expected));
});

describe('InferenceGraph router: the spec reaches the pod and the HPA', () => {
  const spec = {
    nodes: { root: { routerType: 'Switch', steps: [{ serviceUrl: 'http://a/b', condition: 'x' }] } },
    resources: { limits: { cpu: '2' } },
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] }] },
      },
    },
    tolerations: [{ key: 'router', operator: 'Exists', effect: 'NoSchedule' }],
    nodeSelector: { pool: 'routers' },
    nodeName: 'node-1',
    serviceAccountName: 'router-sa',
    minReplicas: 0,
    maxReplicas: 5,
    scaleMetric: 'rps',
  };
  const o = run(graph(spec));
  const p = (o.child('Deployment', 'g') as any).spec.template.spec;
  it('affinity, tolerations, nodeSelector, nodeName, serviceAccountName (raw_ig.go createInferenceGraphPodSpec)', () => {
    expect([p.affinity, p.tolerations, p.nodeSelector, p.nodeName, p.serviceAccountName]).toEqual([
      spec.affinity,
      spec.tolerations,
      spec.nodeSelector,
      spec.nodeName,
      spec.serviceAccountName,
    ]);
  });
  it("the spec's resources replace all four defaults (knative_reconciler.go constructResourceRequirements)", () => {
    expect(p.containers[0].resources).toEqual({ limits: { cpu: '2' } });
  });
  it('minReplicas 0 → 1, rps gives no HPA metric (hpa_reconciler.go createHPA, getHPAMetrics)', () => {
    const h = o.child('HorizontalPodAutoscaler', 'g') as any;
    expect([h.spec.minReplicas, h.spec.maxReplicas, h.spec.metrics]).toEqual([1, 5, undefined]);
  });
  it('autoscalerClass none: no HPA, replicas = minReplicas (deployment_reconciler.go createRawDefaultDeployment)', () => {
    const none = run(graph({ ...spec, minReplicas: 3 }, { annotations: { 'serving.kserve.io/autoscalerClass': 'none' } }));
    expect(none.childrenOf('HorizontalPodAutoscaler')).toEqual([]);
    expect((none.child('Deployment', 'g') as any).spec.replicas).toBe(3);
  });
});

describe('InferenceGraph status', () => {
  it('url http://<n>-<ns>.<domain> once the router is available (raw_kube_reconciler.go createRawURL; raw_ig.go PropagateRawStatus)', () => {
    expect(out.status.url).toBeUndefined();
    const applied = out.children.map((ch) =>
      ch.kind === 'Deployment'
        ? {
            ...ch,
            metadata: { ...ch.metadata, generation: 1 },
            status: { observedGeneration: 1, replicas: 1, updatedReplicas: 1, availableReplicas: 1, conditions: [{ type: 'Available', status: 'True' }] },
          }
        : ch,
    );
    const ready = run(parent, { related: [sklearn('sklearn-iris')], observed: applied });
    expect(ready.status.url).toBe('http://g-kserve-test.example.com');
    expect(ready.condition('Ready')?.status).toBe('True');
  });
  it('serving.kserve.io/deploymentMode Serverless: UnsupportedDeploymentMode, nothing changed (controller.go: Knative mode builds a Knative Service)', () => {
    const kn = run(graph(parent.spec as Record<string, unknown>, { annotations: { 'serving.kserve.io/deploymentMode': 'Serverless' } }), {
      observed: [svcOf(out)],
    });
    expect(kn.condition('Ready')).toMatchObject({ status: 'False', reason: 'UnsupportedDeploymentMode' });
    expect(kn.children.map((ch) => `${ch.kind}/${ch.metadata.name}`)).toEqual(['Service/g']);
  });
});

describe('InferenceGraph exposure', () => {
  const host = 'g-kserve-test.example.com';
  it('an Ingress of another parent routing the graph host: IngressReady and Ready False/HostConflict naming it', () => {
    const other = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: {
        name: 'g-old',
        namespace: 'kserve-test',
        ownerReferences: [{ apiVersion: 'serving.kserve.io/v1beta1', kind: 'InferenceService', name: 'g', uid: 'other', controller: true }],
      },
      spec: { rules: [{ host }] },
    };
    const o = run(parent, { related: [sklearn('sklearn-iris'), other] });
    expect(o.condition('IngressReady')).toMatchObject({ status: 'False', reason: 'HostConflict' });
    expect(o.condition('IngressReady')?.message).toContain(`host ${host} is already routed by Ingress/g-old (owner: InferenceService/g)`);
    expect(o.condition('Ready')).toMatchObject({ status: 'False', reason: 'HostConflict' });
  });
  it('a domain template giving an invalid host: IngressReady False/InvalidHost, the running Ingress kept', () => {
    const ing = out.child('Ingress', 'g') as any;
    const observed = [{ ...ing, metadata: { ...ing.metadata, annotations: { 'metacontroller.k8s.io/last-applied-configuration': JSON.stringify(ing) } } }];
    const o = run(parent, {
      related: [sklearn('sklearn-iris')],
      observed,
      config: {
        ...config,
        inferencegraph: {
          ...(config as any).inferencegraph,
          ingress: { ...(config as any).inferencegraph.ingress, domainTemplate: '{{ .Name }}_{{ .Namespace }}.{{ .IngressDomain }}' },
        },
      } as any,
    });
    expect(o.condition('IngressReady')).toMatchObject({ status: 'False', reason: 'InvalidHost' });
    expect(o.child('Ingress', 'g')).toEqual(ing);
  });
});

describe('InferenceGraph stop annotation (controller.go: forceStopRuntime; deployment_reconciler.go, hpa_reconciler.go)', () => {
  const stopped = run(graph(parent.spec as Record<string, unknown>, { annotations: { 'serving.kserve.io/stop': 'true' } }), {
    related: [sklearn('sklearn-iris')],
    observed: out.children,
  });
  it('stopped: only the Service is kept; Stopped True, Ready False/Stopped, no url', () => {
    expect(stopped.children.map((ch) => `${ch.kind}/${ch.metadata.name}`)).toEqual(['Service/g']);
    expect(stopped.condition('Stopped')).toMatchObject({ status: 'True', reason: 'Stopped' });
    expect(stopped.condition('Ready')).toMatchObject({ status: 'False', reason: 'Stopped' });
    expect(stopped.status.url).toBeUndefined();
  });
  it('resumed (annotation removed): the router again, Stopped False', () => {
    const resumed = run({ ...parent, status: stopped.status }, { related: [sklearn('sklearn-iris')] });
    expect(resumed.child('Deployment', 'g')).toEqual(d);
    expect(resumed.condition('Stopped')).toMatchObject({ status: 'False', reason: 'Serving' });
  });
  it('never stopped: no Stopped condition (the status a graph always had)', () => {
    expect(out.condition('Stopped')).toBeUndefined();
  });
});

function svcOf(o: ReturnType<typeof run>) {
  return o.child('Service', 'g') as any;
}

describe("the router pod at the Namespace's pod security level (MODELHOOKS_POD_SECURITY=namespace)", () => {
  it('a Namespace enforcing restricted: seccomp RuntimeDefault and runAsNonRoot on the pod (the container is restricted already)', () => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } };
    const restricted = run(parent, { related: [sklearn('sklearn-iris'), ns] });
    expect((restricted.child('Deployment', 'g') as any).spec.template.spec.securityContext).toEqual({
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
    });
  });
});
