/**
 * A pure function of one string, remembered for recent inputs: for what a request carries
 * unchanged from one sync to the next (a models file, a ConfigMap's YAML) and is costly to
 * read again. The key is the input string itself (a Map compares keys by equality, never by a
 * hash alone), so an answer is only ever reused for exactly the same text. Bounded: at most
 * `max` entries (the table starts over when full) and only inputs of at most `maxLength`
 * characters are kept, so a server that sees many parents does not grow without end.
 * The values are shared between calls: `compute` must return something nobody changes (it is
 * frozen here, one level deep).
 */
export function memoByString<V>(compute: (input: string) => V, max = 256, maxLength = 64 * 1024): (input: string) => V {
  const table = new Map<string, V>();
  return (input) => {
    if (input.length > maxLength) return compute(input);
    const known = table.get(input);
    if (known !== undefined || table.has(input)) return known as V;
    if (table.size >= max) table.clear();
    const value = compute(input);
    if (typeof value === 'object' && value !== null) Object.freeze(value);
    table.set(input, value);
    return value;
  };
}
