import type { Parent, RelatedRule } from '../../../kit/index.js';
import { COMPONENTS, modelOf, type ComponentSpec, type InferenceServiceSpec } from '../../spec.js';
import { storageUrisOf } from '../source.js';
import { DEFAULT_SERVICE_ACCOUNT } from './service-account.js';

/**
 * Helm keeps each release in a Secret labelled `owner: helm` (type helm.sh/release.v1, up to
 * 1 MiB each, one per revision): never storage credentials, often most of a namespace's bytes.
 */
export const HELM_RELEASE_LABEL = { key: 'owner', value: 'helm' } as const;

/**
 * The customize rules for storage credentials, in the parent's namespace: each component's
 * ServiceAccount by name (`default` when it names none, as KServe reads it), and — where a
 * component downloads a model — every Secret of the namespace but Helm's release records.
 *
 * Why every Secret: customize sees only the parent (Metacontroller v4.17 customize/api/v1
 * hooks.go: CustomizeHookRequest{Controller, Parent}) and caches its answer per uid and
 * generation for 20 minutes (customize/manager.go newResponseCache), while KServe v0.20.0
 * reads the Secrets the ServiceAccount lists by name at once (pkg/credentials/
 * service_account_credentials.go CreateSecretVolumeAndEnvFromServiceAccount, mountSecretCredential).
 * Names cannot be known before the ServiceAccount is read, and a rule cannot combine names
 * with a selector (determineSelectionType), so a `namespace` + `labelSelector` rule lists the
 * namespace's Secrets (selectByNamespaceAndLabels): the first sync sees every Secret the
 * ServiceAccount lists, and a Secret created or changed later matches the cached rule and wakes
 * the parent (findRelatedParents). The same rule serves the storageSecretName annotation and a
 * storage spec's `storage-config`: an annotation edit bumps no generation, so a by-name rule
 * for it would wait for the cache to expire. Sync reads only key names and annotations of the
 * Secrets it uses (never values, but a storage-config JSON's `type`: storage-spec.ts).
 */
export function credentialRules(parent: Parent<InferenceServiceSpec>): RelatedRule[] {
  const namespace = parent.metadata.namespace;
  const accounts = new Set(COMPONENTS.flatMap((c) => (parent.spec[c] ? [parent.spec[c]?.serviceAccountName || DEFAULT_SERVICE_ACCOUNT] : [])));
  const rules: RelatedRule[] = [{ apiVersion: 'v1', resource: 'serviceaccounts', namespace, names: [...accounts].sort() }];
  if (downloadsModel(parent.spec)) rules.push(secretsRule(namespace));
  return rules;
}

/** Every Secret of the namespace but Helm's release records (NotIn also matches Secrets without the label). */
export const secretsRule = (namespace: string): RelatedRule => ({
  apiVersion: 'v1',
  resource: 'secrets',
  namespace,
  labelSelector: { matchExpressions: [{ key: HELM_RELEASE_LABEL.key, operator: 'NotIn', values: [HELM_RELEASE_LABEL.value] }] },
});

/**
 * Whether a component has something for the storage initializer to fetch — the only place
 * credentials go (storage.ts): a storage spec, or a URI other than pvc:// and oci:// (a claim
 * is mounted, a model car is pulled by the kubelet). Read from the spec alone, as customize must.
 */
export function downloadsModel(spec: InferenceServiceSpec): boolean {
  return COMPONENTS.some((role) => {
    const component = spec[role] as ComponentSpec | undefined;
    if (!component) return false;
    const model = role === 'predictor' ? modelOf(spec.predictor) : undefined;
    if (model?.storage !== undefined && model.storage !== null) return true;
    const uris = [...storageUrisOf(component).map((u) => u.uri), ...(model?.storageUri ? [model.storageUri] : []), ...storageUriEnv(component)];
    return uris.some((u) => !u.startsWith('pvc://') && !u.startsWith('oci://'));
  });
}

/** A custom container's STORAGE_URI (KServe's CustomSpec: the first container's env). */
function storageUriEnv(component: ComponentSpec): string[] {
  const [first] = Array.isArray(component.containers) ? component.containers : [];
  const env =
    first && typeof first === 'object' && Array.isArray((first as { env?: unknown }).env)
      ? ((first as { env: unknown[] }).env as Array<{ name?: unknown; value?: unknown }>)
      : [];
  return env.flatMap((e) => (e?.name === 'STORAGE_URI' && typeof e.value === 'string' && e.value !== '' ? [e.value] : []));
}
