import type { AnyComposition, KubeObject } from '../../hooks/kit/index.js';
import { runSync, type RunOptions, type SyncResult } from '../../hooks/testing/index.js';
import { ObjectIndex } from '../../hooks/kit/observed.js';
import { STORAGE_SECRET_ANNOTATION } from '../../hooks/inferenceservice/names.js';
import { credentialsDecorator, downloadsModel, HELM_RELEASE_LABEL } from '../../hooks/inferenceservice/storage/credentials/rules.js';
import type { InferenceServiceSpec } from '../../hooks/inferenceservice/spec.js';

/**
 * The cluster's objects as Metacontroller sends them to an InferenceService: each
 * ServiceAccount with the summary the credentials DecoratorController writes on it (its sync run
 * over the namespace's non-Helm Secrets, as its customize asks), and no Secret — but where the
 * parent is annotated serving.kserve.io/storageSecretName and downloads a model, whose
 * customize still asks for the namespace's non-Helm Secrets (credentials/rules.ts). The
 * namespace's `default` ServiceAccount is there if `cluster` lacks it, as in every namespace.
 */
export function credentialsSent(parent: KubeObject, cluster: KubeObject[]): KubeObject[] {
  const namespace = parent.metadata?.namespace ?? 'default';
  const inNamespace = (o: KubeObject) => (o.metadata.namespace ?? namespace) === namespace;
  const secrets = cluster.filter((o) => o.kind === 'Secret' && inNamespace(o) && o.metadata.labels?.[HELM_RELEASE_LABEL.key] !== HELM_RELEASE_LABEL.value);
  const index = new ObjectIndex(secrets, namespace);
  const spec = (parent as { spec?: InferenceServiceSpec }).spec;
  const keepSecrets = parent.metadata?.annotations?.[STORAGE_SECRET_ANNOTATION] !== undefined && spec !== undefined && safeDownloads(spec);
  // Every namespace has its `default` ServiceAccount (kube-controller-manager's serviceaccount controller).
  const hasDefault = cluster.some((o) => o.kind === 'ServiceAccount' && o.metadata.name === 'default' && inNamespace(o));
  const all = hasDefault ? cluster : [...cluster, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace } } as KubeObject];
  return all.flatMap((o) => {
    if (o.kind === 'Secret') return keepSecrets ? [o] : [];
    if (o.kind !== 'ServiceAccount' || !inNamespace(o)) return [o];
    const { annotations } = credentialsDecorator.sync({ ...o, metadata: { ...o.metadata, namespace } }, index);
    const merged = { ...(o.metadata.annotations ?? {}) } as Record<string, string>;
    for (const [k, v] of Object.entries(annotations)) {
      if (v === null) delete merged[k];
      else merged[k] = v;
    }
    const { annotations: _old, ...metadata } = o.metadata;
    return [{ ...o, metadata: { ...metadata, ...(Object.keys(merged).length > 0 ? { annotations: merged } : {}) } }];
  });
}

/** downloadsModel on a spec as written (a malformed one downloads nothing). */
function safeDownloads(spec: InferenceServiceSpec): boolean {
  try {
    return downloadsModel(spec);
  } catch {
    return false;
  }
}

/**
 * The credentials DecoratorController after an event in `cluster` (Metacontroller v4.17.2
 * decorator/controller.go): each ServiceAccount of the namespace re-summarized over the
 * namespace's non-Helm Secrets, as its customize asks; a ServiceAccount whose annotation changes
 * is written (replaced in `cluster`) and returned — the events an InferenceService's rules
 * may match. An unchanged summary is no write, so no event.
 */
export function decorate(cluster: KubeObject[], namespace: string): KubeObject[] {
  const written: KubeObject[] = [];
  for (const [i, o] of cluster.entries()) {
    if (o.kind !== 'ServiceAccount' || (o.metadata.namespace ?? namespace) !== namespace) continue;
    const parent = { metadata: { name: 'x', namespace } } as KubeObject;
    const [summarized] = credentialsSent(parent, [...cluster.filter((s) => s.kind === 'Secret'), o]).filter((s) => s.kind === 'ServiceAccount');
    if (summarized && JSON.stringify(summarized.metadata.annotations ?? {}) !== JSON.stringify(o.metadata.annotations ?? {})) {
      cluster[i] = summarized;
      written.push(summarized);
    }
  }
  return written;
}

/** runSync with `related` as Metacontroller sends it to an InferenceService (credentialsSent): what the cluster holds, decorated. */
export function runSyncSent(composition: AnyComposition, options: RunOptions<unknown>): SyncResult {
  const parent = options.parent as KubeObject;
  return runSync(composition, composition.name === 'inferenceservice' ? { ...options, related: credentialsSent(parent, options.related ?? []) } : options);
}
