import type { V1EnvVar } from '@kubernetes/client-node';
import type { KubeObject } from '../../../kit/index.js';
import { secretKeys, secretRef } from './env.js';

/* KServe v0.20.0 pkg/credentials/https/https_secret.go: keys `https-host` and `headers`, env `<host>-headers`. */
export const HTTPS_HOST_KEY = 'https-host';
const HEADERS_KEY = 'headers';

/**
 * KServe names the variable after the Secret's `https-host` value and copies `headers` into
 * it. Both are Secret values, so we name it after the host of the storage URI — the name the
 * storage initializer looks up (python/storage/kserve_storage/kserve_storage.py: the URL's
 * hostname + `-headers`) — and reference `headers`. No URI host (an s3:// model): no variable.
 */
export function httpsHeadersEnv(secret: KubeObject, uris: string[]): V1EnvVar[] {
  if (!secretKeys(secret).has(HEADERS_KEY)) return [];
  const hosts = [...new Set(uris.flatMap((u) => (/^https?:\/\//.test(u) ? [hostOf(u)] : [])).filter((h): h is string => !!h))];
  return hosts.map((h) => secretRef(`${h}-headers`, secret.metadata.name, HEADERS_KEY));
}

function hostOf(uri: string): string | undefined {
  try {
    return new URL(uri).hostname || undefined;
  } catch {
    return undefined;
  }
}
