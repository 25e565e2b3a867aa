import type { V1Container, V1EnvVar, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import type { ObjectIndex } from '../../kit/index.js';
import type { StorageInitializerSettings } from '../config.js';

/*
 * What every storage form (uri.ts, modelcar.ts, credentials/) shares: where the model goes,
 * what a storage form adds to a pod, and what planning it reads. Kept apart so the forms
 * import it and not each other.
 */

/** Where KServe's servers read the model (constants.DefaultModelLocalMountPath), and its volume names. */
export const MODEL_DIR = '/mnt/models';
export const PROVISION_VOLUME = 'kserve-provision-location';

/** One URI to download and where (storageUris' `mountPath`, /mnt/models by default). */
export interface StorageUri {
  uri: string;
  mountPath: string;
}

/** What the storage adds to a pod: init containers, sidecars, volumes, and the server's mounts and env. */
export interface StoragePlan {
  initContainers: V1Container[];
  volumes: V1Volume[];
  serverMounts: V1VolumeMount[];
  serverEnv?: V1EnvVar[];
  serverRunAsUser?: number;
  sidecars?: V1Container[];
  shareProcessNamespace?: boolean;
}

export const NO_STORAGE: StoragePlan = { initContainers: [], volumes: [], serverMounts: [] };

/** What planning a component's storage reads: the initializer's image, the related objects, the pod's annotations. */
export interface StorageContext {
  image: string;
  /** KServe's storageInitializer settings (inferenceservice-config); its shipped values when absent. */
  initializer?: StorageInitializerSettings;
  related: ObjectIndex;
  annotations: Record<string, string>;
  /** The annotation naming the credentials Secret (serving.kserve.io/storageSecretName). */
  annotation: string;
  /** The pods are built for the restricted Pod Security Standard: its security fields on the storage containers too. */
  restricted?: boolean;
}
