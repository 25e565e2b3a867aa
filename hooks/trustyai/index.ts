import {
  checkClaimUpdate,
  checkDeploymentUpdate,
  defineComposition,
  lastApplied,
  MANAGED_BY,
  podsRuleFor,
  readyJsonPath,
  STORAGE_CLASSES_RULE,
  type Composed,
  type RelatedRule,
} from '../kit/index.js';
import { CERTIFICATE, certificateFor } from './certificate.js';
import { trustyaiConfig, type TrustyAIConfig } from './config.js';
import { deploymentFor } from './deployment.js';
import { modelMeshFor } from './configmap.js';
import { inferenceServiceCounts, inferenceServicesRule } from './inference-services.js';
import {
  dbCaName,
  deploymentName,
  internalCertName,
  MODEL_SERVING_CONFIG,
  proxyConfigName,
  proxyServiceAccountName,
  pvcName,
  selectorFor,
  selectorVersion,
  serviceName,
  tlsServiceName,
} from './names.js';
import { proxyConfigFor, proxyServiceAccountFor } from './proxy.js';
import { pvcFor } from './pvc.js';
import { routeFor } from './route.js';
import { serviceFor, tlsServiceFor } from './service.js';
import { serviceMonitorFor } from './servicemonitor.js';
import { isMigration, trustyaiSpec, trustyaiStatus, type TrustyAISpec } from './spec.js';
import { statusFrom } from './status.js';

const ROUTE = { apiVersion: 'route.openshift.io/v1', kind: 'Route' };
const SERVICE_MONITOR = { apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor' };
const SERVICE_ACCOUNT = { apiVersion: 'v1', kind: 'ServiceAccount' };

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
    { ...SERVICE_ACCOUNT, resource: 'serviceaccounts' },
    { ...CERTIFICATE, resource: 'certificates' },
  ],
  variants: [
    {
      name: 'openshift',
      description: 'OpenShift: service-CA certificates, kube-rbac-proxy and a re-encrypt Route (and no fsGroup: the SCC assigns one)',
      optionalChildren: ['routes', 'serviceaccounts'],
    },
    { name: 'prometheus', description: 'Prometheus Operator: a ServiceMonitor', optionalChildren: ['servicemonitors'] },
    {
      name: 'cert-manager',
      description: "cert-manager: the service's serving certificate `<n>-internal` (HTTPS on the Service's 443) from the issuer in MODELHOOKS_TRUSTYAI_CERT_ISSUER",
      optionalChildren: ['certificates'],
    },
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
      // InferenceServicesPresent: how many of the namespace's InferenceServices log here.
      inferenceServicesRule(namespace),
    ];
    const secret = parent.spec.storage.databaseConfigurations;
    // The credentials (key names only are read) and `<n>-db-ca`, whose presence turns on database TLS.
    if (parent.spec.storage.format === 'DATABASE' && secret) rules.push({ apiVersion: 'v1', resource: 'secrets', namespace, names: [secret, dbCaName(parent)] });
    // Whether the claim may grow (storage.size) depends on its StorageClass (cluster-scoped: no namespace).
    if (parent.spec.storage.format === 'PVC' || isMigration(parent.spec)) rules.push(STORAGE_CLASSES_RULE);
    // The service's pods: why they do not run (image pull, crash loop…) goes to DeploymentReady. By
    // the selector labels every operator release shares (the version label may be an adopted one's).
    const { 'app.kubernetes.io/version': _version, ...podLabels } = selectorFor(parent);
    rules.push(podsRuleFor(namespace, podLabels));
    return rules;
  },

  // model-serving-config is shared by design: modelMeshFor emits it only when absent or ours.
  childNames: (parent) => [
    { apiVersion: 'apps/v1', kind: 'Deployment', names: [deploymentName(parent)] },
    { apiVersion: 'v1', kind: 'Service', names: [serviceName(parent), tlsServiceName(parent)] },
    { apiVersion: 'v1', kind: 'ConfigMap', names: [proxyConfigName(parent)] },
    { ...SERVICE_ACCOUNT, names: [proxyServiceAccountName(parent)] },
    { apiVersion: 'v1', kind: 'PersistentVolumeClaim', names: [pvcName(parent)] },
    { ...ROUTE, names: [serviceName(parent)] },
    { ...SERVICE_MONITOR, names: [serviceName(parent)] },
    { ...CERTIFICATE, names: [internalCertName(parent)] },
  ],

  sync(input) {
    const { parent, observed, related, config } = input;
    const spec = parent.spec;
    const withRoute = input.declares(ROUTE.apiVersion, ROUTE.kind);
    const withMonitor = input.declares(SERVICE_MONITOR.apiVersion, SERVICE_MONITOR.kind);
    // OpenShift (the variant declares Routes and ServiceAccounts): the service CA issues the
    // certificates, kube-rbac-proxy authenticates, the Route re-encrypts to it.
    const openshift = withRoute && input.declares(SERVICE_ACCOUNT.apiVersion, SERVICE_ACCOUNT.kind);
    // cert-manager (the variant declares Certificates) issues `<n>-internal` once an issuer is
    // configured; on OpenShift too it then replaces the service CA for that Secret (one writer).
    const withCertificate = input.declares(CERTIFICATE.apiVersion, CERTIFICATE.kind);
    const issuer = withCertificate ? config.certIssuer : undefined;

    // 1. Observe what exists.
    const deployment = observed.get('apps/v1', 'Deployment', deploymentName(parent));
    const pvc = observed.get('v1', 'PersistentVolumeClaim', pvcName(parent));
    const route = observed.get(ROUTE.apiVersion, ROUTE.kind, serviceName(parent));
    const certificate = observed.get(CERTIFICATE.apiVersion, CERTIFICATE.kind, internalCertName(parent));
    const secret = spec.storage.databaseConfigurations;
    const dbSecret = secret ? related.get('v1', 'Secret', secret) : undefined;
    const dbCa = spec.storage.format === 'DATABASE' && related.get('v1', 'Secret', dbCaName(parent)) !== undefined;
    const modelMesh = modelMeshFor(input);
    // An operator-made Deployment keeps its selector's version: adopted, not replaced.
    const version = selectorVersion(parent, deployment);

    // 2. What is wanted, less what the API server would refuse to change in place.
    const wanted = deploymentFor(parent, {
      image: config.images['trustyai-service'],
      version,
      setFsGroup: !withRoute,
      internalCert: openshift || issuer !== undefined,
      dbCa,
      ...(openshift ? { proxy: { image: config.images['kube-rbac-proxy'] } } : {}),
    });
    const server = checkDeploymentUpdate(wanted, deployment);
    const usesClaim = spec.storage.format === 'PVC' || isMigration(spec);
    const claim = usesClaim ? checkClaimUpdate(pvcFor(parent), pvc, related, { size: 'spec.storage.size', volumeName: 'spec.storage.pv' }) : undefined;

    // 3. Status from what was observed and what could not be applied.
    const refused = { deployment: server.refusals, storage: claim?.refusals ?? [] };
    const status = statusFrom(input, {
      deployment,
      pvc,
      dbSecret,
      route,
      withRoute,
      ...(withCertificate ? { certificate: { observed: certificate, issuerConfigured: issuer !== undefined } } : {}),
      modelMesh: modelMesh.condition,
      inferenceServices: inferenceServiceCounts(input),
      refused,
    });

    // 4. Desired children.
    // The Service selects the pods the Deployment keeps (its old selector when a new one was refused).
    const podSelector = server.child.spec?.selector?.matchLabels ?? {};
    const children: Composed[] = [server.child, serviceFor(parent, { version, serviceCA: openshift && !issuer, selector: podSelector })];
    if (claim) children.push(claim.child);
    // Switching to DATABASE must not delete the data already on the volume.
    else if (pvc) children.push(lastApplied(pvc));
    if (modelMesh.configMap) children.push(modelMesh.configMap);
    if (openshift) children.push(tlsServiceFor(parent, { version }), proxyServiceAccountFor(parent, version), proxyConfigFor(parent, version));
    if (issuer) children.push(certificateFor(parent, issuer, version));
    if (withRoute) children.push(routeFor(parent));
    if (withMonitor) children.push(serviceMonitorFor(parent));
    return { status, children };
  },

  invalidStatus: (previous) => ({ ...previous, phase: 'Not Ready', ready: 'False' }),
});
