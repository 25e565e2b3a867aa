import {
  checkClaimUpdate,
  checkDeploymentUpdate,
  defineComposition,
  lastApplied,
  MANAGED_BY,
  readyJsonPath,
  STORAGE_CLASSES_RULE,
  type Composed,
  type RelatedRule,
} from '../kit/index.js';
import { trustyaiConfig, type TrustyAIConfig } from './config.js';
import { deploymentFor } from './deployment.js';
import { modelMeshFor } from './configmap.js';
import { deploymentName, MODEL_SERVING_CONFIG, pvcName, serviceName } from './names.js';
import { pvcFor } from './pvc.js';
import { routeFor } from './route.js';
import { serviceFor } from './service.js';
import { serviceMonitorFor } from './servicemonitor.js';
import { trustyaiSpec, trustyaiStatus, type TrustyAISpec } from './spec.js';
import { statusFrom } from './status.js';

const ROUTE = { apiVersion: 'route.openshift.io/v1', kind: 'Route' };
const SERVICE_MONITOR = { apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor' };

export const trustyai = defineComposition<TrustyAISpec, TrustyAIConfig>({
  name: 'trustyai',
  parent: {
    group: 'trustyai.opendatahub.io',
    kind: 'TrustyAIService',
    plural: 'trustyaiservices',
    singular: 'trustyaiservice',
    shortNames: ['tas'],
    categories: [MANAGED_BY],
    // v1 is the storage version upstream; v1alpha1 YAML keeps applying (same schema).
    versions: ['v1', 'v1alpha1'],
    printerColumns: [
      { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
      { name: 'Ready', type: 'string', jsonPath: readyJsonPath('status') },
      { name: 'Replicas', type: 'integer', jsonPath: '.status.replicas' },
      { name: 'Reason', type: 'string', jsonPath: readyJsonPath('reason'), priority: 1 },
    ],
  },
  spec: trustyaiSpec,
  config: trustyaiConfig,
  status: trustyaiStatus,
  children: [
    { apiVersion: 'apps/v1', kind: 'Deployment', resource: 'deployments' },
    { apiVersion: 'v1', kind: 'Service', resource: 'services' },
    { apiVersion: 'v1', kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims' },
    { apiVersion: 'v1', kind: 'ConfigMap', resource: 'configmaps' },
  ],
  optionalChildren: [
    { ...ROUTE, resource: 'routes' },
    { ...SERVICE_MONITOR, resource: 'servicemonitors' },
  ],
  variants: [
    { name: 'openshift', description: 'OpenShift: a Route (and no fsGroup: the SCC assigns one)', optionalChildren: ['routes'] },
    { name: 'prometheus', description: 'Prometheus Operator: a ServiceMonitor', optionalChildren: ['servicemonitors'] },
  ],
  // A safety net for changes Metacontroller does not watch (another service's ConfigMap).
  resyncPeriodSeconds: 300,

  customize(parent) {
    // Every rule names the namespace: without one, Metacontroller v2 selects every namespace.
    const { namespace } = parent.metadata;
    const rules: RelatedRule[] = [
      { apiVersion: 'v1', resource: 'configmaps', namespace, names: [MODEL_SERVING_CONFIG] },
      // Every TrustyAIService of the namespace (and only of it) shares model-serving-config.
      { apiVersion: 'trustyai.opendatahub.io/v1', resource: 'trustyaiservices', namespace },
    ];
    const secret = parent.spec.storage.databaseConfigurations;
    if (parent.spec.storage.format === 'DATABASE' && secret) rules.push({ apiVersion: 'v1', resource: 'secrets', namespace, names: [secret] });
    // Whether the claim may grow (storage.size) depends on its StorageClass (cluster-scoped: no namespace).
    if (parent.spec.storage.format === 'PVC') rules.push(STORAGE_CLASSES_RULE);
    return rules;
  },

  // model-serving-config is shared by design: modelMeshFor emits it only when absent or ours.
  childNames: (parent) => [
    { apiVersion: 'apps/v1', kind: 'Deployment', names: [deploymentName(parent)] },
    { apiVersion: 'v1', kind: 'Service', names: [serviceName(parent)] },
    { apiVersion: 'v1', kind: 'PersistentVolumeClaim', names: [pvcName(parent)] },
    { ...ROUTE, names: [serviceName(parent)] },
    { ...SERVICE_MONITOR, names: [serviceName(parent)] },
  ],

  sync(input) {
    const { parent, observed, related, config } = input;
    const spec = parent.spec;
    const withRoute = input.declares(ROUTE.apiVersion, ROUTE.kind);
    const withMonitor = input.declares(SERVICE_MONITOR.apiVersion, SERVICE_MONITOR.kind);

    // 1. Observe what exists.
    const deployment = observed.get('apps/v1', 'Deployment', deploymentName(parent));
    const pvc = observed.get('v1', 'PersistentVolumeClaim', pvcName(parent));
    const route = observed.get(ROUTE.apiVersion, ROUTE.kind, serviceName(parent));
    const secret = spec.storage.databaseConfigurations;
    const dbSecret = secret ? related.get('v1', 'Secret', secret) : undefined;
    const modelMesh = modelMeshFor(input);

    // 2. What is wanted, less what the API server would refuse to change in place.
    const server = checkDeploymentUpdate(deploymentFor(parent, { image: config.images['trustyai-service'], setFsGroup: !withRoute }), deployment);
    const claim = spec.storage.format === 'PVC' ? checkClaimUpdate(pvcFor(parent), pvc, related, { size: 'spec.storage.size', volumeName: 'spec.storage.pv' }) : undefined;

    // 3. Status from what was observed and what could not be applied.
    const refused = { deployment: server.refusals, storage: claim?.refusals ?? [] };
    const status = statusFrom(input, { deployment, pvc, dbSecret, route, withRoute, modelMesh: modelMesh.condition, refused });

    // 4. Desired children.
    const children: Composed[] = [server.child, serviceFor(parent)];
    if (claim) children.push(claim.child);
    // Switching to DATABASE must not delete the data already on the volume.
    else if (pvc) children.push(lastApplied(pvc));
    if (modelMesh.configMap) children.push(modelMesh.configMap);
    if (withRoute) children.push(routeFor(parent));
    if (withMonitor) children.push(serviceMonitorFor(parent));
    return { status, children };
  },

  invalidStatus: (previous) => ({ ...previous, phase: 'Not Ready', ready: 'False' }),
});
