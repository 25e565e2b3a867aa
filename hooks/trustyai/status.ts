import {
  condition,
  deploymentReadiness,
  fromReadiness,
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
import { DATABASE_KEYS } from './deployment.js';
import type { TrustyAISpec } from './spec.js';

export const DEPLOYMENT_READY = 'DeploymentReady';
export const STORAGE_READY = 'StorageReady';
export const MODELMESH_READY = 'ModelMeshReady';
export const ROUTE_READY = 'RouteReady';

/** Reasons this composition sets itself (the others come from the kit's readiness judgements). */
export const REASONS = {
  dbCredentialsFound: 'DBCredentialsFound',
  dbCredentialsNotFound: 'DBCredentialsNotFound',
  dbCredentialsIncomplete: 'DBCredentialsIncomplete',
  payloadProcessorConfigured: 'PayloadProcessorConfigured',
  waitingForConfigMapOwner: 'WaitingForConfigMapOwner',
  configMapNotManaged: 'ConfigMapNotManaged',
} as const;

/** Ready ← the pods, the storage, ModelMesh's ConfigMap and (on OpenShift) the Route. */
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
    {
      type: MODELMESH_READY,
      means: 'model-serving-config lists this service',
      reasons: { configured: REASONS.payloadProcessorConfigured, waiting: REASONS.waitingForConfigMapOwner, notManaged: REASONS.configMapNotManaged },
    },
    { type: ROUTE_READY, means: '(OpenShift only) a router admitted the Route' },
  ],
  { ready: { reason: 'AllComponentsReady', message: 'the TrustyAI service is ready' }, phase: { ready: 'Ready', notReady: 'Not Ready' } },
);

export interface Observed {
  deployment?: KubeObject;
  pvc?: KubeObject;
  dbSecret?: KubeObject;
  route?: KubeObject;
  withRoute: boolean;
  modelMesh: Cond;
  /** Spec changes the API server would refuse, kept out of the children. */
  refused?: { deployment: Refusal[]; storage: Refusal[] };
}

export function statusFrom(input: SyncInput<TrustyAISpec>, o: Observed): Record<string, unknown> {
  const decided: Cond[] = [
    refusedCondition(DEPLOYMENT_READY, o.refused?.deployment ?? []) ?? fromReadiness(DEPLOYMENT_READY, deploymentReadiness(o.deployment)),
    refusedCondition(STORAGE_READY, o.refused?.storage ?? []) ?? storageCondition(input.parent.spec, o),
    o.modelMesh,
    ...(o.withRoute ? [fromReadiness(ROUTE_READY, routeReadiness(o.route))] : []),
  ];
  const { ready, conditions, phase } = conditionTree.summarise(input, decided);
  const status = o.deployment?.status as { replicas?: number } | undefined;
  return { phase, replicas: status?.replicas ?? 0, ready: ready.status === 'True' ? 'True' : 'False', conditions };
}

function storageCondition(spec: TrustyAISpec, o: Observed): Cond {
  if (spec.storage.format === 'PVC') return fromReadiness(STORAGE_READY, pvcReadiness(o.pvc));
  const secret = spec.storage.databaseConfigurations;
  if (!o.dbSecret) return condition.false(STORAGE_READY, REASONS.dbCredentialsNotFound, `Secret ${secret} with the database credentials was not found in the namespace`);
  // Only the key names are read: a missing key would stop the pods with CreateContainerConfigError.
  const keys = new Set([...Object.keys(recordOf(o.dbSecret.data)), ...Object.keys(recordOf(o.dbSecret.stringData))]);
  const missing = DATABASE_KEYS.map(([, key]) => key).filter((key) => !keys.has(key));
  return missing.length === 0
    ? condition.true(STORAGE_READY, REASONS.dbCredentialsFound, `database credentials Secret ${secret} found`)
    : condition.false(STORAGE_READY, REASONS.dbCredentialsIncomplete, `Secret ${secret} lacks the keys ${missing.join(', ')}`);
}

function recordOf(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}
