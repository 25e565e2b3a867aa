import {
  checkDeploymentUpdate,
  condition,
  conditionsFor,
  defineComposition,
  keepObserved,
  lastApplied,
  MANAGED_BY,
  isConverged,
  podsRuleFor,
  READY,
  readyJsonPath,
  type Composed,
  type RelatedRule,
  type SyncInput,
  type SyncOutput,
} from '../kit/index.js';
import { hostConflicts, hostRules, HTTP_ROUTE } from '../kserve/host-conflicts.js';
import { inferencegraphConfig, type InferenceGraphConfig } from './config.js';
import { deploymentFor } from './deployment.js';
import { exposureChildren, exposureOf, graphHostSources } from './exposure.js';
import { graphJson, ISVC, resolveGraph } from './graph.js';
import { hpaFor } from './hpa.js';
import { deploymentName, exposureName, selectorFor, serviceName } from './names.js';
import { serviceFor } from './service.js';
import { isStopped, stoppedAnswer } from './stop.js';
import { inferencegraphSpec, podFieldProblems, serviceNamesOf, type InferenceGraphSpec } from './spec.js';
import { inferencegraphStatus, statusFrom, stepsCondition } from './status.js';

const DEPLOYMENT_MODE_ANNOTATION = 'serving.kserve.io/deploymentMode';
/** The modes KServe serves with Knative (constants.go; Serverless is the legacy spelling). */
const KNATIVE_MODES = ['Serverless', 'Knative'];

/**
 * InferenceGraph (serving.kserve.io/v1alpha1), KServe's raw ("Standard") mode: a router
 * Deployment and Service that run the graph, an HPA, and an Ingress or HTTPRoute
 * (pkg/controller/v1alpha1/inferencegraph/, v0.20.0).
 */
export const inferencegraph = defineComposition<InferenceGraphSpec, InferenceGraphConfig>({
  name: 'inferencegraph',
  parent: {
    group: 'serving.kserve.io',
    kind: 'InferenceGraph',
    plural: 'inferencegraphs',
    singular: 'inferencegraph',
    shortNames: ['ig'],
    categories: [MANAGED_BY],
    versions: ['v1alpha1'],
    // KServe's columns (inference_graph.go kubebuilder:printcolumn; the kit adds Age), Reason beside them.
    printerColumns: [
      { name: 'URL', type: 'string', jsonPath: '.status.url' },
      { name: 'Ready', type: 'string', jsonPath: readyJsonPath('status') },
      { name: 'Reason', type: 'string', jsonPath: readyJsonPath('reason'), priority: 1 },
    ],
  },
  spec: inferencegraphSpec,
  // Pod fields the API server would refuse in the router's Deployment: InvalidSpec, naming the field.
  validate: podFieldProblems,
  config: inferencegraphConfig,
  status: inferencegraphStatus,
  children: [
    { apiVersion: 'apps/v1', kind: 'Deployment', resource: 'deployments' },
    { apiVersion: 'v1', kind: 'Service', resource: 'services' },
    { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', resource: 'horizontalpodautoscalers' },
    { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', resource: 'ingresses' },
  ],
  optionalChildren: [HTTP_ROUTE],
  variants: [{ name: 'gateway-api', description: 'Gateway API: an HTTPRoute instead of an Ingress', optionalChildren: ['httproutes'] }],

  customize(parent, _config, declares) {
    const namespace = parent.metadata.namespace;
    const services = serviceNamesOf(parent.spec);
    // The steps' InferenceServices, by name, in the graph's namespace only (controller.go reads them there).
    const rules: RelatedRule[] = services.length > 0 ? [{ apiVersion: ISVC.apiVersion, resource: 'inferenceservices', namespace, names: services }] : [];
    // The router's pods: why they do not run goes to RouterReady.
    // Not once Ready on this generation (kit isConverged: Metacontroller asks again on a new one or after 20 minutes).
    if (!isConverged(parent)) rules.push(podsRuleFor(namespace, selectorFor(parent)));
    // The routes that may claim the graph's host (labelled with its source, or not ours): a HostConflict.
    rules.push(...hostRules(namespace, graphHostSources(parent), declares(HTTP_ROUTE.apiVersion, HTTP_ROUTE.kind)));
    return rules;
  },

  childNames: (parent) => [
    { apiVersion: 'apps/v1', kind: 'Deployment', names: [deploymentName(parent)] },
    { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', names: [deploymentName(parent)] },
    { apiVersion: 'v1', kind: 'Service', names: [serviceName(parent)] },
    { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', names: [exposureName(parent)] },
    { apiVersion: HTTP_ROUTE.apiVersion, kind: HTTP_ROUTE.kind, names: [exposureName(parent)] },
  ],

  sync(input) {
    const { parent, config } = input;
    // Knative mode is another controller's job: change nothing, say so.
    if (KNATIVE_MODES.includes(parent.metadata.annotations?.[DEPLOYMENT_MODE_ANNOTATION] ?? '')) return unsupportedMode(input);
    // Stopped: the router and its HPA deleted, the Service kept (stop.ts).
    if (isStopped(parent)) return stoppedAnswer(input);
    // 1. The graph as the router receives it: each serviceName step resolved in the graph's namespace.
    const graph = resolveGraph(parent.spec, parent.metadata.namespace, input.related);
    const exposure = exposureOf(parent, config, input.declares(HTTP_ROUTE.apiVersion, HTTP_ROUTE.kind));
    const observed = {
      deployment: input.observed.get('apps/v1', 'Deployment', deploymentName(parent)),
      exposure: input.observed.get(
        exposure.kind === 'httproute' ? HTTP_ROUTE.apiVersion : 'networking.k8s.io/v1',
        exposure.kind === 'httproute' ? HTTP_ROUTE.kind : 'Ingress',
        exposureName(parent),
      ),
    };
    // 2. Desired: until every step has a URL the router runs the graph it has (KServe waits too).
    const checked = graph.complete
      ? checkDeploymentUpdate(deploymentFor(parent, config.images.router, graphJson(graph.spec), config.podSecurity === 'restricted'), observed.deployment)
      : undefined;
    const deployment: Composed | undefined = checked ? checked.child : observed.deployment && lastApplied(observed.deployment);
    const hpa = deployment ? hpaFor(parent) : undefined;
    const children = [serviceFor(parent), ...(deployment ? [deployment] : []), ...(hpa ? [hpa] : []), ...exposureChildren(input, exposure)];
    // 3. Status from what runs, the steps, and the hosts another parent routes.
    const steps = stepsCondition(parent.spec, graph, parent.metadata.namespace, observed.deployment !== undefined);
    const conflicts = exposure.kind === 'none' ? [] : hostConflicts(parent, [exposure.host], input.related);
    return { status: statusFrom(input, steps, exposure, observed, checked?.refusals ?? [], conflicts), children };
  },
});

function unsupportedMode(input: SyncInput<InferenceGraphSpec, InferenceGraphConfig>): SyncOutput {
  const mode = input.parent.metadata.annotations?.[DEPLOYMENT_MODE_ANNOTATION];
  const ready = condition.false(
    READY,
    'UnsupportedDeploymentMode',
    `${DEPLOYMENT_MODE_ANNOTATION} ${mode} needs Knative: modelhooks serves graphs in raw (Standard) mode only; nothing was changed`,
  );
  return { status: { conditions: conditionsFor(input, [ready]) }, children: keepObserved(input) };
}
