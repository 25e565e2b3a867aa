import type { V1EnvVar } from '@kubernetes/client-node';
import type { StorageContext } from '../storage-plan.js';
import { secretKeys, secretRef, type Credentials } from './env.js';
import { NO_FINDINGS, type CredentialFindings } from './findings.js';
import { STORAGE_TYPES, typeIn } from './summary.js';

/*
 * `storage:` (key, path, parameters) as KServe v0.20.0 builds it: components/component.go
 * addStorageSpecAnnotations (the URI `<scheme-placeholder>://<path>`) and
 * pkg/credentials/service_account_credentials.go CreateStorageSpecSecretEnvs (constants
 * DefaultStorageSpecSecret `storage-config`, the `default`/`default_<type>` keys, STORAGE_CONFIG,
 * STORAGE_OVERRIDE_CONFIG, SupportedStorageSpecTypes, StorageBucketTypes).
 */
export interface ModelStorageSpec {
  key?: string;
  path?: string;
  parameters?: Record<string, string>;
}

export const PLACEHOLDER = '<scheme-placeholder>';
const DEFAULT_SECRET = 'storage-config';

/** The storage initializer's URI for a storage spec: the placeholder until the type is known. */
export const storageSpecUri = (spec: ModelStorageSpec): string | undefined =>
  spec.path !== undefined ? `${PLACEHOLDER}://${spec.path.replace(/^\/+/, '')}` : undefined;

/** The initializer's credentials and resolved arguments for a storage spec, and what the lookup found. */
export function storageSpecCredentials(
  spec: ModelStorageSpec,
  field: string,
  args: string[],
  ctx: StorageContext,
): Credentials & { args?: string[]; found: CredentialFindings } {
  const none = { env: [], volumes: [], mounts: [] };
  const used: string[] = [];
  const params = spec.parameters ?? {};
  const name = ctx.annotations[ctx.annotation] ?? DEFAULT_SECRET;
  const secret = ctx.related.get('v1', 'Secret', name);
  const problem = (f: string, message: string) => {
    const found = { ...NO_FINDINGS, problems: [{ field: `${field}.${f}`, message }], used };
    return { ...none, found };
  };
  let type = params.type ?? '';
  const env: V1EnvVar[] = [];
  if (!secret) {
    // KServe goes on without a default key's Secret, but not without a named key's.
    if (spec.key !== undefined) return { ...none, found: { ...NO_FINDINGS, missing: [{ kind: 'Secret', name, via: `${field}.key` }] } };
  } else {
    const keys = secretKeys(secret);
    const key = spec.key ?? (type ? `default_${type}` : 'default');
    if (spec.key !== undefined && !keys.has(key)) return problem('key', `Secret ${name} has no key ${key}`);
    if (keys.has(key)) {
      used.push(name);
      if (!type) {
        const read = typeIn(secret, key);
        if (read === 'invalid') return problem('key', `key ${key} of Secret ${name} is not JSON`);
        type = read ?? '';
      }
      env.push(secretRef('STORAGE_CONFIG', name, key));
    }
  }
  if (!type) return problem('parameters.type', `cannot tell the storage type: set it here or as "type" in the Secret ${name}'s JSON`);
  if (!STORAGE_TYPES.includes(type))
    return problem('parameters.type', `storage type must be one of [${STORAGE_TYPES.join(', ')}]. storage type [${type}] is not supported`);
  const bucket = params.bucket ?? '';
  const resolved = args.map((a, i) => {
    if (i % 2 !== 0 || !a.startsWith(`${PLACEHOLDER}://`)) return a;
    const path = a.slice(`${PLACEHOLDER}://`.length);
    return type === 's3' ? `s3://${bucket}/${path}` : `${type}://${path}`;
  });
  if (type === 's3' && bucket === '' && args.some((a) => a.startsWith(`${PLACEHOLDER}://`))) {
    // KServe may take the bucket from the Secret's JSON; its values are never copied into a pod spec here.
    return problem('parameters.bucket', `format [s3] requires a bucket: set it here (modelhooks does not copy values out of Secret ${name})`);
  }
  if (Object.keys(params).length > 0) {
    const sorted = Object.fromEntries(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    env.push({ name: 'STORAGE_OVERRIDE_CONFIG', value: JSON.stringify(sorted) });
  }
  return { ...none, env, args: resolved, found: { ...NO_FINDINGS, used } };
}
