import type { z } from 'zod';

/**
 * A composition's spec schema, parsed once per distinct spec. Metacontroller sends the same
 * parent spec with every sync until someone edits it (children's status, not the spec, is what
 * changes between syncs), and parsing it with zod was a tenth of a sync. The key is the
 * spec's own JSON text, compared whole (a Map compares keys by equality, never by a hash
 * alone): a parse is reused only for exactly the same spec, whoever sends it. The result is
 * frozen all the way down, so no sync can change what the next one reads. Bounded: at most
 * `max` specs and `maxChars` characters of spec text in all (then it starts over), and a spec
 * longer than `maxChars` / 16 is parsed every time, never kept.
 */
export type SpecParse<Spec> = z.ZodSafeParseResult<Spec>;

export function specParser<Spec>(schema: z.ZodType<Spec>, max = 256, maxChars = 1024 * 1024): (spec: unknown) => SpecParse<Spec> {
  const table = new Map<string, SpecParse<Spec>>();
  let chars = 0;
  return (spec) => {
    const text = JSON.stringify(spec);
    if (text === undefined || text.length > maxChars / 16) return schema.safeParse(spec);
    const known = table.get(text);
    if (known !== undefined) return known;
    if (table.size >= max || chars + text.length > maxChars) {
      table.clear();
      chars = 0;
    }
    chars += text.length;
    // Parsed from a copy of the text: the result shares nothing with this request's objects.
    const parsed = deepFreeze(schema.safeParse(JSON.parse(text)));
    table.set(text, parsed);
    return parsed;
  };
}

/** Freezes `value` and everything reachable from it that is a plain object or an array. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
  return value;
}
