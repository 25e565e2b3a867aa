import type { z } from 'zod';
import { approxBytes, chargeMemo, fitsMemo, memoAccount, type MemoAccount } from './memo-budget.js';

/** What a spec schema's safeParse answers. */
export type SpecParse<Spec> = z.ZodSafeParseResult<Spec>;

/**
 * A composition's spec schema, parsed once per distinct spec. Metacontroller sends the same
 * parent spec with every sync until someone edits it (children's status, not the spec, is what
 * changes between syncs). Why it stays (2026-11-26, aa67d9d, CPU per call on the bench's
 * specs): 1–4 µs against zod's 17–97 µs for an InferenceService, 4–13 µs for the others; and
 * its frozen parse is the identity memoOnSpec keys the settled plan on. The key is the
 * spec's own JSON text, compared whole (a Map compares keys by equality, never by a hash
 * alone): a parse is reused only for exactly the same spec, whoever sends it. The result is
 * frozen all the way down, so no sync can change what the next one reads. Bounded: at most
 * `max` specs and `maxChars` characters of spec text in all (then it starts over), each spec's
 * text and parse charged to the memos' byte budget (memo-budget.ts), and a spec longer than
 * `maxChars` / 16 is parsed every time, never kept.
 */
export function specParser<Spec>(schema: z.ZodType<Spec>, max = 256, maxChars = 1024 * 1024): (spec: unknown) => SpecParse<Spec> {
  const table = new Map<string, SpecParse<Spec>>();
  let chars = 0;
  const account = memoAccount(() => {
    table.clear();
    chars = 0;
  });
  return (spec) => {
    const text = JSON.stringify(spec);
    if (text === undefined || text.length > maxChars / 16 || !fitsMemo(64 + 4 * text.length)) return schema.safeParse(spec);
    const known = table.get(text);
    if (known !== undefined) return known;
    if (table.size >= max || chars + text.length > maxChars) account.startOver();
    chars += text.length;
    // Parsed from a copy of the text: the result shares nothing with this request's objects.
    const parsed = deepFreeze(schema.safeParse(JSON.parse(text)));
    if (parsed.success && typeof parsed.data === 'object' && parsed.data !== null) parsedSpecs.add(parsed.data);
    // The text and the frozen objects parsed from it (a few times the text), without walking them.
    chargeMemo(account, 64 + 4 * text.length);
    table.set(text, parsed);
    return parsed;
  };
}

/** Every spec value specParser keeps: frozen all the way down, so its identity stands for its content. */
const parsedSpecs = new WeakSet<object>();

/**
 * `compute(spec, args)` remembered for a spec specParser parsed (its identity stands for its
 * content) and the exact text `keyOf(args)`: for what a sync derives from the spec and a few
 * small inputs, again and again while the spec is unchanged. `keyOf` must tell apart every
 * two `args` that `compute` could answer differently (JSON.stringify of them does, for plain
 * data with no undefined values). Any other spec (one built by a test or for a canary) is
 * computed every time. Values are shared between syncs, so they are frozen all the way
 * down; at most `perSpec` of them per spec (then that spec's table starts over) and `total`
 * in all (then every table starts over), each charged with its key to the memos' byte budget
 * (memo-budget.ts: a plan for a parent with 250 KB of annotations weighs megabytes, one of a
 * plain parent tens of KB); a value over a sixteenth of the budget is not kept. They go with
 * the spec (their bytes stay charged until this memo starts over). It stays for the
 * InferenceService's settled plan (plan.ts says what that saves).
 */
export function memoOnSpec<S extends object, A, V>(
  compute: (spec: S, args: A) => V,
  keyOf: (args: A) => string,
  perSpec = 8,
  total = 512,
  /** Bytes a value costs kept (memo-budget.ts approxBytes by default: a walk, fine for small values). */
  sizeOf: (value: V) => number = approxBytes,
): (spec: S, args: A) => V {
  let table = new WeakMap<S, Map<string, { value: V; bytes: number }>>();
  // Answers kept since the last start over (those of specs collected since are counted too).
  let kept = 0;
  const account: MemoAccount = memoAccount(() => {
    table = new WeakMap();
    kept = 0;
  });
  return (spec, args) => {
    if (!parsedSpecs.has(spec)) return compute(spec, args);
    const key = keyOf(args);
    let known = table.get(spec);
    const hit = known?.get(key);
    if (hit !== undefined) return hit.value;
    const value = deepFreeze(compute(spec, args));
    const bytes = 64 + 2 * key.length + sizeOf(value);
    if (!fitsMemo(bytes)) return value;
    if (kept >= total) {
      account.startOver();
      known = undefined;
    }
    if (known !== undefined && known.size >= perSpec) {
      kept -= known.size;
      for (const entry of known.values()) account.held -= entry.bytes;
      known.clear();
    }
    chargeMemo(account, bytes);
    // Charging may have made this memo start over: look the spec's table up again.
    known = table.get(spec);
    if (known === undefined) {
      known = new Map();
      table.set(spec, known);
    }
    known.set(key, { value, bytes });
    kept++;
    return value;
  };
}

/**
 * Freezes `value` and every object reachable from it, also inside objects frozen before (which
 * Object.freeze alone leaves as they were inside), and records which are plain data.
 */
export function deepFreeze<T>(value: T): T {
  freezeAll(value, new Set());
  return value;
}

/**
 * Plain objects and arrays frozen all the way down, with no function anywhere in them: their
 * JSON text can never change (answer-json.ts keeps it).
 */
const frozenData = new WeakSet<object>();

/** Whether deepFreeze made `value` plain data frozen all the way down (or it is a primitive). */
export function isFrozenData(value: unknown): boolean {
  return typeof value !== 'object' || value === null ? typeof value !== 'function' : frozenData.has(value);
}

/** Text kept for frozen plain data: it goes with the object. */
const texts = new WeakMap<object, string>();

/**
 * The JSON text of a child that is frozen plain data, written once and kept with it (the text
 * an answer will use: engine/answer-json.ts); undefined for any other value. For a memo's size
 * (memo-budget.ts): the text is most of what a kept child costs, and it is written only once either way.
 */
export function keptJson(child: unknown): string | undefined {
  if (typeof child !== 'object' || child === null || !isFrozenData(child)) return undefined;
  let text = texts.get(child);
  if (text === undefined) {
    text = JSON.stringify(child);
    texts.set(child, text);
  }
  return text;
}

/** Freezes `value` and what it reaches; answers whether it is frozen plain data all the way down. */
function freezeAll(value: unknown, seen: Set<object>): boolean {
  if (typeof value !== 'object' || value === null) return typeof value !== 'function';
  if (frozenData.has(value)) return true;
  // A cycle is frozen once and never taken for plain data.
  if (seen.has(value)) return false;
  seen.add(value);
  Object.freeze(value);
  const proto = Object.getPrototypeOf(value);
  let data = Array.isArray(value) || proto === Object.prototype || proto === null;
  for (const v of Object.values(value)) if (!freezeAll(v, seen)) data = false;
  if (data) frozenData.add(value);
  return data;
}
