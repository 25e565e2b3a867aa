import type { Parent, RelatedRule } from '../../kit/index.js';
import { STORAGE_SECRET_ANNOTATION } from '../names.js';
import { COMPONENTS, modelOf, type InferenceServiceSpec } from '../spec.js';
import { rememberedSecrets } from './remembered.js';
import { DEFAULT_SERVICE_ACCOUNT } from './service-account.js';

/** KServe's default storage spec Secret (constants.DefaultStorageSpecSecret). */
const STORAGE_CONFIG_SECRET = 'storage-config';

/**
 * The customize rules for storage credentials, all by name in the parent's namespace: each
 * component's ServiceAccount (`default` when it names none, as KServe reads it), the Secret
 * of the storageSecretName annotation, `storage-config` for a storage spec, and the Secrets
 * the ServiceAccounts listed at the last sync (kept in the status: customize sees only the
 * parent). Only key names of a Secret are read, never values — except a storage spec's
 * `type` (see storage-spec.ts).
 */
export function credentialRules(parent: Parent<InferenceServiceSpec>): RelatedRule[] {
  const namespace = parent.metadata.namespace;
  const accounts = new Set(COMPONENTS.flatMap((c) => (parent.spec[c] ? [parent.spec[c]?.serviceAccountName || DEFAULT_SERVICE_ACCOUNT] : [])));
  const annotated = parent.metadata.annotations?.[STORAGE_SECRET_ANNOTATION];
  const model = modelOf(parent.spec.predictor);
  const secrets = new Set([
    ...(annotated ? [annotated] : []),
    ...(model?.storage && !annotated ? [STORAGE_CONFIG_SECRET] : []),
    ...rememberedSecrets(parent),
  ]);
  return [
    { apiVersion: 'v1', resource: 'serviceaccounts', namespace, names: [...accounts].sort() },
    ...(secrets.size > 0 ? [{ apiVersion: 'v1', resource: 'secrets', namespace, names: [...secrets].sort() }] : []),
  ];
}
