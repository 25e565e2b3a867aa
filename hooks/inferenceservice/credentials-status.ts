import { condition, type Cond } from '../kit/index.js';
import { REMEMBERED_FIELD, rememberedSecrets } from './credentials/remembered.js';
import type { Input, Plan } from './plan.js';

/** Informational (not part of Ready): whether the storage initializer's credentials were found. */
export const STORAGE_SECRET_FOUND = 'StorageSecretFound';

/** Missing credentials or a storage spec the Secret cannot serve: the running Deployments are kept. */
export const credentialsBlock = (plan: Plan) => plan.credentials.missing.length > 0 || plan.credentials.problems.length > 0;

/**
 * What the lookups found, in words that say what happens next. Every object is asked for by
 * name: one created later is read within a second or so (measured: 0.7 s). A reference added
 * to an existing parent without a spec change (the annotation, a Secret added to the
 * ServiceAccount's list) waits for Metacontroller's cached customize answer: up to 20 minutes,
 * or at once on the next spec change.
 */
export function credentialsCondition(input: Input, plan: Plan): Cond | undefined {
  const ns = input.parent.metadata.namespace;
  const { missing, problems, used } = plan.credentials;
  const kept = 'what runs is kept as last applied and nothing new is created until then';
  const [problem] = problems;
  if (problem) return condition.false(STORAGE_SECRET_FOUND, 'InvalidStorageSpec', `${problem.field}: ${problem.message}; ${kept}`);
  const [m] = missing;
  if (m) {
    const others = missing.length > 1 ? ` (and ${missing.slice(1).map((x) => `${x.kind} ${x.name}`).join(', ')})` : '';
    const reason = m.kind === 'ServiceAccount' ? 'ServiceAccountNotFound' : 'StorageSecretNotFound';
    if (m.kind === 'Secret' && m.via.startsWith('ServiceAccount ') && !rememberedSecrets(input.parent).includes(m.name)) {
      // Customize sees only the InferenceService: it has not asked for this Secret yet.
      return condition.false(
        STORAGE_SECRET_FOUND,
        'StorageSecretNotFound',
        `${m.via} lists Secret ${m.name}${others}, which Metacontroller has not been asked for yet (its customize request holds only the InferenceService, and its answer is cached per spec generation): it is read when that cache expires (up to 20 minutes) or at once on the next spec change; ${kept}`,
      );
    }
    return condition.false(
      STORAGE_SECRET_FOUND,
      reason,
      `${m.kind} ${m.name} (${m.via}) was not found in ${ns}${others}; ${kept}. Once created it is read within seconds; a reference added without a spec change is read when Metacontroller's cached customize answer expires (up to 20 minutes) or at once on the next spec change`,
    );
  }
  if (used.size > 0) return condition.true(STORAGE_SECRET_FOUND, 'StorageSecretFound', `storage credentials from Secret ${[...used].join(', ')}`);
  return undefined;
}

/** The Secret names the ServiceAccounts list, for the next customize answer (names only). */
export function rememberedStatus(plan: Plan): Record<string, unknown> {
  const names = [...plan.credentials.serviceAccountSecrets].sort();
  return names.length > 0 ? { [REMEMBERED_FIELD]: names } : {};
}
