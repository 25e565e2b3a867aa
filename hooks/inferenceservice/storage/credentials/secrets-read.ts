import { isRecord, type KubeObject, type ObjectIndex, type Parent } from '../../../kit/index.js';
import { STORAGE_SECRET_ANNOTATION } from '../../names.js';
import { COMPONENTS, modelOf, type InferenceServiceSpec } from '../../spec.js';
import { DEFAULT_SERVICE_ACCOUNT } from './service-account.js';
import { STORAGE_CONFIG_SECRET, summaryOn, summaryPending, typeIn, type SecretSummary } from './summary.js';
import { secretKeys } from './env.js';

/**
 * The Secrets a plan may read, as it reads them: name, namespace, KServe's annotations and key
 * names, every value blanked. They come from the summaries on the components' ServiceAccounts
 * (summary.ts; the first that has a Secret gives it), so the settled plan's key (plan.ts)
 * changes with nothing else and holds no Secret value, nor a hash of one. A ServiceAccount whose
 * summary is not written yet for its `secrets` list gives none: its Secrets read as not found.
 * The exception is a Secret named by the storageSecretName annotation, read from the related
 * Secrets (rules.ts asks for them only then) and blanked here. The storage spec's Secret's
 * values are read only for the `type` of their JSON (storage-spec.ts typeIn): each value is
 * replaced by a stand-in with the same answer — one of three fixed words, or not JSON.
 */
export function secretsRead(parent: Parent<InferenceServiceSpec>, related: ObjectIndex): KubeObject[] {
  const namespace = parent.metadata.namespace;
  const annotated = parent.metadata.annotations?.[STORAGE_SECRET_ANNOTATION];
  const storageSecret = modelOf(parent.spec.predictor)?.storage ? (annotated ?? STORAGE_CONFIG_SECRET) : undefined;
  const read = new Map<string, KubeObject>();
  const annotatedSecret = annotated ? related.get('v1', 'Secret', annotated) : undefined;
  if (annotated && annotatedSecret) read.set(annotated, blanked(annotatedSecret, annotated === storageSecret));
  const accounts = [...new Set(COMPONENTS.flatMap((c) => (parent.spec[c] ? [parent.spec[c]?.serviceAccountName || DEFAULT_SERVICE_ACCOUNT] : [])))];
  for (const account of accounts) {
    const sa = related.get('v1', 'ServiceAccount', account);
    const summary = sa && !summaryPending(sa) ? summaryOn(sa) : undefined;
    for (const [name, s] of Object.entries(summary?.secrets ?? {})) {
      if (!read.has(name)) read.set(name, fromSummary(name, namespace, s, name === storageSecret));
    }
  }
  return [...read.keys()].sort().map((name) => read.get(name) as KubeObject);
}

/** A Secret as its summary describes it: the keys with blank values (storage spec: a stand-in of its type). */
function fromSummary(name: string, namespace: string, s: SecretSummary, storageSpec: boolean): KubeObject {
  const standIn = (key: string) => (storageSpec ? standInFor(s.types?.[key]) : '');
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace, ...(s.annotations ? { annotations: s.annotations } : {}) },
    data: Object.fromEntries(s.keys.map((k) => [k, standIn(k)])),
  } as KubeObject;
}

/** A stand-in value with the same storage type as the original (storage-spec.ts typeIn). */
function standInFor(type: string | undefined): string {
  const text = type === 'invalid' ? STAND_IN.invalid : type === undefined ? STAND_IN.none : JSON.stringify({ type });
  return Buffer.from(text).toString('base64');
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
  const standIn = (key: string) => (storageSpec ? standInFor(typeIn(secret, key)) : '');
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, ...(namespace !== undefined ? { namespace } : {}), ...kserveAnnotations(annotations) },
    data: Object.fromEntries(keys.map((k) => [k, standIn(k)])),
  } as KubeObject;
}
