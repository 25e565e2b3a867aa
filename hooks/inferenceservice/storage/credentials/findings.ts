import type { Missing } from './service-account.js';

/** What the credentials lookups of a plan found, for the status: returned by each lookup, joined by the plan. */
export interface CredentialFindings {
  /** Objects the credentials need that are not among the related objects, each named once. */
  missing: Missing[];
  /** Spec problems found only against the cluster (a storage key the Secret lacks). */
  problems: Array<{ field: string; message: string }>;
  /** Secrets whose credentials were used, each named once, in order. */
  used: string[];
}

export const NO_FINDINGS: CredentialFindings = { missing: [], problems: [], used: [] };

/** Findings one after another (the predictor's first): a missing object or a used Secret is named once. */
export function joinFindings(all: readonly CredentialFindings[]): CredentialFindings {
  const missing: Missing[] = [];
  const problems: CredentialFindings['problems'] = [];
  const used: string[] = [];
  for (const f of all) {
    for (const m of f.missing) if (!missing.some((x) => x.kind === m.kind && x.name === m.name)) missing.push(m);
    problems.push(...f.problems);
    for (const s of f.used) if (!used.includes(s)) used.push(s);
  }
  return { missing, problems, used };
}
