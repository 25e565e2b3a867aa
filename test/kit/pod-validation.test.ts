import { describe, expect, it } from 'vitest';
import { containerProblems, podSpecProblems } from '../../hooks/kit/index.js';
import { compareQuantities } from '../../hooks/kit/quantity.js';
import { childProblems } from '../../hooks/kit/children/child-problems.js';
import { isEnvVarName, isPortName, isQualifiedName } from '../../hooks/kit/pod-validation.js';

// Each row: a pod field the API server refuses (k8s.io/kubernetes v1.35 pkg/apis/core/validation/validation.go,
// k8s.io/apimachinery pkg/util/validation/validation.go: the function named in `reason`), and the path named.
const refused: Array<{ reason: string; pod: Record<string, unknown>; path: string }> = [
  { reason: 'validateContainerCommon → ValidateDNS1123Label: container name', pod: { containers: [{ name: 'A B' }] }, path: 'spec.containers[0].name' },
  { reason: 'ValidateEnv: empty env name', pod: { containers: [{ env: [{ name: '' }] }] }, path: 'spec.containers[0].env[0].name' },
  { reason: 'ValidateEnv → IsEnvVarName: starts with a digit', pod: { containers: [{ env: [{ name: '1X' }] }] }, path: 'spec.containers[0].env[0].name' },
  { reason: 'ValidateEnvFrom → IsEnvVarName: prefix', pod: { containers: [{ envFrom: [{ prefix: 'a b' }] }] }, path: 'spec.containers[0].envFrom[0].prefix' },
  { reason: 'ValidatePodSpec → ValidateLabels: nodeSelector key', pod: { nodeSelector: { 'a b': 'x' } }, path: 'spec.nodeSelector["a b"]' },
  { reason: 'ValidatePodSpec → ValidateLabels: nodeSelector value of 64', pod: { nodeSelector: { k: 'v'.repeat(64) } }, path: 'spec.nodeSelector["k"]' },
  { reason: 'ValidateTolerations: operator Bogus', pod: { tolerations: [{ key: 'k', operator: 'Bogus' }] }, path: 'spec.tolerations[0].operator' },
  {
    reason: 'ValidateTolerations: Exists with a value',
    pod: { tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] },
    path: 'spec.tolerations[0].value',
  },
  { reason: 'ValidateTolerations: empty key needs Exists', pod: { tolerations: [{ operator: 'Equal' }] }, path: 'spec.tolerations[0].operator' },
  {
    reason: 'ValidateTolerations → validateTaintEffect',
    pod: { tolerations: [{ operator: 'Exists', effect: 'Sometimes' }] },
    path: 'spec.tolerations[0].effect',
  },
  {
    reason: 'ValidateTolerations: tolerationSeconds without NoExecute',
    pod: { tolerations: [{ operator: 'Exists', tolerationSeconds: 5 }] },
    path: 'spec.tolerations[0].effect',
  },
  { reason: 'ValidateVolumes → ValidateDNS1123Label: volume name', pod: { volumes: [{ name: 'A B', emptyDir: {} }] }, path: 'spec.volumes[0].name' },
  { reason: 'ValidatePodSpec → ValidatePriorityClassName (NameIsDNSSubdomain)', pod: { priorityClassName: 'high\n' }, path: 'spec.priorityClassName' },
  { reason: 'ValidatePodSpec → ValidateServiceAccountName', pod: { serviceAccountName: 'Bad_SA' }, path: 'spec.serviceAccountName' },
  { reason: 'ValidatePodSpec → ValidateNodeName', pod: { nodeName: 'node-' }, path: 'spec.nodeName' },
  { reason: 'validateContainerOnlyForPod: image with a trailing space', pod: { containers: [{ image: 'img ' }] }, path: 'spec.containers[0].image' },
  { reason: 'validatePullPolicy', pod: { containers: [{ imagePullPolicy: 'Sometimes' }] }, path: 'spec.containers[0].imagePullPolicy' },
  {
    reason: 'validateResourceRequirements: request above limit',
    pod: { containers: [{ resources: { requests: { cpu: '2' }, limits: { cpu: '1500m' } } }] },
    path: 'spec.containers[0].resources.requests["cpu"]',
  },
  {
    reason: 'validateResourceRequirements: hugepages request must equal its limit',
    pod: { containers: [{ resources: { requests: { 'hugepages-2Mi': '2Mi', cpu: '1' }, limits: { 'hugepages-2Mi': '4Mi' } } }] },
    path: 'spec.containers[0].resources.requests["hugepages-2Mi"]',
  },
  {
    reason: 'validateContainerResourceName: not a standard container resource',
    pod: { containers: [{ resources: { limits: { pods: '1' } } }] },
    path: 'spec.containers[0].resources.limits["pods"]',
  },
  {
    reason: 'validateContainerPorts → IsValidPortNum',
    pod: { containers: [{ ports: [{ containerPort: 65536 }] }] },
    path: 'spec.containers[0].ports[0].containerPort',
  },
  {
    reason: 'validateContainerPorts → IsValidPortName',
    pod: { containers: [{ ports: [{ containerPort: 80, name: 'http--x' }] }] },
    path: 'spec.containers[0].ports[0].name',
  },
  {
    reason: 'validateContainerPorts: duplicate port name',
    pod: {
      containers: [
        {
          ports: [
            { containerPort: 80, name: 'http' },
            { containerPort: 81, name: 'http' },
          ],
        },
      ],
    },
    path: 'spec.containers[0].ports[1].name',
  },
  { reason: 'validateContainers: duplicate container name', pod: { containers: [{ name: 'a' }, { name: 'a' }] }, path: 'spec.containers[1].name' },
  {
    reason: 'ValidateVolumeMounts: a mount names a volume (a DNS-1123 label)',
    pod: { containers: [{ volumeMounts: [{ name: 'a.b', mountPath: '/x' }] }] },
    path: 'spec.containers[0].volumeMounts[0].name',
  },
  {
    reason: 'ValidateVolumeMounts: unique mount paths',
    pod: {
      containers: [
        {
          volumeMounts: [
            { name: 'a', mountPath: '/x' },
            { name: 'b', mountPath: '/x' },
          ],
        },
      ],
    },
    path: 'spec.containers[0].volumeMounts[1].mountPath',
  },
  { reason: 'the decoder: a field of the wrong type', pod: { hostname: 5 }, path: 'spec.hostname' },
];

describe('podSpecProblems: what the API server refuses, named by its path', () => {
  it.each(refused)('$reason', ({ pod, path }) => {
    expect(podSpecProblems(pod, 'spec').map((p) => p.path)).toContain(path);
  });

  it('accepts what the API server accepts', () => {
    const pod = {
      nodeSelector: { 'kubernetes.io/os': 'linux', pool: '' },
      tolerations: [
        { operator: 'Exists' },
        { key: 'gpu', operator: 'Equal', value: 'a100', effect: 'NoExecute', tolerationSeconds: 30 },
        { key: 'x', value: 'y' },
      ],
      volumes: [{ name: 'scratch', emptyDir: {} }],
      priorityClassName: 'system.high',
      serviceAccountName: 'models-sa',
      containers: [
        {
          name: 'kserve-container',
          image: 'kserve/sklearnserver:v0.20.0',
          env: [{ name: 'my.env-name' }, { name: 'MY_ENV.NAME', value: '' }, { name: '_x' }],
          ports: [{ containerPort: 8080, name: 'h2c', protocol: 'TCP' }],
          resources: { requests: { cpu: '100m', memory: '1Gi', 'nvidia.com/gpu': '1' }, limits: { cpu: '0.1', memory: '1073741824', 'nvidia.com/gpu': 1 } },
          volumeMounts: [{ name: 'scratch', mountPath: '/tmp' }],
        },
      ],
    };
    expect(podSpecProblems(pod, 'spec')).toEqual([]);
    expect(podSpecProblems(pod, 'spec', { complete: true })).toEqual([]);
  });

  it('a whole pod (a child template) needs containers with names and images, and mounts of its volumes', () => {
    expect(podSpecProblems({}, 's', { complete: true }).map((p) => p.path)).toEqual(['s.containers']);
    const paths = podSpecProblems({ containers: [{ volumeMounts: [{ name: 'nope', mountPath: '/x' }] }] }, 's', { complete: true }).map((p) => p.path);
    expect(paths).toEqual(['s.containers[0].name', 's.containers[0].image', 's.containers[0].volumeMounts[0].name']);
  });

  it('containerProblems checks one container the same way (a model key of an InferenceService)', () => {
    expect(
      containerProblems({ image: ' x', resources: { requests: { memory: '2Gi' }, limits: { memory: '1Gi' } } }, 'spec.predictor.sklearn').map((p) => p.path),
    ).toEqual(['spec.predictor.sklearn.image', 'spec.predictor.sklearn.resources.requests["memory"]']);
  });
});

describe('apimachinery name rules', () => {
  it.each([
    ['IsEnvVarName', isEnvVarName, ['A', 'a.b', '-x', '_1', 'x..y'], ['', '1a', 'a b', 'a=b', '.', '..', '..a']],
    ['IsValidPortName', isPortName, ['http', 'h2c', 'a-1', 'x'.repeat(15)], ['', '80', '-a', 'a-', 'a--b', 'HTTP', 'x'.repeat(16)]],
    ['IsQualifiedName', isQualifiedName, ['a', 'A_b.c', 'example.com/x', 'a/b'], ['', 'a b', '/a', 'a/', 'a/b/c', 'Example.com/x', `${'a'.repeat(64)}`]],
  ] as const)('%s', (_, test, good, bad) => {
    for (const s of good) expect(test(s), s).toBe(true);
    for (const s of bad) expect(test(s), s).toBe(false);
  });
});

describe('compareQuantities (resource.Quantity.Cmp): exact', () => {
  it.each([
    ['1Gi', '1073741824', 0],
    ['100m', '0.1', 0],
    ['1e3', '1k', 0],
    ['1.5', '1500m', 0],
    ['2', '1999m', 1],
    ['512Mi', '0.5Gi', 0],
    ['1', '1001m', -1],
  ] as const)('%s vs %s', (a, b, order) => expect(compareQuantities(a, b)).toBe(order));
  it('is undefined for what is not a quantity', () => expect(compareQuantities('lots', '1')).toBeUndefined());
});

describe('childProblems: the engine’s last check on a child', () => {
  it('names the child and the field: a 64-character label value, a refused pod field', () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'ns', labels: { 'app.kubernetes.io/instance': 'a'.repeat(64) } },
      spec: {
        selector: { matchLabels: { app: 'd' } },
        template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'i', env: [{ name: '' }] }] } },
      },
    };
    expect(childProblems(deployment)).toEqual([
      'Deployment/d metadata.labels["app.kubernetes.io/instance"]: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa": not a label value (≤63 alphanumerics, -_. inside)',
      'Deployment/d spec.template.spec.containers[0].env[0].name: required',
    ]);
  });
  it('a Service name is a DNS-1035 label', () => {
    expect(childProblems({ apiVersion: 'v1', kind: 'Service', metadata: { name: '1svc' }, spec: {} })).toHaveLength(1);
  });
});

describe('extended resources and container field types', () => {
  it('ValidateResourceQuantityValue: an extended resource in whole units', () => {
    expect(containerProblems({ resources: { limits: { 'nvidia.com/gpu': '100m' } } }, 'c').map((p) => p.message)).toEqual(['"100m": must be an integer']);
    expect(containerProblems({ resources: { limits: { 'nvidia.com/gpu': 2, cpu: '100m' } } }, 'c')).toEqual([]);
  });
  it('the decoder: workingDir a string, args a list of strings', () => {
    expect(containerProblems({ workingDir: {}, args: ['a', 1] }, 'c').map((p) => p.path)).toEqual(['c.workingDir', 'c.args']);
  });
});

describe('what the e2e dry-run property found', () => {
  it('validateResourceQuantityHugePageValue: a multiple of the page size, with cpu or memory', () => {
    expect(containerProblems({ resources: { limits: { 'hugepages-2Mi': '2' } } }, 'c').map((p) => p.message)).toEqual([
      '"2": not a positive multiple of 2Mi',
      'HugePages require cpu or memory',
    ]);
    expect(containerProblems({ resources: { limits: { 'hugepages-2Mi': '4Mi', memory: '1Gi' }, requests: { 'hugepages-2Mi': '4Mi' } } }, 'c')).toEqual([]);
  });
  it('the strict decoder: affinity has three fields; an int64 is at most 2^63-1', () => {
    expect(podSpecProblems({ affinity: { nodeAffinity: {}, c: {} }, terminationGracePeriodSeconds: 1e21 }, 's').map((p) => p.path)).toEqual([
      's.affinity.c',
      's.terminationGracePeriodSeconds',
    ]);
  });
});
