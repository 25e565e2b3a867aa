/**
 * One byte budget for every memo of the kit (specParser, memoOnSpec): a count
 * of entries says nothing of their size, and one tenant's parent with 250 KB of annotations
 * makes a settled plan of megabytes (each child's JSON, kept by answer-json.ts, repeats them).
 * Each memo charges what it keeps; when the total would pass the budget, the memo holding the
 * most starts over (again, until it fits). The server sets the budget from
 * MODELHOOKS_MEMO_BYTES; a value larger than a sixteenth of it is never kept.
 */

/** A memo as the budget sees it: what it holds, and how to drop all of it. */
export interface MemoAccount {
  held: number;
  startOver(): void;
}

export const DEFAULT_MEMO_BYTES = 48 * 1024 * 1024;
let limit = DEFAULT_MEMO_BYTES;
const accounts = new Set<MemoAccount>();

/** Opens an account for a memo (for as long as the process runs: memos are module-level). */
export function memoAccount(startOver: () => void): MemoAccount {
  const account: MemoAccount = {
    held: 0,
    startOver() {
      startOver();
      account.held = 0;
    },
  };
  accounts.add(account);
  return account;
}

/** Whether a value of `bytes` may be kept at all. */
export const fitsMemo = (bytes: number): boolean => bytes <= limit / 16;

/** Charges `bytes` to `account`, first making room: the largest memos start over until it fits. */
export function chargeMemo(account: MemoAccount, bytes: number): void {
  while (memoBytesHeld() + bytes > limit) {
    let largest: MemoAccount | undefined;
    for (const a of accounts) if (a.held > 0 && (largest === undefined || a.held > largest.held)) largest = a;
    if (largest === undefined) break;
    largest.startOver();
  }
  account.held += bytes;
}

/** Bytes every memo holds, as charged. */
export function memoBytesHeld(): number {
  let held = 0;
  for (const a of accounts) held += a.held;
  return held;
}

/** Sets the budget (MODELHOOKS_MEMO_BYTES); memos over it start over now. */
export function setMemoBytes(bytes: number): void {
  limit = bytes;
  for (const a of accounts) if (memoBytesHeld() > limit) a.startOver();
}

/**
 * Roughly what `value` costs kept with its JSON: every string counted at each place it is
 * reached (a string shared by five children is counted five times, as the five JSON texts
 * answer-json.ts keeps for them repeat it), plus a few words per object, array and property.
 * Not exact, and not meant to be: a bound that grows with what is kept.
 */
export function approxBytes(value: unknown, depth = 0): number {
  if (typeof value === 'string') return 16 + value.length;
  if (typeof value !== 'object' || value === null) return 8;
  if (depth > 64) return 64;
  let bytes = 32;
  if (Array.isArray(value)) {
    for (const v of value) bytes += 8 + approxBytes(v, depth + 1);
    return bytes;
  }
  for (const k of Object.keys(value)) bytes += 16 + k.length + approxBytes((value as Record<string, unknown>)[k], depth + 1);
  return bytes;
}
