// A composition of your own, written with the kit: an `Echo` custom resource runs an HTTP
// echo server that answers with its message. The message lives in a ConfigMap; the pods read
// it at start, so the Deployment's pod template carries a hash of it to roll them when it
// changes. A Service sits in front. Its tests are in echo.test.ts.
//
// It has the shape of the built-in compositions, whose parts are files of hooks/<name>/:
// spec.ts, names.ts, status.ts, one builder per child kind, and index.ts (the definition and
// its sync). Here each part is a section of one file, under the same names.
import { z } from 'zod';
import {
  childMeta,
  childName,
  defineComposition,
  deploymentReadiness,
  fromReadiness,
  type KubeObject,
  type Parent,
  readyConditions,
  restrictedContainer,
  restrictedPod,
  type StampInput,
  shortHash,
  standardLabels,
} from 'modelhooks/kit';

// spec: the schema of the spec, which becomes the CRD's (defaults included).
export const echoSpec = z.object({
  message: z.string().min(1).describe('What the server answers.'),
  replicas: z.number().int().min(0).default(1).describe('How many echo servers run.'),
});
type EchoSpec = z.infer<typeof echoSpec>;
type Echo = Parent<EchoSpec>;

// names: every child name, label and selector.
const nameOf = (p: Echo) => childName([p.metadata.name]);
const serviceName = (p: Echo) => childName([p.metadata.name], { dns1035: true });
const labelsFor = (p: Echo) => standardLabels({ name: 'echo', instance: p.metadata.name, component: 'server', partOf: 'echo' });
export const selectorFor = (p: Echo) => ({ 'app.kubernetes.io/instance': labelsFor(p)['app.kubernetes.io/instance'] });

// status: the condition tree as data. The kit derives Ready from what it depends on and keeps
// each condition's lastTransitionTime while its status does not change.
const DEPLOYMENT_READY = 'DeploymentReady';
export const conditionTree = readyConditions([{ type: DEPLOYMENT_READY, means: 'the echo Deployment is available' }], {
  ready: { reason: 'EchoReady', message: 'the echo server answers' },
});

export function statusFrom(input: StampInput, deployment: KubeObject | undefined): Record<string, unknown> {
  const decided = [fromReadiness(DEPLOYMENT_READY, deploymentReadiness(deployment))];
  return { conditions: conditionTree.summarise(input, decided).conditions };
}

// One builder per child kind, each built fresh from the spec.
const messageOf = (p: Echo) => ({ message: p.spec.message });

function configMapFor(p: Echo): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: childMeta(p, nameOf(p), labelsFor(p)), data: messageOf(p) };
}

function deploymentFor(p: Echo): KubeObject {
  const server = {
    name: 'echo',
    image: 'hashicorp/http-echo:1.0',
    args: ['-listen=:5678', '-text=$(ECHO_TEXT)'],
    env: [{ name: 'ECHO_TEXT', valueFrom: { configMapKeyRef: { name: nameOf(p), key: 'message' } } }],
    ports: [{ name: 'http', containerPort: 5678 }],
    readinessProbe: { httpGet: { path: '/health', port: 'http' } },
    livenessProbe: { httpGet: { path: '/health', port: 'http' } },
    resources: { requests: { cpu: '10m', memory: '16Mi' }, limits: { memory: '32Mi' } },
    securityContext: restrictedContainer({ readOnlyRootFilesystem: true }),
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: childMeta(p, nameOf(p), labelsFor(p)),
    spec: {
      replicas: p.spec.replicas,
      selector: { matchLabels: selectorFor(p) },
      template: {
        // A new message changes the template, so the pods restart and read it.
        metadata: { labels: labelsFor(p), annotations: { 'example.dev/message-hash': shortHash(messageOf(p)) } },
        spec: { securityContext: restrictedPod(65532), containers: [server] },
      },
    },
  };
}

function serviceFor(p: Echo): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMeta(p, serviceName(p), labelsFor(p)),
    spec: { selector: selectorFor(p), ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
  };
}

// index: the definition, and a sync that reads top to bottom.
export const echo = defineComposition<EchoSpec>({
  name: 'echo',
  parent: { group: 'example.dev', kind: 'Echo', plural: 'echoes', singular: 'echo', versions: ['v1'] },
  spec: echoSpec,
  children: [
    { apiVersion: 'v1', kind: 'ConfigMap', resource: 'configmaps' },
    { apiVersion: 'apps/v1', kind: 'Deployment', resource: 'deployments' },
    { apiVersion: 'v1', kind: 'Service', resource: 'services' },
  ],
  sync(input) {
    const { parent } = input;
    // 1. Observe: how far the Deployment got.
    const deployment = input.observed.get('apps/v1', 'Deployment', nameOf(parent));
    // 2. Status: Ready follows the Deployment.
    const status = statusFrom(input, deployment);
    // 3. Desired children.
    return { status, children: [configMapFor(parent), deploymentFor(parent), serviceFor(parent)] };
  },
});
