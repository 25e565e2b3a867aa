import type { V1EnvVar } from '@kubernetes/client-node';
import type { KubeObject } from '../../../kit/index.js';
import { secretKeys, secretRef } from './env.js';

/* KServe v0.20.0 pkg/credentials/azure/azure_secret.go: AzureEnvKeys, the legacy AZ_* names, EmptyKeysToIgnore. */
const AZURE_ENV_KEYS = [
  'AZURE_SUBSCRIPTION_ID',
  'AZURE_TENANT_ID',
  'AZURE_CLIENT_ID',
  'AZURE_CLIENT_SECRET',
  'AZURE_STORAGE_ACCESS_KEY',
  'AZURE_ACCESS_TOKEN',
  'AZURE_ACCESS_EXPIRES_ON_SECONDS',
  'AZURE_ACCOUNT_NAME',
  'AZURE_SERVICE_URL',
];
const LEGACY: Record<string, string> = {
  AZURE_SUBSCRIPTION_ID: 'AZ_SUBSCRIPTION_ID',
  AZURE_TENANT_ID: 'AZ_TENANT_ID',
  AZURE_CLIENT_ID: 'AZ_CLIENT_ID',
  AZURE_CLIENT_SECRET: 'AZ_CLIENT_SECRET',
};
/** Every Azure key but AZURE_TENANT_ID is left out when the Secret lacks it. */
const OPTIONAL = new Set(AZURE_ENV_KEYS.filter((k) => k !== 'AZURE_TENANT_ID'));

/** The keys that make mountSecretCredential treat a Secret as Azure's, in its order. */
export const AZURE_MARKERS = ['AZ_CLIENT_ID', 'AZURE_CLIENT_ID', 'AZURE_ACCESS_TOKEN'];

/** BuildSecretEnvs: each Azure variable from its key (or the legacy AZ_* one); AZURE_TENANT_ID always. */
export function azureEnv(secret: KubeObject): V1EnvVar[] {
  const keys = secretKeys(secret);
  return AZURE_ENV_KEYS.flatMap((k) => {
    const legacy = LEGACY[k];
    const key = legacy && keys.has(legacy) ? legacy : k;
    return keys.has(key) || !OPTIONAL.has(key) ? [secretRef(k, secret.metadata.name, key)] : [];
  });
}

/** BuildStorageAccessKeySecretEnv: only the storage access key. */
export const azureAccessKeyEnv = (secret: KubeObject): V1EnvVar[] => [secretRef('AZURE_STORAGE_ACCESS_KEY', secret.metadata.name, 'AZURE_STORAGE_ACCESS_KEY')];
