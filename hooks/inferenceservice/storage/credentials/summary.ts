import { isRecord, type KubeObject, type ObjectIndex } from '../../../kit/index.js';
import { secretKeys } from './env.js';

/*
 * The credentials summary: what the InferenceService hook reads of a namespace's Secrets, kept
 * on each ServiceAccount by a DecoratorController (`modelhooks-inferenceservice-credentials`),
 * so that an InferenceService asks Metacontroller for its ServiceAccount by name and for no
 * Secret at all. KServe v0.20.0 reads the Secrets a ServiceAccount lists by name
 * (pkg/credentials/service_account_credentials.go CreateSecretVolumeAndEnvFromServiceAccount,
 * mountSecretCredential) and the storage spec's `storage-config` (CreateStorageSpecSecretEnvs);
 * of each it decides by key names, its `serving.kserve.io/s3-*` annotations and a storage
 * JSON's `type` — never by a value the pod could not read itself through a secretKeyRef.
 *
 * Why a namespace-wide Secret rule here and not "the Secrets the ServiceAccount lists by name":
 * a ServiceAccount has no metadata.generation, so Metacontroller would keep a customize answer
 * naming its Secrets for 20 minutes (customize/manager.go newResponseCache, keyed by uid and
 * generation) and miss a Secret added to its `secrets` list. A namespace has a few
 * ServiceAccounts, so a Secret event costs a few decorator syncs instead of one sync of every
 * InferenceService; and Metacontroller writes the ServiceAccount only when the summary changes
 * (decorator/controller.go updateStringMap), so an unrelated Secret's edit wakes no
 * InferenceService.
 */

/** The annotation the DecoratorController keeps on a ServiceAccount: JSON, see CredentialSummary. */
export const SUMMARY_ANNOTATION = 'modelhooks.dev/credentials';

/** KServe's default storage spec Secret (constants.DefaultStorageSpecSecret). */
export const STORAGE_CONFIG_SECRET = 'storage-config';

/** What the InferenceService hook reads of one Secret: never a value. */
export interface SecretSummary {
  /** Key names of `data` and `stringData`, sorted. */
  keys: string[];
  /** Its `serving.kserve.io/*` annotations (s3.ts reads them); other annotations may hold values. */
  annotations?: Record<string, string>;
  /** storage-config only: each key's JSON `type`, if one KServe supports, or `invalid` (not JSON); storage-spec.ts typeIn. */
  types?: Record<string, string>;
}

/** The summary on a ServiceAccount. */
export interface CredentialSummary {
  /** The ServiceAccount's `secrets` names when it was written: another list means it is not written yet. */
  listed: string[];
  /** The Secrets found among `listed` and `storage-config`, by name; a name missing here was not found. */
  secrets: Record<string, SecretSummary>;
}

const KSERVE_PREFIX = 'serving.kserve.io/';

/** The summary of a ServiceAccount from its namespace's Secrets; undefined when there is nothing to say (no Secret listed, no storage-config). */
export function summarize(sa: KubeObject, related: ObjectIndex): CredentialSummary | undefined {
  const listed = secretNamesOf(sa);
  const names = [...new Set([...listed, STORAGE_CONFIG_SECRET])].sort();
  const secrets: Record<string, SecretSummary> = {};
  for (const name of names) {
    const secret = related.get('v1', 'Secret', name);
    if (secret) secrets[name] = summaryOf(secret, name === STORAGE_CONFIG_SECRET);
  }
  if (listed.length === 0 && Object.keys(secrets).length === 0) return undefined;
  return { listed, secrets };
}

function summaryOf(secret: KubeObject, storageConfig: boolean): SecretSummary {
  const keys = [...secretKeys(secret)].sort();
  const annotations = isRecord(secret.metadata.annotations)
    ? Object.entries(secret.metadata.annotations)
        .filter(([k, v]) => k.startsWith(KSERVE_PREFIX) && typeof v === 'string')
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    : [];
  const types = storageConfig
    ? keys.flatMap((k) => {
        const type = typeIn(secret, k);
        return type === undefined ? [] : [[k, type] as const];
      })
    : [];
  return {
    keys,
    ...(annotations.length > 0 ? { annotations: Object.fromEntries(annotations) as Record<string, string> } : {}),
    ...(types.length > 0 ? { types: Object.fromEntries(types) } : {}),
  };
}

/** The summary a ServiceAccount carries, if its annotation is one (anything else reads as none). */
export function summaryOn(sa: KubeObject): CredentialSummary | undefined {
  const text = sa.metadata.annotations?.[SUMMARY_ANNOTATION];
  if (typeof text !== 'string') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(json) || !isStrings(json.listed) || !isRecord(json.secrets)) return undefined;
  const secrets: Record<string, SecretSummary> = {};
  for (const [name, s] of Object.entries(json.secrets)) {
    if (!isRecord(s) || !isStrings(s.keys)) return undefined;
    secrets[name] = {
      keys: s.keys,
      ...(isStringMap(s.annotations) ? { annotations: s.annotations } : {}),
      ...(isStringMap(s.types) ? { types: s.types } : {}),
    };
  }
  return { listed: json.listed, secrets };
}

/**
 * Whether the ServiceAccount's summary is not written yet for what it lists now: no summary
 * while it lists Secrets, or one written for another `secrets` list. Its Secrets then read as
 * not found, which keeps what runs and creates nothing new (status.ts) until the decorator's
 * write wakes the InferenceService: a first sync never serves a model without its credentials.
 */
export function summaryPending(sa: KubeObject): boolean {
  const listed = secretNamesOf(sa);
  const summary = summaryOn(sa);
  if (summary === undefined) return listed.length > 0;
  return summary.listed.length !== listed.length || summary.listed.some((n, i) => n !== listed[i]);
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isStringMap = (v: unknown): v is Record<string, string> => isRecord(v) && Object.values(v).every((x) => typeof x === 'string');

/** The Secret names a ServiceAccount lists under `secrets` (imagePullSecrets are for the kubelet, not read). */
export function secretNamesOf(sa: KubeObject): string[] {
  const list = (sa as { secrets?: unknown }).secrets;
  if (!Array.isArray(list)) return [];
  const names = list.flatMap((s) => (s && typeof s === 'object' && typeof (s as { name?: unknown }).name === 'string' ? [(s as { name: string }).name] : []));
  return [...new Set(names)].filter((n) => n !== '');
}

/** SupportedStorageSpecTypes (service_account_credentials.go). */
export const STORAGE_TYPES = ['s3', 'hdfs', 'webhdfs'];

/**
 * The storage type named in a storage-config JSON, only when it is one KServe supports: the
 * answer then holds one of three fixed words, never the Secret's text.
 */
export function typeIn(secret: KubeObject, key: string): string | undefined | 'invalid' {
  const raw =
    isRecord(secret.stringData) && typeof secret.stringData[key] === 'string'
      ? secret.stringData[key]
      : isRecord(secret.data) && typeof secret.data[key] === 'string'
        ? Buffer.from(secret.data[key], 'base64').toString('utf8')
        : undefined;
  if (raw === undefined) return undefined;
  try {
    const json: unknown = JSON.parse(raw);
    const type = isRecord(json) ? json.type : undefined;
    return typeof type === 'string' && STORAGE_TYPES.includes(type) ? type : undefined;
  } catch {
    return 'invalid';
  }
}
