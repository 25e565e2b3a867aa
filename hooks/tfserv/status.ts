import type { V1ObjectReference } from '@kubernetes/client-node';
import { z } from 'zod';
import {
  condition,
  conditionsSchema,
  deploymentReadiness,
  deploymentWorkloadReadiness,
  fromReadiness,
  podsOf,
  isRecord,
  readyConditions,
  refusedCondition,
  IMMUTABLE_FIELD,
  type Cond,
  type Refusal,
  type KubeObject,
  type Parent,
  type SyncInput,
} from '../kit/index.js';
import { selectorFor } from './names.js';
import type { TfservSpec } from './spec.js';

export const CONFIG_MAP_FOUND = 'ConfigMapFound';
export const DEPLOYMENT_READY = 'DeploymentReady';
export const CONFIG_MAP_MISSING = 'ConfigMapMissing';
export const CONFIG_FILE_MISSING = 'ConfigFileMissing';

/** Ready ← the models file, then the server that reads it. */
export const conditionTree = readyConditions([
  {
    type: CONFIG_MAP_FOUND,
    means: "the spec's ConfigMap exists and holds the models file",
    reasons: { found: CONFIG_MAP_FOUND, configMapMissing: CONFIG_MAP_MISSING, configFileMissing: CONFIG_FILE_MISSING },
  },
  { type: DEPLOYMENT_READY, means: 'Deployment <n> rolled out and available (with the selector wanted)', reasons: { immutable: IMMUTABLE_FIELD } },
]);

const objectReference = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  uid: z.string().optional(),
});

/** The original status (`active`) plus replica counts and conditions. */
export const tfservStatus = z.object({
  active: z.array(objectReference).optional().describe('The children that currently exist (the original field).'),
  replicas: z.number().int().optional(),
  readyReplicas: z.number().int().optional(),
  conditions: conditionsSchema.optional(),
});

/** Whether the ConfigMap was found and holds the models file: the reason says which of the two failed. */
export function configMapCondition(parent: Parent<TfservSpec>, configMap: KubeObject | undefined, hasFile: boolean): Cond {
  const { configMap: name, configFileName } = parent.spec;
  const ns = parent.metadata.namespace;
  if (!configMap) return condition.false(CONFIG_MAP_FOUND, CONFIG_MAP_MISSING, `ConfigMap ${name} not found in namespace ${ns}`);
  if (!hasFile) return condition.false(CONFIG_MAP_FOUND, CONFIG_FILE_MISSING, `ConfigMap ${name} in namespace ${ns} has no key ${configFileName}`);
  return condition.true(CONFIG_MAP_FOUND, CONFIG_MAP_FOUND, `ConfigMap ${name} holds ${configFileName}`);
}

export function statusFrom(
  input: SyncInput<TfservSpec>,
  configMapFound: Cond,
  deployment: KubeObject | undefined,
  service: KubeObject | undefined,
  refused: Refusal[] = [],
): Record<string, unknown> {
  const pods = deployment ? podsOf(input.related, selectorFor(input.parent)) : [];
  const server =
    refusedCondition(DEPLOYMENT_READY, refused) ??
    fromReadiness(DEPLOYMENT_READY, deploymentWorkloadReadiness(deploymentReadiness(deployment), deployment, pods));
  const { conditions } = conditionTree.summarise(input, [configMapFound, server]);
  const counts = isRecord(deployment?.status) ? deployment.status : {};
  return {
    active: [deployment, service].filter((o): o is KubeObject => o !== undefined).map(referenceTo),
    replicas: typeof counts.replicas === 'number' ? counts.replicas : 0,
    readyReplicas: typeof counts.readyReplicas === 'number' ? counts.readyReplicas : 0,
    conditions,
  };
}

/** No resourceVersion: it changes on every write, and the status would never settle. */
function referenceTo(obj: KubeObject): V1ObjectReference {
  const { apiVersion, kind, metadata } = obj;
  return metadata.uid
    ? { apiVersion, kind, name: metadata.name, namespace: metadata.namespace, uid: metadata.uid }
    : { apiVersion, kind, name: metadata.name, namespace: metadata.namespace };
}
