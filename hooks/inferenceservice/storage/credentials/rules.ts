import type { Decorator, Parent, RelatedRule } from '../../../kit/index.js';
import { STORAGE_SECRET_ANNOTATION } from '../../names.js';
import { COMPONENTS, modelOf, type ComponentSpec, type InferenceServiceSpec } from '../../spec.js';
import { storageUrisOf } from '../source.js';
import { DEFAULT_SERVICE_ACCOUNT } from './service-account.js';
import { SUMMARY_ANNOTATION, summarize } from './summary.js';

/**
 * Helm keeps each release in a Secret labelled `owner: helm` (type helm.sh/release.v1, up to
 * 1 MiB each, one per revision): never storage credentials, often most of a namespace's bytes.
 */
export const HELM_RELEASE_LABEL = { key: 'owner', value: 'helm' } as const;

/**
 * The customize rules for storage credentials, in the parent's namespace: each component's
 * ServiceAccount by name (`default` when it names none, as KServe reads it), which carries the
 * summary of its Secrets (summary.ts) — no Secret, so a sync holds no Secret data, does not
 * grow with the namespace's Secrets, and an unrelated Secret's edit wakes no InferenceService;
 * a Secret the ServiceAccount lists that changes what is read (keys, s3 annotations, a storage
 * type) changes the summary, whose write wakes the parents that ask for that ServiceAccount.
 *
 * The one exception: a parent annotated serving.kserve.io/storageSecretName, where a download
 * is needed, still asks for every Secret of the namespace but Helm's release records, as it
 * did before the summary. The annotation names any Secret, which no ServiceAccount lists, and
 * customize sees only the parent (Metacontroller v4.17 customize/api/v1 hooks.go) and caches
 * its answer per uid and generation for 20 minutes (customize/manager.go newResponseCache),
 * while an annotation edit bumps no generation: a by-name rule would miss a renamed Secret for
 * that long. Sync still reads only key names and annotations of it (secrets-read.ts).
 */
export function credentialRules(parent: Parent<InferenceServiceSpec>): RelatedRule[] {
  const namespace = parent.metadata.namespace;
  const accounts = new Set(COMPONENTS.flatMap((c) => (parent.spec[c] ? [parent.spec[c]?.serviceAccountName || DEFAULT_SERVICE_ACCOUNT] : [])));
  const rules: RelatedRule[] = [{ apiVersion: 'v1', resource: 'serviceaccounts', namespace, names: [...accounts].sort() }];
  if (parent.metadata.annotations?.[STORAGE_SECRET_ANNOTATION] !== undefined && downloadsModel(parent.spec)) rules.push(secretsRule(namespace));
  return rules;
}

/**
 * The DecoratorController on ServiceAccounts (summary.ts): every non-Helm Secret of the
 * namespace in, the summary out as one annotation (removed when there is nothing to say).
 */
export const credentialsDecorator: Decorator = {
  name: 'credentials',
  resource: { apiVersion: 'v1', resource: 'serviceaccounts', kind: 'ServiceAccount' },
  customize: (sa) => [secretsRule(sa.metadata.namespace as string)],
  sync(sa, related) {
    const summary = summarize(sa, related);
    return { annotations: { [SUMMARY_ANNOTATION]: summary === undefined ? null : JSON.stringify(summary) } };
  },
};

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
