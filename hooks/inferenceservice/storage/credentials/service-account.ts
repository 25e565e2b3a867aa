import type { KubeObject, ObjectIndex } from '../../../kit/index.js';
import { azureAccessKeyEnv, azureEnv, AZURE_MARKERS } from './azure.js';
import { mergeInPlace, NO_CREDENTIALS, secretKeys, type Credentials } from './env.js';
import { GCS_KEY, gcsCredentials } from './gcs.js';
import { HF_TOKEN_KEY, hfEnv } from './hf.js';
import { HTTPS_HOST_KEY, httpsHeadersEnv } from './https.js';
import { IRSA_ANNOTATION, s3KeysOf, s3SecretEnv, s3ServiceAccountEnv } from './s3.js';
import { secretNamesOf, summaryPending } from './summary.js';

/*
 * KServe v0.20.0 pkg/credentials/service_account_credentials.go: CreateSecretVolumeAndEnv,
 * CreateSecretVolumeAndEnvFromServiceAccount, mountSecretCredential.
 */

/** KServe reads the `default` ServiceAccount when a component names none. */
export const DEFAULT_SERVICE_ACCOUNT = 'default';

/** An object the credentials need that is not among the related objects. */
export interface Missing {
  kind: 'ServiceAccount' | 'Secret';
  name: string;
  /** How it is referenced: `spec.predictor.serviceAccountName`, `ServiceAccount sa`, an annotation. */
  via: string;
}

export interface CredentialLookup {
  credentials: Credentials;
  missing: Missing[];
  /** Secrets whose credentials were used, in order. */
  used: string[];
}

export interface CredentialSource {
  related: ObjectIndex;
  /** The component's serviceAccountName, if set. */
  serviceAccountName: string | undefined;
  /** Where serviceAccountName is read from, for messages. */
  serviceAccountField: string;
  /** The storageSecretName annotation's value, which takes precedence over the ServiceAccount's Secrets. */
  annotatedSecret: string | undefined;
  annotation: string;
  /** The storage URIs the initializer downloads (the HTTPS headers variable is named for their host). */
  uris: string[];
}

/** The storage initializer's credentials from the ServiceAccount, its Secrets or the annotated Secret. */
export function credentialsFor(src: CredentialSource): CredentialLookup {
  const saName = src.serviceAccountName || DEFAULT_SERVICE_ACCOUNT;
  const sa = src.related.get('v1', 'ServiceAccount', saName);
  const missing: Missing[] = [];
  if (!sa) {
    // KServe logs a missing ServiceAccount and goes on without credentials; a named one that
    // is missing stops the pod anyway (the ServiceAccount admission plugin refuses it).
    if (src.serviceAccountName) missing.push({ kind: 'ServiceAccount', name: saName, via: src.serviceAccountField });
    return { credentials: NO_CREDENTIALS, missing, used: [] };
  }
  let credentials: Credentials = { ...NO_CREDENTIALS };
  if (sa.metadata.annotations?.[IRSA_ANNOTATION] !== undefined) credentials = { ...credentials, env: s3ServiceAccountEnv(sa) };
  const listed = secretNamesOf(sa);
  const refs: Array<{ name: string; via: string }> = src.annotatedSecret
    ? [{ name: src.annotatedSecret, via: `annotation ${src.annotation}` }]
    : listed.map((name) => ({ name, via: summaryPending(sa) ? `ServiceAccount ${saName}, whose Secrets are not summarized yet` : `ServiceAccount ${saName}` }));
  const used: string[] = [];
  for (const ref of refs) {
    const secret = src.related.get('v1', 'Secret', ref.name);
    if (!secret) {
      missing.push({ kind: 'Secret', name: ref.name, via: ref.via });
      continue;
    }
    const add = fromSecret(secret, src.uris);
    if (!add) continue;
    used.push(ref.name);
    credentials = {
      env: add.merge ? mergeInPlace(credentials.env, add.env) : [...credentials.env, ...add.env],
      volumes: [...credentials.volumes, ...add.volumes.filter((v) => !credentials.volumes.some((c) => c.name === v.name))],
      mounts: [...credentials.mounts, ...add.mounts],
    };
  }
  return { credentials, missing, used };
}

/** mountSecretCredential: the first kind of credentials the Secret's keys announce, in KServe's order. */
function fromSecret(secret: KubeObject, uris: string[]): (Credentials & { merge?: boolean }) | undefined {
  const keys = secretKeys(secret);
  const env = (e: Credentials['env']) => ({ ...NO_CREDENTIALS, env: e });
  const s3 = s3KeysOf(secret);
  if (s3) return { ...env(s3SecretEnv(secret, s3)), merge: true };
  if (keys.has(GCS_KEY)) return gcsCredentials(secret);
  if (AZURE_MARKERS.some((k) => keys.has(k))) return env(azureEnv(secret));
  if (keys.has('AZURE_STORAGE_ACCESS_KEY')) return env(azureAccessKeyEnv(secret));
  if (keys.has(HTTPS_HOST_KEY)) return env(httpsHeadersEnv(secret, uris));
  if (keys.has(HF_TOKEN_KEY)) return env(hfEnv(secret));
  return undefined;
}
