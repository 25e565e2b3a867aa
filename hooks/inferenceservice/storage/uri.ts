import type { V1Container, V1EnvVar, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import { restrictedContainer } from '../../kit/index.js';
import { KSERVE_DEFAULTS, type StorageInitializerSettings } from '../config.js';
import { NO_CREDENTIALS, type Credentials } from './credentials/env.js';
import { NO_FINDINGS, type CredentialFindings } from './credentials/findings.js';
import { credentialsFor } from './credentials/service-account.js';
import { storageSpecCredentials, type ModelStorageSpec } from './credentials/storage-spec.js';
import { modelcarPlan } from './modelcar.js';
import { MODEL_DIR, NO_STORAGE, PROVISION_VOLUME, type StorageContext, type StoragePlan, type StorageUri } from './storage-plan.js';

/*
 * The storage forms of KServe v0.20.0 (pkg/webhook/admission/pod/storage_initializer_injector.go
 * CommonStorageInitialization and InjectStorageInitializer; pkg/utils/storage.go; pkg/constants).
 */

const PVC_VOLUME = 'kserve-pvc-source';
export const STORAGE_INITIALIZER = 'storage-initializer';

/** The schemes KServe's storage initializer accepts (SupportedStorageURIPrefixList); oci:// runs as a model car. */
export const STORAGE_SCHEMES = ['gs://', 's3://', 'pvc://', 'file://', 'https://', 'http://', 'hdfs://', 'webhdfs://', 'hf://', 'oci://'];

/** Why a storage URI cannot be served, or undefined when it can. */
export function storageUriProblem(uri: string): string | undefined {
  if (!/\w+?:\/\//.test(uri)) return undefined; // a local path, copied by the initializer
  if (/^oci\+[a-z]+:\/\//.test(uri))
    return `${uri}: only oci:// (a model car sidecar, KServe's default ociModelMode) is served; oci+<mode>:// needs KServe's ImageVolume or fetch modes`;
  if (!STORAGE_SCHEMES.some((s) => uri.startsWith(s))) return `unsupported scheme in ${uri}: use one of ${STORAGE_SCHEMES.join(', ')} or a local path`;
  if (uri.startsWith('pvc://') && uri.slice('pvc://'.length).split('/')[0] === '') return `${uri} must be pvc://<claim>/[path]`;
  if (uri.startsWith('oci://') && uri.length === 'oci://'.length) return `${uri} must be oci://<image>`;
  return undefined;
}

/** Where a component's model comes from. `legacy`: storageUri or STORAGE_URI (one URI at /mnt/models). */
export interface StorageSource {
  uris: StorageUri[];
  legacy: boolean;
  /** `storage:` (key, path, parameters): the URI is built from the storage-config Secret. */
  spec?: ModelStorageSpec;
  /** The spec path of the storage field, for messages. */
  field: string;
}

/** The component's ServiceAccount, as the pod gets it. */
export interface Account {
  name: string | undefined;
  field: string;
}

/** KServe's StorageReadonlyAnnotationKey (pkg/constants/constants.go). */
export const STORAGE_READONLY_ANNOTATION = 'storage.kserve.io/readonly';

/**
 * GetStorageInitializerReadOnlyFlag (webhook/admission/pod/storage_initializer_injector.go):
 * the model is mounted read-only unless the component's annotations (the InferenceService's
 * with the component's over them, as its pod gets them) say exactly "false".
 */
export const isStorageReadOnly = (annotations: Record<string, string>): boolean => annotations[STORAGE_READONLY_ANNOTATION] !== 'false';

/** A component's storage, and what its credentials lookups found. */
export interface PlannedStorage {
  storage: StoragePlan;
  found: CredentialFindings;
}

/** `readOnly`: the server's model mounts (isStorageReadOnly); the initializer always writes. */
export function storagePlanFor(source: StorageSource, ctx: StorageContext, account: Account, readOnly = true): PlannedStorage {
  const { uris } = source;
  if (uris.length === 0) return { storage: NO_STORAGE, found: NO_FINDINGS };
  const oci = uris.filter((u) => u.uri.startsWith('oci://'));
  const settings = ctx.initializer ?? KSERVE_DEFAULTS.storageInitializer;
  const car = modelcarPlan(oci, source.legacy, settings.modelcar, ctx.restricted === true);
  const rest = uris.filter((u) => !u.uri.startsWith('oci://'));
  // A legacy oci:// URI is the model car alone (CommonStorageInitialization returns early).
  if (rest.length === 0) return { storage: car, found: NO_FINDINGS };
  const initializer = { image: ctx.image, resources: settings.resources, restricted: ctx.restricted === true };
  const files = source.legacy ? legacyPlan(rest[0] as StorageUri, initializer, readOnly) : multiPlan(rest, initializer, readOnly);
  const init = files.initContainers[0];
  if (!init) return { storage: merge(car, files), found: NO_FINDINGS };
  const credentials = credentialsOf(source, ctx, account, init.args ?? []);
  const args = credentials.args ?? init.args;
  const env = withDefaults([...credentials.env], settings.caBundleVolumeMountPath);
  const { name, image, args: _a, ...fields } = init;
  const withCredentials: V1Container = {
    name,
    image,
    ...(args ? { args } : {}),
    ...(env.length > 0 ? { env } : {}),
    ...fields,
    volumeMounts: [...(init.volumeMounts ?? []), ...credentials.mounts],
  };
  const storage = merge(car, { ...files, initContainers: [withCredentials], volumes: [...files.volumes, ...credentials.volumes] });
  return { storage, found: credentials.found };
}

/** Credentials for the initializer: the storage spec's Secret, else the ServiceAccount's (or the annotated) Secrets. */
function credentialsOf(
  source: StorageSource,
  ctx: StorageContext,
  account: Account,
  args: string[],
): Credentials & { args?: string[]; found: CredentialFindings } {
  if (source.spec) return storageSpecCredentials(source.spec, source.field, args, ctx);
  const found = credentialsFor({
    related: ctx.related,
    serviceAccountName: account.name,
    serviceAccountField: account.field,
    annotatedSecret: ctx.annotations[ctx.annotation],
    annotation: ctx.annotation,
    uris: source.uris.map((u) => u.uri),
  });
  const findings = { ...NO_FINDINGS, missing: found.missing, used: found.used };
  return { ...(found.missing.length > 0 ? NO_CREDENTIALS : found.credentials), found: findings };
}

/** The CA bundle variables KServe adds after the credentials (the Hugging Face ones follow: env.ts). */
function withDefaults(env: V1EnvVar[], caBundleMountPath: string): V1EnvVar[] {
  return [...env, ...caBundleEnv(env, caBundleMountPath)].filter((e, i, all) => all.findIndex((x) => x.name === e.name) === i);
}

/**
 * needCaBundleMount: with the default ConfigMap (caBundleConfigMapName ""), only an
 * AWS_CA_BUNDLE_CONFIGMAP variable asks for the bundle; its ConfigMap is mounted at
 * /etc/ssl/custom-certs (caBundleVolumeMountPath), or AWS_CA_BUNDLE's directory.
 */
function caBundleEnv(env: V1EnvVar[], mountPath: string): V1EnvVar[] {
  const configMap = env.find((e) => e.name === 'AWS_CA_BUNDLE_CONFIGMAP')?.value;
  if (configMap === undefined) return [];
  const bundle = env.find((e) => e.name === 'AWS_CA_BUNDLE')?.value;
  const dir = bundle ? bundle.replace(/\/[^/]*$/, '') || '/' : mountPath;
  return [
    { name: 'CA_BUNDLE_CONFIGMAP_NAME', value: configMap },
    { name: 'CA_BUNDLE_VOLUME_MOUNT_POINT', value: dir },
  ];
}

/** The CA bundle's ConfigMap volume, when the initializer's env asks for it. */
export function caBundleVolume(init: V1Container): { volume: V1Volume; mount: V1VolumeMount } | undefined {
  const name = init.env?.find((e) => e.name === 'CA_BUNDLE_CONFIGMAP_NAME')?.value;
  const dir = init.env?.find((e) => e.name === 'CA_BUNDLE_VOLUME_MOUNT_POINT')?.value;
  if (!name || !dir) return undefined;
  return { volume: { name: 'cabundle-cert', configMap: { name } }, mount: { name: 'cabundle-cert', mountPath: dir, readOnly: true } };
}

/** The initializer's image and resources (storageInitializer in inferenceservice-config; CreateInitContainerWithConfig). */
type Initializer = { image: string; resources: StorageInitializerSettings['resources']; restricted: boolean };

/** CreateInitContainerWithConfig (pkg/utils/storage.go): no security context, unless the pods are built for the restricted level. */
function initContainer({ image, resources, restricted }: Initializer, args: string[], mount: V1VolumeMount): V1Container {
  return {
    name: STORAGE_INITIALIZER,
    image,
    args,
    terminationMessagePolicy: 'FallbackToLogsOnError',
    resources: { requests: { ...resources.requests }, limits: { ...resources.limits } },
    ...(restricted ? { securityContext: restrictedContainer({ runAsNonRoot: true }) } : {}),
    volumeMounts: [mount],
  };
}

/**
 * A mount of the server's as utils.AddModelMount (pkg/utils/storage.go) adds it: readOnly as
 * the flag says (Go omits a false one); the PVC volume itself carries no readOnly.
 */
const serverMount = (name: string, mountPath: string, readOnly: boolean, subPath = ''): V1VolumeMount => ({
  name,
  mountPath,
  ...(readOnly ? { readOnly } : {}),
  ...(subPath ? { subPath } : {}),
});

/** One URI at /mnt/models: a PVC mounted there with its path as subPath, or an initializer into an emptyDir. */
function legacyPlan({ uri }: StorageUri, image: Initializer, readOnly: boolean): StoragePlan {
  if (uri.startsWith('pvc://')) {
    const [claimName = '', ...path] = uri.slice('pvc://'.length).split('/');
    const subPath = path.join('/');
    return {
      initContainers: [],
      volumes: [{ name: PVC_VOLUME, persistentVolumeClaim: { claimName } }],
      serverMounts: [serverMount(PVC_VOLUME, MODEL_DIR, readOnly, subPath)],
    };
  }
  return {
    initContainers: [initContainer(image, [uri, MODEL_DIR], { name: PROVISION_VOLUME, mountPath: MODEL_DIR })],
    volumes: [{ name: PROVISION_VOLUME, emptyDir: {} }],
    serverMounts: [serverMount(PROVISION_VOLUME, MODEL_DIR, readOnly)],
  };
}

/**
 * storageUris: each pvc:// claim mounted whole at its mountPath (KServe passes no subPath in
 * this form), the other URIs downloaded by one initializer into an emptyDir mounted at their
 * mount paths' common parent (FindCommonParentPath), named after that path (GetVolumeNameFromPath).
 */
function multiPlan(uris: StorageUri[], image: Initializer, readOnly: boolean): StoragePlan {
  const pvcs = uris.filter((u) => u.uri.startsWith('pvc://'));
  const downloads = uris.filter((u) => !u.uri.startsWith('pvc://'));
  const volumes: V1Volume[] = [];
  const serverMounts: V1VolumeMount[] = [];
  for (const { uri, mountPath } of pvcs) {
    const name = volumeNameOf(mountPath);
    if (serverMounts.some((m) => m.name === name)) continue;
    volumes.push({ name, persistentVolumeClaim: { claimName: uri.slice('pvc://'.length).split('/')[0] ?? '' } });
    serverMounts.push(serverMount(name, mountPath, readOnly));
  }
  if (downloads.length === 0) return { initContainers: [], volumes, serverMounts };
  const common = commonParentPath(downloads.map((d) => d.mountPath));
  const name = volumeNameOf(common);
  const args = downloads.flatMap((d) => [d.uri, d.mountPath]);
  return {
    initContainers: [initContainer(image, args, { name, mountPath: common })],
    volumes: serverMounts.some((m) => m.name === name) ? volumes : [...volumes, { name, emptyDir: {} }],
    serverMounts: serverMounts.some((m) => m.name === name) ? serverMounts : [...serverMounts, serverMount(name, common, readOnly)],
  };
}

/** utils.FindCommonParentPath. */
export function commonParentPath(paths: string[]): string {
  if (paths.length === 1) return paths[0] as string;
  const parts = paths.map((p) => p.replace(/^\/+|\/+$/g, '')).map((p) => (p === '' ? [] : p.split('/')));
  const lengths = parts.filter((p) => p.length > 0).map((p) => p.length);
  const min = lengths.length > 0 ? Math.min(...lengths) : 0;
  const common: string[] = [];
  for (let i = 0; i < min; i++) {
    const level = new Set(parts.map((p) => p[i]));
    if (level.size !== 1) break;
    common.push(parts[0]?.[i] as string);
  }
  return common.length === 0 ? '/' : `/${common.join('/')}`;
}

/** utils.GetVolumeNameFromPath: the path without its outer slashes, inner ones as dashes. */
export const volumeNameOf = (path: string) => path.replace(/^\/+|\/+$/g, '').replaceAll('/', '-');

function merge(a: StoragePlan, b: StoragePlan): StoragePlan {
  const volumes = [...a.volumes, ...b.volumes].filter((v, i, all) => all.findIndex((x) => x.name === v.name) === i);
  const init = b.initContainers[0];
  const ca = init ? caBundleVolume(init) : undefined;
  const initContainers = [
    ...a.initContainers,
    ...b.initContainers.map((c) => (ca && c === init ? { ...c, volumeMounts: [...(c.volumeMounts ?? []), ca.mount] } : c)),
  ];
  return {
    initContainers,
    volumes: ca ? [...volumes, ca.volume] : volumes,
    serverMounts: [...b.serverMounts, ...a.serverMounts],
    ...(a.serverEnv ? { serverEnv: a.serverEnv } : {}),
    ...(a.serverRunAsUser !== undefined ? { serverRunAsUser: a.serverRunAsUser } : {}),
    ...(a.sidecars ? { sidecars: a.sidecars } : {}),
    ...(a.shareProcessNamespace ? { shareProcessNamespace: true } : {}),
  };
}
