import type { V1Container, V1EnvVar, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import { isRecord, restrictedContainer, type KubeObject } from '../kit/index.js';

/** Where KServe's servers read the model, and the names of its volumes. */
export const MODEL_DIR = '/mnt/models';
const PROVISION_VOLUME = 'kserve-provision-location';
const PVC_VOLUME = 'kserve-pvc-source';
const GCS_VOLUME = 'user-gcp-sa';
const GCS_MOUNT = '/var/secrets/';
const GCS_KEY = 'gcloud-application-credentials.json';

/** The schemes KServe's storage initializer accepts (KServe's SupportedStorageURIPrefixList, minus OCI model cars). */
export const STORAGE_SCHEMES = ['gs://', 's3://', 'pvc://', 'file://', 'https://', 'http://', 'hdfs://', 'webhdfs://', 'hf://'];

/** Why a storage URI cannot be served, or undefined when it can. */
export function storageUriProblem(uri: string): string | undefined {
  if (!/\w+?:\/\//.test(uri)) return undefined; // a local path, copied by the initializer
  if (uri.startsWith('oci')) return `OCI model cars are not supported in raw-deployment mode (${uri})`;
  if (!STORAGE_SCHEMES.some((s) => uri.startsWith(s))) return `unsupported scheme in ${uri}: use one of ${STORAGE_SCHEMES.join(', ')} or a local path`;
  if (uri.startsWith('pvc://') && uri.slice('pvc://'.length).split('/')[0] === '') return `${uri} must be pvc://<claim>/[path]`;
  return undefined;
}

/** What a storageUri adds to a pod: an init container or a PVC, and the server's read-only mount. */
export interface StoragePlan {
  initContainers: V1Container[];
  volumes: V1Volume[];
  serverMounts: V1VolumeMount[];
}

export function storagePlanFor(uri: string | undefined, image: string, secret: KubeObject | undefined): StoragePlan {
  if (!uri) return { initContainers: [], volumes: [], serverMounts: [] };
  if (uri.startsWith('pvc://')) {
    const [claimName = '', ...path] = uri.slice('pvc://'.length).split('/');
    const subPath = path.join('/');
    return {
      initContainers: [],
      volumes: [{ name: PVC_VOLUME, persistentVolumeClaim: { claimName, readOnly: true } }],
      serverMounts: [{ name: PVC_VOLUME, mountPath: MODEL_DIR, readOnly: true, ...(subPath ? { subPath } : {}) }],
    };
  }
  const credentials = credentialsFrom(secret);
  const init: V1Container = {
    name: 'storage-initializer',
    image,
    args: [uri, MODEL_DIR],
    ...(credentials.env.length > 0 ? { env: credentials.env } : {}),
    terminationMessagePolicy: 'FallbackToLogsOnError',
    resources: { requests: { cpu: '100m', memory: '100Mi' }, limits: { cpu: '1', memory: '1Gi' } },
    securityContext: restrictedContainer({ runAsNonRoot: true }),
    volumeMounts: [{ name: PROVISION_VOLUME, mountPath: MODEL_DIR }, ...credentials.mounts],
  };
  return {
    initContainers: [init],
    volumes: [{ name: PROVISION_VOLUME, emptyDir: {} }, ...credentials.volumes],
    serverMounts: [{ name: PROVISION_VOLUME, mountPath: MODEL_DIR, readOnly: true }],
  };
}

/** S3 settings KServe reads from the Secret's annotations (endpoints and flags, not secrets). */
const S3_ANNOTATIONS: Array<[annotation: string, env: string]> = [
  ['serving.kserve.io/s3-verifyssl', 'S3_VERIFY_SSL'],
  ['serving.kserve.io/s3-region', 'AWS_DEFAULT_REGION'],
  ['serving.kserve.io/s3-usevirtualbucket', 'S3_USER_VIRTUAL_BUCKET'],
  ['serving.kserve.io/s3-useaccelerate', 'S3_USE_ACCELERATE'],
];

/** KServe's S3 endpoint variables: S3_ENDPOINT without a scheme, AWS_ENDPOINT_URL with one. */
function s3Settings(annotations: Record<string, string>): V1EnvVar[] {
  const env: V1EnvVar[] = [];
  const endpoint = annotations['serving.kserve.io/s3-endpoint'];
  if (endpoint) {
    const useHttps = annotations['serving.kserve.io/s3-usehttps'];
    const scheme = /^https?:\/\//.exec(endpoint)?.[0] ?? (useHttps === '0' ? 'http://' : 'https://');
    const host = endpoint.replace(/^https?:\/\//, '');
    if (useHttps !== undefined) env.push({ name: 'S3_USE_HTTPS', value: useHttps });
    env.push({ name: 'S3_ENDPOINT', value: host }, { name: 'AWS_ENDPOINT_URL', value: `${scheme}${host}` });
  }
  for (const [a, name] of S3_ANNOTATIONS) if (annotations[a] !== undefined) env.push({ name, value: annotations[a] });
  return env;
}

const S3_KEY_SPELLINGS: Array<[id: string, secret: string]> = [
  ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'],
  ['awsAccessKeyID', 'awsSecretAccessKey'],
];

const AZURE_KEYS = ['AZURE_CLIENT_ID', 'AZURE_CLIENT_SECRET', 'AZURE_TENANT_ID', 'AZURE_SUBSCRIPTION_ID', 'AZURE_STORAGE_ACCESS_KEY'];

/**
 * The storage initializer's credentials, as KServe's credential builder maps a Secret by
 * the keys it holds. Only references are written: a Secret's values never leave it.
 */
export function credentialsFrom(secret: KubeObject | undefined): { env: V1EnvVar[]; volumes: V1Volume[]; mounts: V1VolumeMount[] } {
  const none = { env: [], volumes: [], mounts: [] };
  if (!secret) return none;
  const name = secret.metadata.name;
  const keys = new Set([...Object.keys(isRecord(secret.data) ? secret.data : {}), ...Object.keys(isRecord(secret.stringData) ? secret.stringData : {})]);
  const ref = (env: string, key: string): V1EnvVar => ({ name: env, valueFrom: { secretKeyRef: { name, key } } });
  // KServe's credential builder reads the keys its config names: AWS_* by default, the
  // camelCase pair in older installs and docs. Reference whichever the Secret holds.
  const s3 = S3_KEY_SPELLINGS.find(([, secretKey]) => keys.has(secretKey));
  if (s3) {
    const [idKey, secretKey] = s3;
    const settings = s3Settings(secret.metadata.annotations ?? {});
    return { ...none, env: [ref('AWS_ACCESS_KEY_ID', idKey), ref('AWS_SECRET_ACCESS_KEY', secretKey), ...settings] };
  }
  if (keys.has(GCS_KEY)) {
    return {
      env: [{ name: 'GOOGLE_APPLICATION_CREDENTIALS', value: `${GCS_MOUNT}${GCS_KEY}` }],
      volumes: [{ name: GCS_VOLUME, secret: { secretName: name } }],
      mounts: [{ name: GCS_VOLUME, mountPath: GCS_MOUNT, readOnly: true }],
    };
  }
  const azure = AZURE_KEYS.filter((k) => keys.has(k));
  if (azure.length > 0) return { ...none, env: azure.map((k) => ref(k, k)) };
  if (keys.has('HF_TOKEN')) return { ...none, env: [ref('HF_TOKEN', 'HF_TOKEN')] };
  return none;
}
