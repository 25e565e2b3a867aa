// A composition of your own, written with the kit: an `Echo` custom resource runs an HTTP
// echo server that answers with its message. The message lives in a ConfigMap; the pods read
// it at start, so the Deployment's pod template carries a hash of it to roll them when it
// changes. A Service sits in front. Its tests are in echo.test.ts.
import { z } from 'zod';
import {
  childMeta,
  childName,
  condition,
  conditionsFor,
  defineComposition,
  deploymentReadiness,
  readyFrom,
  restrictedContainer,
  restrictedPod,
  shortHash,
  standardLabels,
  type KubeObject,
  type Parent,
} from 'modelhooks/kit';

const spec = z.object({
  message: z.string().min(1).describe('What the server answers.'),
  replicas: z.number().int().min(0).default(1).describe('How many echo servers run.'),
});
type EchoSpec = z.infer<typeof spec>;

const labelsOf = (p: Parent<EchoSpec>) => standardLabels({ name: 'echo', instance: p.metadata.name, component: 'server', partOf: 'echo' });
const selectorOf = (p: Parent<EchoSpec>) => ({ 'app.kubernetes.io/instance': labelsOf(p)['app.kubernetes.io/instance'] });
const nameOf = (p: Parent<EchoSpec>) => childName([p.metadata.name]);
const messageOf = (p: Parent<EchoSpec>) => ({ message: p.spec.message });

function configMapFor(p: Parent<EchoSpec>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: childMeta(p, nameOf(p), labelsOf(p)), data: messageOf(p) };
}

function deploymentFor(p: Parent<EchoSpec>): KubeObject {
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
    metadata: childMeta(p, nameOf(p), labelsOf(p)),
    spec: {
      replicas: p.spec.replicas,
      selector: { matchLabels: selectorOf(p) },
      template: {
        // A new message changes the template, so the pods restart and read it.
        metadata: { labels: labelsOf(p), annotations: { 'example.dev/message-hash': shortHash(messageOf(p)) } },
        spec: { securityContext: restrictedPod(65532), containers: [server] },
      },
    },
  };
}

function serviceFor(p: Parent<EchoSpec>): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMeta(p, childName([p.metadata.name], { dns1035: true }), labelsOf(p)),
    spec: { selector: selectorOf(p), ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
  };
}

export const echo = defineComposition<EchoSpec>({
  name: 'echo',
  parent: { group: 'example.dev', kind: 'Echo', plural: 'echoes', singular: 'echo', versions: ['v1'] },
  spec,
  children: [
    { apiVersion: 'v1', kind: 'ConfigMap', resource: 'configmaps' },
    { apiVersion: 'apps/v1', kind: 'Deployment', resource: 'deployments' },
    { apiVersion: 'v1', kind: 'Service', resource: 'services' },
  ],
  sync(input) {
    const { parent, observed } = input;
    // 1. Observe: how far the Deployment got.
    const deployment = observed.get('apps/v1', 'Deployment', nameOf(parent));
    const deployed = { type: 'DeploymentReady', ...deploymentReadiness(deployment) };
    // 2. Status: Ready follows the Deployment.
    const decided = [deployed.status === 'True' ? condition.true('DeploymentReady', 'Available') : deployed];
    // 3. Desired children, built fresh from the spec.
    return {
      status: { conditions: conditionsFor(input, [readyFrom(decided), ...decided]) },
      children: [configMapFor(parent), deploymentFor(parent), serviceFor(parent)],
    };
  },
});
