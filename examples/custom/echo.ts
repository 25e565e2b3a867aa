// A composition of your own, written with the kit: an `Echo` custom resource that runs
// an HTTP echo server with a Service in front of it. Its test is echo.test.ts.
import { z } from 'zod';
import {
  childMeta,
  childName,
  condition,
  conditionsFor,
  defineComposition,
  deploymentReadiness,
  readyFrom,
  standardLabels,
  type KubeObject,
  type Parent,
} from 'modelhooks/kit';

const spec = z.object({
  message: z.string().min(1).describe('What the server answers.'),
  replicas: z.number().int().min(0).default(1),
});
type EchoSpec = z.infer<typeof spec>;

const labelsOf = (p: Parent<EchoSpec>) => standardLabels({ name: 'echo', instance: p.metadata.name, component: 'server', partOf: 'echo' });

function deploymentFor(p: Parent<EchoSpec>): KubeObject {
  const labels = labelsOf(p);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: childMeta(p, childName([p.metadata.name]), labels),
    spec: {
      replicas: p.spec.replicas,
      selector: { matchLabels: { 'app.kubernetes.io/instance': labels['app.kubernetes.io/instance'] } },
      template: {
        metadata: { labels },
        spec: {
          containers: [{ name: 'echo', image: 'hashicorp/http-echo:1.0', args: [`-text=${p.spec.message}`], ports: [{ name: 'http', containerPort: 5678 }] }],
        },
      },
    },
  };
}

function serviceFor(p: Parent<EchoSpec>): KubeObject {
  const labels = labelsOf(p);
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMeta(p, childName([p.metadata.name], { dns1035: true }), labels),
    spec: { selector: { 'app.kubernetes.io/instance': labels['app.kubernetes.io/instance'] }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
  };
}

export const echo = defineComposition<EchoSpec>({
  name: 'echo',
  parent: { group: 'example.dev', kind: 'Echo', plural: 'echoes', singular: 'echo', versions: ['v1'] },
  spec,
  children: [
    { apiVersion: 'apps/v1', kind: 'Deployment', resource: 'deployments' },
    { apiVersion: 'v1', kind: 'Service', resource: 'services' },
  ],
  sync(input) {
    const { parent, observed } = input;
    // Observe → status → desired children.
    const deployment = observed.get('apps/v1', 'Deployment', childName([parent.metadata.name]));
    const deployed = { type: 'DeploymentReady', ...deploymentReadiness(deployment) };
    const decided = [deployed.status === 'True' ? condition.true('DeploymentReady', 'Available') : deployed];
    return {
      status: { conditions: conditionsFor(input, [readyFrom(decided), ...decided]) },
      children: [deploymentFor(parent), serviceFor(parent)],
    };
  },
});
