import type { KubeObject } from '../../../kit/index.js';
import type { Credentials } from './env.js';

/*
 * KServe v0.20.0 pkg/credentials/gcs/gcs_secret.go (GCSCredentialFileName,
 * GCSCredentialVolumeName, GCSCredentialVolumeMountPath, GCSCredentialEnvKey) and
 * service_account_credentials.go (the env value is the mount path + the file name).
 */
export const GCS_KEY = 'gcloud-application-credentials.json';
const GCS_VOLUME = 'user-gcp-sa';
const GCS_MOUNT = '/var/secrets/';

/** The Secret as a volume, its key file named by GOOGLE_APPLICATION_CREDENTIALS. */
export function gcsCredentials(secret: KubeObject): Credentials {
  return {
    env: [{ name: 'GOOGLE_APPLICATION_CREDENTIALS', value: `${GCS_MOUNT}${GCS_KEY}` }],
    volumes: [{ name: GCS_VOLUME, secret: { secretName: secret.metadata.name } }],
    mounts: [{ name: GCS_VOLUME, mountPath: GCS_MOUNT, readOnly: true }],
  };
}
