import { condition, type Cond } from '../../../kit/index.js';
import { HELM_RELEASE_LABEL } from './rules.js';
import type { Plan } from '../../plan.js';
import type { Input } from '../../sync-input.js';

/** Informational (not part of Ready): whether the storage initializer's credentials were found. */
export const STORAGE_SECRET_FOUND = 'StorageSecretFound';

/** Missing credentials or a storage spec the Secret cannot serve: the running Deployments are kept. */
export const credentialsBlock = (plan: Plan) => plan.credentials.missing.length > 0 || plan.credentials.problems.length > 0;

/**
 * What the lookups found, in words that say what happens next. Customize asks for the
 * ServiceAccounts by name, which carry the summary of their Secrets (credentials/summary.ts),
 * so a Secret created or changed later wakes the parent once the summary is rewritten.
 */
export function credentialsCondition(input: Input, plan: Plan): Cond | undefined {
  const ns = input.parent.metadata.namespace;
  const { missing, problems, used } = plan.credentials;
  const kept = 'what runs is kept as last applied and nothing new is created until then';
  const [problem] = problems;
  if (problem) return condition.false(STORAGE_SECRET_FOUND, 'InvalidStorageSpec', `${problem.field}: ${problem.message}; ${kept}`);
  const [m] = missing;
  if (m) {
    const others =
      missing.length > 1
        ? ` (and ${missing
            .slice(1)
            .map((x) => `${x.kind} ${x.name}`)
            .join(', ')})`
        : '';
    const reason = m.kind === 'ServiceAccount' ? 'ServiceAccountNotFound' : 'StorageSecretNotFound';
    // A Secret labelled owner=helm is one of Helm's release records, never asked for.
    const helm = m.kind === 'Secret' ? ` (a Secret labelled ${HELM_RELEASE_LABEL.key}=${HELM_RELEASE_LABEL.value} is not read)` : '';
    return condition.false(
      STORAGE_SECRET_FOUND,
      reason,
      `${m.kind} ${m.name} (${m.via}) was not found in ${ns}${helm}${others}; ${kept}. Once created it is read within seconds`,
    );
  }
  if (used.length > 0) return condition.true(STORAGE_SECRET_FOUND, 'StorageSecretFound', `storage credentials from Secret ${used.join(', ')}`);
  return undefined;
}
