import { isRecord, type KubeObject, type ObjectIndex, type Parent } from '../../../kit/index.js';
import { STORAGE_SECRET_ANNOTATION } from '../../names.js';
import { COMPONENTS, modelOf, type InferenceServiceSpec } from '../../spec.js';
import { DEFAULT_SERVICE_ACCOUNT, secretNamesOf } from './service-account.js';
import { secretKeys } from './env.js';
import { typeIn } from './storage-spec.js';

/** KServe's default storage spec Secret (constants.DefaultStorageSpecSecret). */
const STORAGE_CONFIG_SECRET = 'storage-config';

/**
 * The parent's namespace's Secrets a plan may read, as it reads them: name, namespace,
 * annotations and key names, every value blanked. Customize asks for all the namespace's
 * Secrets (rules.ts); only those the components' ServiceAccounts list, the storageSecretName
 * annotation names, or `storage-config` are kept, so the settled plan's key (plan.ts) changes
 * with nothing else and holds no Secret value, nor a hash of one. The one exception is the
 * storage spec's Secret, whose values a plan reads only for the `type` of their JSON
 * (storage-spec.ts typeIn): each value is replaced by a stand-in with the same answer — one of
 * three fixed words, or not JSON.
 */
export function secretsRead(parent: Parent<InferenceServiceSpec>, related: ObjectIndex): KubeObject[] {
  const annotated = parent.metadata.annotations?.[STORAGE_SECRET_ANNOTATION];
  const accounts = COMPONENTS.flatMap((c) => (parent.spec[c] ? [parent.spec[c]?.serviceAccountName || DEFAULT_SERVICE_ACCOUNT] : []));
  const listed = accounts.flatMap((name) => {
    const sa = related.get('v1', 'ServiceAccount', name);
    return sa ? secretNamesOf(sa) : [];
  });
  const names = [...new Set([...listed, ...(annotated ? [annotated] : []), STORAGE_CONFIG_SECRET])].sort();
  const storageSecret = modelOf(parent.spec.predictor)?.storage ? (annotated ?? STORAGE_CONFIG_SECRET) : undefined;
  return names.flatMap((name) => {
    const secret = related.get('v1', 'Secret', name);
    return secret ? [blanked(secret, name === storageSecret)] : [];
  });
}

/**
 * Only KServe's own annotations (`serving.kserve.io/s3-*`: s3.ts): others may hold values —
 * `kubectl apply` keeps the whole Secret, data included, in last-applied-configuration.
 */
function kserveAnnotations(annotations: unknown): { annotations?: Record<string, string> } {
  if (!isRecord(annotations)) return {};
  const kept = Object.entries(annotations).filter(([k, v]) => k.startsWith(KSERVE_PREFIX) && typeof v === 'string');
  return kept.length > 0 ? { annotations: Object.fromEntries(kept) as Record<string, string> } : {};
}

const KSERVE_PREFIX = 'serving.kserve.io/';
const STAND_IN = { invalid: '-', none: '{}' } as const;

function blanked(secret: KubeObject, storageSpec: boolean): KubeObject {
  const { name, namespace, annotations } = secret.metadata;
  const keys = [...secretKeys(secret)].sort();
  const standIn = (key: string) => {
    if (!storageSpec) return '';
    const type = typeIn(secret, key);
    const text = type === 'invalid' ? STAND_IN.invalid : type === undefined ? STAND_IN.none : JSON.stringify({ type });
    return Buffer.from(text).toString('base64');
  };
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, ...(namespace !== undefined ? { namespace } : {}), ...kserveAnnotations(annotations) },
    data: Object.fromEntries(keys.map((k) => [k, standIn(k)])),
  } as KubeObject;
}
