import type { V1EnvVar, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import { isRecord, type KubeObject } from '../../../kit/index.js';

/** What credentials add to the storage initializer: env, pod volumes, its mounts. */
export interface Credentials {
  env: V1EnvVar[];
  volumes: V1Volume[];
  mounts: V1VolumeMount[];
}

export const NO_CREDENTIALS: Credentials = { env: [], volumes: [], mounts: [] };

/** The key names a Secret holds (`data`, and `stringData` as written); never its values. */
export function secretKeys(secret: KubeObject): Set<string> {
  const names = (v: unknown) => (isRecord(v) ? Object.keys(v) : []);
  return new Set([...names(secret.data), ...names(secret.stringData)]);
}

/** An env var read from a Secret's key by the kubelet: the value never passes through us. */
export const secretRef = (env: string, secret: string, key: string): V1EnvVar => ({ name: env, valueFrom: { secretKeyRef: { name: secret, key } } });

/** KServe's utils.MergeEnvs: an override replaces its namesake in place, new names go last. */
export function mergeInPlace(base: V1EnvVar[], over: V1EnvVar[]): V1EnvVar[] {
  const out = [...base];
  for (const o of over) {
    const i = out.findIndex((b) => b.name === o.name);
    if (i >= 0) out[i] = o;
    else out.push(o);
  }
  return out;
}
