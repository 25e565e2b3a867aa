import type { V1Container } from '@kubernetes/client-node';
import { mergeEnv } from '../pod/component-pod.js';
import type { ComponentSpec, ModelSpec } from '../spec.js';
import { storageSpecUri, type ModelStorageSpec } from './credentials/storage-spec.js';
import { MODEL_DIR, type StoragePlan } from './storage-plan.js';
import type { StorageSource } from './uri.js';

/** A component's `storageUris` (KServe v0.20.0 v1beta1.StorageUri; mountPath defaults to /mnt/models). */
export function storageUrisOf(component: ComponentSpec): StorageSource['uris'] {
  const list = Array.isArray(component.storageUris) ? component.storageUris : [];
  return list.flatMap((u) =>
    u && typeof u === 'object' && typeof u.uri === 'string' && u.uri !== ''
      ? [{ uri: u.uri as string, mountPath: typeof u.mountPath === 'string' && u.mountPath !== '' ? (u.mountPath as string) : MODEL_DIR }]
      : [],
  );
}

/** Where a model's files come from: storageUris, else `storage:`, else storageUri. */
export function modelStorageSource(component: ComponentSpec, model: ModelSpec, field: string): StorageSource {
  const uris = storageUrisOf(component);
  if (uris.length > 0) return { uris, legacy: false, field: `${field.replace(/\.[^.]+$/, '')}.storageUris` };
  const storage = model.storage as ModelStorageSpec | undefined;
  if (storage && typeof storage === 'object') {
    const uri = storageSpecUri(storage) ?? model.storageUri;
    return { uris: uri ? [{ uri, mountPath: MODEL_DIR }] : [], legacy: true, spec: storage, field: `${field}.storage` };
  }
  return { uris: model.storageUri ? [{ uri: model.storageUri, mountPath: MODEL_DIR }] : [], legacy: true, field: `${field}.storageUri` };
}

/** The server with what the storage gives it: mounts, env (a model car's MODEL_INIT_MODE), its user. */
export function serverWithStorage(server: V1Container, storage: StoragePlan): V1Container {
  if (storage.serverMounts.length === 0 && !storage.serverEnv && storage.serverRunAsUser === undefined) return server;
  const env = storage.serverEnv ? mergeEnv(server.env ?? [], storage.serverEnv) : server.env;
  return {
    ...server,
    ...(env ? { env } : {}),
    ...(storage.serverRunAsUser !== undefined ? { securityContext: { ...(server.securityContext ?? {}), runAsUser: storage.serverRunAsUser } } : {}),
    volumeMounts: [...(server.volumeMounts ?? []), ...storage.serverMounts],
  };
}
