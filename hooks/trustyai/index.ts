import type { V1Deployment } from '@kubernetes/client-node';
import {
  checkClaimUpdate,
  checkDeploymentUpdate,
  defineComposition,
  lastApplied,
  MANAGED_BY,
  isConverged,
  podsRuleFor,
  readyJsonPath,
  STORAGE_CLASSES_RULE,
  type Composed,
  type Parent,
  type RelatedRule,
  type SyncInput,
} from '../kit/index.js';
import { CERTIFICATE, certificateFor } from './certificate.js';
import { trustyaiConfig, type TrustyAIConfig } from './config.js';
import { deploymentFor, type DeploymentOptions } from './deployment.js';
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
import { podFieldProblems, trustyaiSpec, trustyaiStatus, usesClaim, type TrustyAISpec } from './spec.js';
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
  // Resources the API server would refuse in the Deployment: InvalidSpec, naming the field.
  validate: podFieldProblems,
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
      description:
        "cert-manager: the service's serving certificate `<n>-internal` (HTTPS on the Service's 443) from the issuer in MODELHOOKS_TRUSTYAI_CERT_ISSUER",
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
    if (parent.spec.storage.format === 'DATABASE' && secret)
      rules.push({ apiVersion: 'v1', resource: 'secrets', namespace, names: [secret, dbCaName(parent)] });
    // Whether the claim may grow (storage.size) depends on its StorageClass (cluster-scoped: no namespace).
    if (usesClaim(parent.spec)) rules.push(STORAGE_CLASSES_RULE);
    // The service's pods: why they do not run (image pull, crash loop…) goes to DeploymentReady. By
    // the selector labels every operator release shares (the version label may be an adopted one's).
    const { 'app.kubernetes.io/version': _version, ...podLabels } = selectorFor(parent);
    // Not once Ready on this generation (kit isConverged: Metacontroller asks again on a new one or after 20 minutes).
    if (!isConverged(parent)) rules.push(podsRuleFor(namespace, podLabels));
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
    const { parent } = input;
    // What the calling controller declares: OpenShift, cert-manager, the Prometheus Operator.
    const platform = platformOf(input);

    // 1. Observe what exists. An operator-made Deployment keeps its selector's version: adopted, not replaced.
    const observed = observe(input);
    const version = selectorVersion(parent, observed.deployment);

    // 2. What is wanted, less what the API server would refuse to change in place.
    const server = checkDeploymentUpdate(deploymentFor(parent, serverOptions(input, platform, observed, version)), observed.deployment);
    const claim = usesClaim(parent.spec) ? checkClaimUpdate(pvcFor(parent), observed.pvc, input.related, CLAIM_FIELDS) : undefined;

    // 3. Status from what was observed and what could not be applied.
    const status = statusFrom(input, {
      deployment: observed.deployment,
      pvc: observed.pvc,
      dbSecret: observed.dbSecret,
      route: observed.route,
      withRoute: platform.withRoute,
      servesHttps: servesHttps(platform, observed),
      ...(platform.withCertificate ? { certificate: { observed: observed.certificate, issuerConfigured: platform.issuer !== undefined } } : {}),
      modelMesh: observed.modelMesh.condition,
      inferenceServices: inferenceServiceCounts(input),
      refused: { deployment: server.refusals, storage: claim?.refusals ?? [] },
    });

    // 4. Desired children.
    return { status, children: childrenFor(parent, platform, observed, { server: server.child, claim: claim?.child, version }) };
  },

  invalidStatus: (previous) => ({ ...previous, phase: 'Not Ready', ready: 'False' }),
});

/** The claim's fields that name what the spec asked for, when a change to them is refused. */
const CLAIM_FIELDS = { size: 'spec.storage.size', volumeName: 'spec.storage.pv' };

type Input = SyncInput<TrustyAISpec, TrustyAIConfig>;

/** What the calling CompositeController declares, and so which platform's children are written. */
interface Platform {
  withRoute: boolean;
  withMonitor: boolean;
  /** OpenShift: the service CA issues the certificates, kube-rbac-proxy authenticates, the Route re-encrypts to it. */
  openshift: boolean;
  withCertificate: boolean;
  /**
   * cert-manager issues `<n>-internal` once an issuer is configured; on OpenShift too it then
   * replaces the service CA for that Secret (one writer).
   */
  issuer: TrustyAIConfig['certIssuer'];
}

/**
 * Whether the service's pod serves HTTPS on 4443 (the `<n>` Service's 443): only where a
 * serving certificate `<n>-internal` is issued — by OpenShift's service CA or cert-manager.
 * Elsewhere it serves plain HTTP on 8080 (port 80) alone. The status says which, so that an
 * InferenceService's payload logger uses the scheme the pod serves (inferenceservice/trustyai-logger.ts).
 */
/** Whether the pod serves HTTPS on 4443: a serving certificate is issued, or one requested before is kept. */
const servesHttps = (platform: Platform, observed: ReturnType<typeof observe>): boolean =>
  platform.openshift || platform.issuer !== undefined || keepsCertificate(platform, observed);

function platformOf(input: Input): Platform {
  const withRoute = input.declares(ROUTE.apiVersion, ROUTE.kind);
  const withCertificate = input.declares(CERTIFICATE.apiVersion, CERTIFICATE.kind);
  return {
    withRoute,
    withMonitor: input.declares(SERVICE_MONITOR.apiVersion, SERVICE_MONITOR.kind),
    // The openshift variant declares Routes and ServiceAccounts.
    openshift: withRoute && input.declares(SERVICE_ACCOUNT.apiVersion, SERVICE_ACCOUNT.kind),
    withCertificate,
    issuer: withCertificate ? input.config.certIssuer : undefined,
  };
}

/** The children and related objects the status and the children are decided from. */
function observe(input: Input) {
  const { parent, observed, related } = input;
  const secret = parent.spec.storage.databaseConfigurations;
  return {
    deployment: observed.get('apps/v1', 'Deployment', deploymentName(parent)),
    pvc: observed.get('v1', 'PersistentVolumeClaim', pvcName(parent)),
    route: observed.get(ROUTE.apiVersion, ROUTE.kind, serviceName(parent)),
    certificate: observed.get(CERTIFICATE.apiVersion, CERTIFICATE.kind, internalCertName(parent)),
    dbSecret: secret ? related.get('v1', 'Secret', secret) : undefined,
    // `<n>-db-ca`'s presence turns on database TLS.
    dbCa: parent.spec.storage.format === 'DATABASE' && related.get('v1', 'Secret', dbCaName(parent)) !== undefined,
    // model-serving-config: written only when absent or ours (configmap.ts).
    modelMesh: modelMeshFor(input),
  };
}

function serverOptions(input: Input, platform: Platform, observed: ReturnType<typeof observe>, version: string): DeploymentOptions {
  const { images } = input.config;
  return {
    image: images['trustyai-service'],
    version,
    setFsGroup: !platform.withRoute,
    internalCert: servesHttps(platform, observed),
    dbCa: observed.dbCa,
    ...(platform.openshift ? { proxy: { image: images['kube-rbac-proxy'] } } : {}),
  };
}

/**
 * The cert-manager variant without an issuer (MODELHOOKS_TRUSTYAI_CERT_ISSUER unset since): a
 * Certificate requested before is kept as it is, with the HTTPS the pods serve from its Secret,
 * rather than deleted with no word (ServingCertificateReady says why).
 */
function keepsCertificate(platform: Platform, observed: ReturnType<typeof observe>): boolean {
  return platform.withCertificate && platform.issuer === undefined && observed.certificate !== undefined;
}

function childrenFor(
  parent: Parent<TrustyAISpec>,
  platform: Platform,
  observed: ReturnType<typeof observe>,
  wanted: { server: V1Deployment; claim: Composed | undefined; version: string },
): Composed[] {
  const { openshift, issuer } = platform;
  const { version } = wanted;
  // The Service selects the pods the Deployment keeps (its old selector when a new one was refused).
  const podSelector = wanted.server.spec?.selector?.matchLabels ?? {};
  const kept = keepsCertificate(platform, observed);
  const children: Composed[] = [wanted.server, serviceFor(parent, { version, serviceCA: openshift && !issuer && !kept, selector: podSelector })];
  if (wanted.claim) children.push(wanted.claim);
  // Switching to DATABASE must not delete the data already on the volume.
  else if (observed.pvc) children.push(lastApplied(observed.pvc));
  if (observed.modelMesh.configMap) children.push(observed.modelMesh.configMap);
  if (openshift) children.push(tlsServiceFor(parent, { version }), proxyServiceAccountFor(parent, version), proxyConfigFor(parent, version));
  if (issuer) children.push(certificateFor(parent, issuer, version));
  else if (kept && observed.certificate) children.push(lastApplied(observed.certificate));
  if (platform.withRoute) children.push(routeFor(parent));
  if (platform.withMonitor) children.push(serviceMonitorFor(parent));
  return children;
}
