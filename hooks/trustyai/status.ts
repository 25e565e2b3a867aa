import {
  condition,
  conditionsFor,
  deploymentReadiness,
  isRecord,
  pvcReadiness,
  readyFrom,
  routeReadiness,
  type ConditionInput,
  type KubeObject,
  type Readiness,
  type SyncInput,
} from '../kit/index.js';
import { DATABASE_KEYS } from './deployment.js';
import type { TrustyAISpec } from './spec.js';

/*
 * Ready
 * ├── DeploymentReady   the service's pods are available
 * ├── StorageReady      PVC Bound, or the database Secret exists
 * ├── ModelMeshReady    model-serving-config lists this service
 * └── RouteReady        (OpenShift only) a router admitted the Route
 */
export interface Observations {
  deployment?: KubeObject;
  pvc?: KubeObject;
  dbSecret?: KubeObject;
  route?: KubeObject;
  withRoute: boolean;
  modelMesh: ConditionInput;
}

export function statusFrom(input: SyncInput<TrustyAISpec>, o: Observations): Record<string, unknown> {
  const decided: ConditionInput[] = [
    fromReadiness('DeploymentReady', deploymentReadiness(o.deployment)),
    storageCondition(input.parent.spec, o),
    o.modelMesh,
  ];
  if (o.withRoute) decided.push(fromReadiness('RouteReady', routeReadiness(o.route)));
  const ready = readyFrom(decided, 'AllComponentsReady', 'the TrustyAI service is ready');
  const status = o.deployment?.status as { replicas?: number } | undefined;
  return {
    phase: ready.status === 'True' ? 'Ready' : 'Not Ready',
    replicas: status?.replicas ?? 0,
    ready: ready.status === 'True' ? 'True' : 'False',
    conditions: conditionsFor(input, [ready, ...decided]),
  };
}

function storageCondition(spec: TrustyAISpec, o: Observations): ConditionInput {
  if (spec.storage.format === 'PVC') return fromReadiness('StorageReady', pvcReadiness(o.pvc));
  const secret = spec.storage.databaseConfigurations;
  if (!o.dbSecret) return condition.false('StorageReady', 'DBCredentialsNotFound', `Secret ${secret} with the database credentials was not found in the namespace`);
  // Only the key names are read: a missing key would stop the pods with CreateContainerConfigError.
  const keys = new Set([...Object.keys(recordOf(o.dbSecret.data)), ...Object.keys(recordOf(o.dbSecret.stringData))]);
  const missing = DATABASE_KEYS.map(([, key]) => key).filter((key) => !keys.has(key));
  return missing.length === 0
    ? condition.true('StorageReady', 'DBCredentialsFound', `database credentials Secret ${secret} found`)
    : condition.false('StorageReady', 'DBCredentialsIncomplete', `Secret ${secret} lacks the keys ${missing.join(', ')}`);
}

function recordOf(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

function fromReadiness(type: string, r: Readiness): ConditionInput {
  return { type, ...r };
}
