import { isRecord } from './types.js';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface Condition {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

/** A condition before the kit stamps its times: what a status function decides. */
export interface ConditionInput {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
}

export const READY = 'Ready';

export const condition = {
  true: (type: string, reason: string, message = ''): ConditionInput => ({ type, status: 'True', reason, message }),
  false: (type: string, reason: string, message = ''): ConditionInput => ({ type, status: 'False', reason, message }),
  unknown: (type: string, reason: string, message = ''): ConditionInput => ({ type, status: 'Unknown', reason, message }),
};

/** The conditions of a previous status, ignoring anything malformed in it. */
export function previousConditions(status: unknown): Condition[] {
  if (!isRecord(status) || !Array.isArray(status.conditions)) return [];
  return status.conditions.filter(
    (c): c is Condition => isRecord(c) && typeof c.type === 'string' && typeof c.status === 'string',
  );
}

/**
 * `Ready` derived from the others, as kro does: True only when every one is True;
 * otherwise it carries the reason and message of the least healthy (False before Unknown,
 * then in the order given, so the first blocker in the pipeline is what users read).
 */
export function readyFrom(others: ConditionInput[], readyReason = 'Ready', readyMessage = ''): ConditionInput {
  const worst = others.find((c) => c.status === 'False') ?? others.find((c) => c.status === 'Unknown');
  if (!worst) return condition.true(READY, readyReason, readyMessage);
  return { type: READY, status: worst.status, reason: worst.reason, message: worst.message };
}

/**
 * Stamps times and generation on the decided conditions. `lastTransitionTime` is carried
 * over from the previous status when the status did not change; otherwise the status
 * would never settle and every sync would write the parent again.
 */
export function stampConditions(
  decided: ConditionInput[],
  previous: Condition[],
  now: string,
  observedGeneration?: number,
): Condition[] {
  return decided.map((c) => {
    const before = previous.find((p) => p.type === c.type);
    const lastTransitionTime =
      before && before.status === c.status && typeof before.lastTransitionTime === 'string'
        ? before.lastTransitionTime
        : now;
    const stamped: Condition = { ...c, lastTransitionTime };
    return observedGeneration === undefined ? stamped : { ...stamped, observedGeneration };
  });
}

/** Finds a condition by type in any list of conditions (ours or an observed object's). */
export function findCondition<T extends { type?: string }>(list: unknown, type: string): T | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.find((c): c is T => isRecord(c) && c.type === type);
}

/** Stamps decided conditions against the parent's previous status (the usual call in a status function). */
export function conditionsFor(
  input: { parent: { metadata: { generation?: number }; status: unknown }; now: string },
  decided: ConditionInput[],
): Condition[] {
  return stampConditions(decided, previousConditions(input.parent.status), input.now, input.parent.metadata.generation);
}
