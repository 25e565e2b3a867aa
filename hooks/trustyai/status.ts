import {
  condition,
  deploymentReadiness,
  deploymentWorkloadReadiness,
  fromReadiness,
  deploymentPods,
  isRecord,
  pvcReadiness,
  readyConditions,
  refusedCondition,
  routeReadiness,
  IMMUTABLE_FIELD,
  RESIZE_NOT_SUPPORTED,
  type Refusal,
  type Cond,
  type KubeObject,
  type SyncInput,
} from '../kit/index.js';
import { certificateReadiness } from './certificate.js';
import { CERT_ISSUER_VARIABLE } from './config.js';
import { DATABASE_KEYS } from './deployment.js';
import {
  available,
  dbAvailable,
  degraded,
  inferenceServicesPresent,
  OPERATOR,
  provisioning,
  pvcAvailable,
  routeAvailable,
  type DatabaseState,
} from './operator-conditions.js';
import { usesClaim, type TrustyAISpec } from './spec.js';

export const DEPLOYMENT_READY = 'DeploymentReady';
export const STORAGE_READY = 'StorageReady';
export const MODELMESH_READY = 'ModelMeshReady';
export const ROUTE_READY = 'RouteReady';
export const SERVING_CERTIFICATE_READY = 'ServingCertificateReady';

/** Reasons this composition sets itself (the others come from the kit's readiness judgements). */
export const REASONS = {
  dbCredentialsFound: 'DBCredentialsFound',
  dbCredentialsNotFound: 'DBCredentialsNotFound',
  dbCredentialsIncomplete: 'DBCredentialsIncomplete',
  payloadProcessorConfigured: 'PayloadProcessorConfigured',
  waitingForConfigMapOwner: 'WaitingForConfigMapOwner',
  configMapNotManaged: 'ConfigMapNotManaged',
  configMapUnreadable: 'ConfigMapUnreadable',
  notModelMeshNamespace: 'NotModelMeshNamespace',
  issuerNotConfigured: 'IssuerNotConfigured',
} as const;

const info = (type: string, means: string) => ({ type, means });

/**
 * Ready ← the pods, the storage and (on OpenShift) the Route: what the operator's IsAllReady
 * requires (statuses.go@11c335b). The operator's conditions and ModelMeshReady are reported beside.
 */
export const conditionTree = readyConditions(
  [
    { type: DEPLOYMENT_READY, means: "the service's pods are available (and its selector is the one wanted)", reasons: { immutable: IMMUTABLE_FIELD } },
    {
      type: STORAGE_READY,
      means: 'the PVC is Bound with the size and volume the spec asks for, or the database Secret exists with every key',
      reasons: {
        found: REASONS.dbCredentialsFound,
        notFound: REASONS.dbCredentialsNotFound,
        incomplete: REASONS.dbCredentialsIncomplete,
        resizeNotSupported: RESIZE_NOT_SUPPORTED,
        immutable: IMMUTABLE_FIELD,
      },
    },
    { type: ROUTE_READY, means: '(OpenShift only) a router admitted the Route' },
  ],
  {
    ready: { reason: 'AllComponentsReady', message: 'All service components are ready' },
    phase: { ready: 'Ready', notReady: 'Not Ready' },
    informational: [
      info(OPERATOR.available, "the operator's Available: every component is ready"),
      info(OPERATOR.pvcAvailable, '(PVC mode or migration) the claim is bound'),
      info(OPERATOR.dbAvailable, '(DATABASE mode) the credentials are complete and the service runs against the database'),
      info(OPERATOR.routeAvailable, '(OpenShift only) a router admitted the Route'),
      info(OPERATOR.inferenceServicesPresent, 'InferenceServices exist in the namespace (the message says how many log here)'),
      info(OPERATOR.provisioningSucceeded, 'every component is provisioned'),
      info(OPERATOR.degraded, 'the service is not fully functional'),
      {
        type: SERVING_CERTIFICATE_READY,
        means: "(cert-manager variant only) cert-manager's Ready condition of the Certificate `<n>-internal`",
        reasons: { issued: 'CertificateIssued', noIssuer: REASONS.issuerNotConfigured },
      },
      {
        type: MODELMESH_READY,
        means: "ModelMesh's model-serving-config lists this service",
        reasons: {
          configured: REASONS.payloadProcessorConfigured,
          waiting: REASONS.waitingForConfigMapOwner,
          notManaged: REASONS.configMapNotManaged,
          elsewhere: REASONS.notModelMeshNamespace,
        },
      },
    ],
  },
);

export interface Observed {
  deployment?: KubeObject;
  pvc?: KubeObject;
  dbSecret?: KubeObject;
  route?: KubeObject;
  withRoute: boolean;
  /** Whether the pod serves HTTPS on 4443 (a serving certificate is issued): status.servesHttps. */
  servesHttps: boolean;
  /** Where the CompositeController declares Certificates: the observed one, and whether an issuer is set. */
  certificate?: { observed?: KubeObject; issuerConfigured: boolean };
  modelMesh: Cond;
  inferenceServices: { total: number; loggingHere: number };
  /** Spec changes the API server would refuse, kept out of the children. */
  refused?: { deployment: Refusal[]; storage: Refusal[] };
}

export function statusFrom(input: SyncInput<TrustyAISpec>, observed: Observed): Record<string, unknown> {
  const spec = input.parent.spec;
  const deploymentCond =
    refusedCondition(DEPLOYMENT_READY, observed.refused?.deployment ?? []) ??
    fromReadiness(
      DEPLOYMENT_READY,
      deploymentWorkloadReadiness(deploymentReadiness(observed.deployment), observed.deployment, deploymentPods(input.related, observed.deployment)),
    );
  const storageCond = refusedCondition(STORAGE_READY, observed.refused?.storage ?? []) ?? storageCondition(spec, observed);
  const routeCond = observed.withRoute ? fromReadiness(ROUTE_READY, routeReadiness(observed.route)) : undefined;
  const blockers: Cond[] = [deploymentCond, storageCond, ...(routeCond ? [routeCond] : [])];
  const allReady = blockers.every((c) => c.status === 'True');

  const pvcBound = pvcReadiness(observed.pvc).status === 'True';
  const dbState = spec.storage.format === 'DATABASE' ? databaseState(storageCond, deploymentCond) : undefined;
  const anyUp = deploymentCond.status === 'True' || routeCond?.status === 'True' || (usesClaim(spec) && pvcBound) || dbState === 'available';
  const operator: Cond[] = [
    available(allReady),
    ...(usesClaim(spec) ? [pvcAvailable(pvcBound)] : []),
    ...(dbState ? [dbAvailable(dbState)] : []),
    ...(routeCond ? [routeAvailable(routeCond.status === 'True')] : []),
    inferenceServicesPresent(observed.inferenceServices.total, observed.inferenceServices.loggingHere),
    provisioning(allReady),
    degraded(allReady, anyUp),
    observed.modelMesh,
    ...(observed.certificate ? [certificateCondition(observed.certificate)] : []),
  ];
  const { ready, conditions, phase } = conditionTree.summarise(input, [...blockers, ...operator]);
  const status = observed.deployment?.status as { replicas?: number } | undefined;
  return { phase, replicas: status?.replicas ?? 0, ready: ready.status === 'True' ? 'True' : 'False', conditions, servesHttps: observed.servesHttps };
}

/**
 * Not part of Ready: the operator's IsAllReady does not wait for a certificate, and the pods,
 * which mount the Secret, do not start without it, so DeploymentReady already waits for it.
 */
function certificateCondition(c: NonNullable<Observed['certificate']>): Cond {
  if (!c.issuerConfigured && c.observed) {
    return condition.false(
      SERVING_CERTIFICATE_READY,
      REASONS.issuerNotConfigured,
      `${CERT_ISSUER_VARIABLE} is not set on the hook server: the Certificate ${c.observed.metadata.name} requested before is kept as it is and the service keeps serving HTTPS with it; set the variable again, or delete the Certificate to serve plain HTTP`,
    );
  }
  if (!c.issuerConfigured) {
    return condition.false(
      SERVING_CERTIFICATE_READY,
      REASONS.issuerNotConfigured,
      `${CERT_ISSUER_VARIABLE} is not set on the hook server, so no Certificate is requested and the service serves plain HTTP only`,
    );
  }
  return fromReadiness(SERVING_CERTIFICATE_READY, certificateReadiness(c.observed));
}

/** DBAvailable from the credentials check and whether the service's pods run (they fail their probes without a database). */
function databaseState(storage: Cond, deployment: Cond): DatabaseState {
  if (storage.reason === REASONS.dbCredentialsNotFound) return 'credentialsNotFound';
  if (storage.status !== 'True') return 'credentialsError';
  return deployment.status === 'True' ? 'available' : 'connectionError';
}

function storageCondition(spec: TrustyAISpec, observed: Observed): Cond {
  if (spec.storage.format === 'PVC') return fromReadiness(STORAGE_READY, pvcReadiness(observed.pvc));
  const secret = spec.storage.databaseConfigurations;
  if (!observed.dbSecret)
    return condition.false(STORAGE_READY, REASONS.dbCredentialsNotFound, `Secret ${secret} with the database credentials was not found in the namespace`);
  // Only the key names are read: a missing key would stop the pods with CreateContainerConfigError.
  const keys = new Set([...Object.keys(recordOf(observed.dbSecret.data)), ...Object.keys(recordOf(observed.dbSecret.stringData))]);
  const missing = DATABASE_KEYS.map(([, key]) => key).filter((key) => !keys.has(key));
  return missing.length === 0
    ? condition.true(STORAGE_READY, REASONS.dbCredentialsFound, `database credentials Secret ${secret} found`)
    : condition.false(STORAGE_READY, REASONS.dbCredentialsIncomplete, `Secret ${secret} lacks the keys ${missing.join(', ')}`);
}

function recordOf(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}
