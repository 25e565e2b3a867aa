import { chargeMemo, fitsMemo, memoAccount } from './memo-budget.js';

/**
 * A pure function of one string, remembered for recent inputs: for what a request carries
 * unchanged from one sync to the next (a models file, a ConfigMap's YAML) and is costly to
 * read again. The key is the input string itself (a Map compares keys by equality, never by a
 * hash alone), so an answer is only ever reused for exactly the same text. Bounded: at most
 * `max` entries (the table starts over when full), only inputs of at most `maxLength`
 * characters are kept, and each is charged to the memos' byte budget (memo-budget.ts) at four
 * times its text (the text and what is read from it), so a server that sees many parents does not grow without end.
 * The values are shared between calls: `compute` must return something nobody changes (it is
 * frozen here, one level deep).
 */
export function memoByString<V>(compute: (input: string) => V, max = 256, maxLength = 64 * 1024): (input: string) => V {
  const table = new Map<string, V>();
  const account = memoAccount(() => table.clear());
  return (input) => {
    if (input.length > maxLength) return compute(input);
    const known = table.get(input);
    if (known !== undefined || table.has(input)) return known as V;
    const value = compute(input);
    // The text and what is read from it: a few times the text (no walk of the value: a miss stays cheap).
    const bytes = 64 + 4 * input.length;
    if (!fitsMemo(bytes)) return value;
    if (table.size >= max) account.startOver();
    if (typeof value === 'object' && value !== null) Object.freeze(value);
    chargeMemo(account, bytes);
    table.set(input, value);
    return value;
  };
}
