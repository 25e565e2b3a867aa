import {
  checkDeploymentUpdate,
  defineComposition,
  lastApplied,
  isConverged,
  podsRuleFor,
  readyJsonPath,
  type Composed,
  type RelatedRule,
} from '../kit/index.js';
import { tfservConfig, type TfservConfig } from './config.js';
import { deploymentFor } from './deployment.js';
import { modelsFileOf } from './models-file.js';
import { deploymentName, selectorFor, serviceName } from './names.js';
import { serviceFor } from './service.js';
import { podFieldProblems, tfservSpec, type TfservSpec } from './spec.js';
import { configMapCondition, statusFrom, tfservStatus } from './status.js';

/**
 * Tfserv (servapi.dev-state.com/v1alpha1): TensorFlow Serving configured by a models file
 * in a ConfigMap. Replaces the dev-state Go operator; its YAML applies unchanged.
 */
export const tfserv = defineComposition<TfservSpec, TfservConfig>({
  name: 'tfserv',
  parent: {
    group: 'servapi.dev-state.com',
    kind: 'Tfserv',
    plural: 'tfservs',
    singular: 'tfserv',
    shortNames: ['tfs'],
    versions: ['v1alpha1'],
    printerColumns: [
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas', description: 'Desired replicas' },
      { name: 'Ready', type: 'integer', jsonPath: '.status.readyReplicas', description: 'Ready replicas' },
      { name: 'Status', type: 'string', jsonPath: readyJsonPath('reason'), description: 'Why Ready is what it is' },
    ],
  },
  spec: tfservSpec,
  // An image or resources the API server would refuse in the Deployment: InvalidSpec, naming the field.
  validate: podFieldProblems,
  config: tfservConfig,
  status: tfservStatus,
  children: [
    { apiVersion: 'apps/v1', kind: 'Deployment', resource: 'deployments' },
    { apiVersion: 'v1', kind: 'Service', resource: 'services' },
  ],

  /** The sync hook needs the models file, and must know when the ConfigMap appears. */
  customize(parent): RelatedRule[] {
    return [
      { apiVersion: 'v1', resource: 'configmaps', namespace: parent.metadata.namespace, names: [parent.spec.configMap] },
      // The server's pods: why they do not run (image pull, crash loop…) goes to DeploymentReady;
      // not once Ready on this generation (kit isConverged: Metacontroller asks again on a new one or after 20 minutes).
      ...(isConverged(parent) ? [] : [podsRuleFor(parent.metadata.namespace, selectorFor(parent))]),
    ];
  },

  childNames: (parent) => [
    { apiVersion: 'apps/v1', kind: 'Deployment', names: [deploymentName(parent)] },
    { apiVersion: 'v1', kind: 'Service', names: [serviceName(parent)] },
  ],

  sync(input) {
    const { parent } = input;
    // Observe: the ConfigMap (related) and our children.
    const configMap = input.related.get('v1', 'ConfigMap', parent.spec.configMap);
    const models = modelsFileOf(configMap, parent.spec.configFileName);
    const observedDeployment = input.observed.get('apps/v1', 'Deployment', deploymentName(parent));
    const observedService = input.observed.get('v1', 'Service', serviceName(parent));

    // Desired: without the models file no Deployment is created, and a running one is kept as it was;
    // a changed selector (immutable) is never asked for.
    const image = parent.spec.image ?? input.config.images['tensorflow-serving'];
    const checked = models ? checkDeploymentUpdate(deploymentFor(parent, image, models), observedDeployment) : undefined;
    const deployment: Composed | undefined = checked ? checked.child : observedDeployment && lastApplied(observedDeployment);
    const children = [serviceFor(parent), ...(deployment ? [deployment] : [])];

    // Status from what exists now and what could not be applied.
    const configMapFound = configMapCondition(parent, configMap, models !== undefined);
    const status = statusFrom(input, configMapFound, observedDeployment, observedService, checked?.refusals ?? []);
    return { status, children };
  },
});
