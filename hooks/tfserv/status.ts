import type { V1ObjectReference } from '@kubernetes/client-node';
import { z } from 'zod';
import {
  condition,
  conditionsFor,
  deploymentReadiness,
  isRecord,
  readyFrom,
  type ConditionInput,
  type KubeObject,
  type Parent,
  conditionsSchema,
} from '../kit/index.js';
import type { TfservSpec } from './spec.js';

/*
 * Ready
 * ├── ConfigMapFound    the spec's ConfigMap exists and holds the models file
 * └── DeploymentReady   Deployment <n> rolled out and available
 */
export const CONFIG_MAP_FOUND = 'ConfigMapFound';
export const DEPLOYMENT_READY = 'DeploymentReady';
export const CONFIG_MAP_MISSING = 'ConfigMapMissing';
export const CONFIG_FILE_MISSING = 'ConfigFileMissing';

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
export function configMapCondition(parent: Parent<TfservSpec>, configMap: KubeObject | undefined, hasFile: boolean): ConditionInput {
  const { configMap: name, configFileName } = parent.spec;
  const ns = parent.metadata.namespace ?? 'default';
  if (!configMap) return condition.false(CONFIG_MAP_FOUND, CONFIG_MAP_MISSING, `ConfigMap ${name} not found in namespace ${ns}`);
  if (!hasFile) return condition.false(CONFIG_MAP_FOUND, CONFIG_FILE_MISSING, `ConfigMap ${name} in namespace ${ns} has no key ${configFileName}`);
  return condition.true(CONFIG_MAP_FOUND, 'ConfigMapFound', `ConfigMap ${name} holds ${configFileName}`);
}

export function statusFrom(
  input: { parent: Parent<TfservSpec>; now: string },
  configMapFound: ConditionInput,
  deployment: KubeObject | undefined,
  service: KubeObject | undefined,
): Record<string, unknown> {
  const rollout = deploymentReadiness(deployment);
  const deploymentReady: ConditionInput = { type: DEPLOYMENT_READY, ...rollout };
  const counts = isRecord(deployment?.status) ? deployment.status : {};
  return {
    active: [deployment, service].filter((o): o is KubeObject => o !== undefined).map(referenceTo),
    replicas: typeof counts.replicas === 'number' ? counts.replicas : 0,
    readyReplicas: typeof counts.readyReplicas === 'number' ? counts.readyReplicas : 0,
    conditions: conditionsFor(input, [readyFrom([configMapFound, deploymentReady]), configMapFound, deploymentReady]),
  };
}

/** No resourceVersion: it changes on every write, and the status would never settle. */
function referenceTo(obj: KubeObject): V1ObjectReference {
  const ref: V1ObjectReference = { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name, namespace: obj.metadata.namespace };
  return obj.metadata.uid ? { ...ref, uid: obj.metadata.uid } : ref;
}
