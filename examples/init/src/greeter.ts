// Your composition: a `Greeter` custom resource becomes a Deployment of a small HTTP server
// that answers with the greeting, and a Service in front of it. Made by `modelhooks init`;
// docs/your-composition.md in the modelhooks package goes from here to `kubectl get greeter`.
//
// A composition is one object: the parent type, a zod schema of its spec (it becomes the
// CRD's schema, defaults included), the child types it may emit, and a pure `sync` that
// reads the observed children and answers the status and the desired children.
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
  standardLabels,
} from 'modelhooks/kit';

// spec: the schema of the spec, which becomes the CRD's (defaults included).
export const greeterSpec = z.object({
  greeting: z.string().min(1).default('Hello').describe('The first word of the answer.'),
  name: z.string().min(1).describe('Who is greeted.'),
  replicas: z.number().int().min(0).default(1).describe('How many servers answer.'),
});
type GreeterSpec = z.infer<typeof greeterSpec>;
type Greeter = Parent<GreeterSpec>;

// names: every child name, label and selector.
const nameOf = (p: Greeter) => childName([p.metadata.name]);
const serviceName = (p: Greeter) => childName([p.metadata.name], { dns1035: true });
const labelsFor = (p: Greeter) => standardLabels({ name: 'greeter', instance: p.metadata.name, component: 'server', partOf: 'greeter' });
export const selectorFor = (p: Greeter) => ({ 'app.kubernetes.io/instance': labelsFor(p)['app.kubernetes.io/instance'] });

// status: the condition tree as data. The kit derives Ready from what it depends on.
const DEPLOYMENT_READY = 'DeploymentReady';
export const conditionTree = readyConditions([{ type: DEPLOYMENT_READY, means: 'the greeter Deployment is available' }], {
  ready: { reason: 'GreeterReady', message: 'the greeter answers' },
});

export function statusFrom(input: StampInput, deployment: KubeObject | undefined): Record<string, unknown> {
  const decided = [fromReadiness(DEPLOYMENT_READY, deploymentReadiness(deployment))];
  return { conditions: conditionTree.summarise(input, decided).conditions };
}

// One builder per child kind, each built fresh from the spec.
function deploymentFor(p: Greeter): KubeObject {
  const server = {
    name: 'greeter',
    image: 'hashicorp/http-echo:1.0',
    args: ['-listen=:5678', `-text=${p.spec.greeting}, ${p.spec.name}!`],
    ports: [{ name: 'http', containerPort: 5678 }],
    readinessProbe: { httpGet: { path: '/health', port: 'http' } },
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
      template: { metadata: { labels: labelsFor(p) }, spec: { securityContext: restrictedPod(65532), containers: [server] } },
    },
  };
}

function serviceFor(p: Greeter): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMeta(p, serviceName(p), labelsFor(p)),
    spec: { selector: selectorFor(p), ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
  };
}

// The definition, and a sync that reads top to bottom.
export const greeter = defineComposition<GreeterSpec>({
  name: 'greeter',
  parent: { group: 'example.dev', kind: 'Greeter', plural: 'greeters', singular: 'greeter', versions: ['v1'] },
  spec: greeterSpec,
  children: [
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
    return { status, children: [deploymentFor(parent), serviceFor(parent)] };
  },
});
