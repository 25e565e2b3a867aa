/**
 * Untrusted input, read within bounds: the parent's spec and every related or observed
 * object come from tenants (a ConfigMap's value, a CRD's unknown fields), so nothing read
 * from them may cost more than a fixed amount of time, memory or stack.
 *
 * Depth, measured without recursion: the API server stores JSON nested up to 10,000 levels
 * (sigs.k8s.io/json's maxDepth) where a CRD keeps unknown fields (an InferenceService's
 * `predictor.batcher`, a status), while V8's JSON.stringify gives up near 4,100 and every
 * recursive walk (the spec memo's key, zod, hashes, canonical JSON) at some depth of its own:
 * one such parent made every sync of it a 500. So before any hook runs, a parent's spec
 * deeper than MAX_DEPTH is an InvalidSpec naming where (engine/protocol.ts), and anything else
 * deeper (a status, a related or observed object, which no hook reads that far down) is cut at
 * MAX_DEPTH: below it every walk is bounded by this constant.
 *
 * Texts inside objects (a ConfigMap's JSON or YAML value): at most MAX_TEXT bytes, MAX_DEPTH
 * levels and, for YAML, MAX_ALIASES aliases resolved, checked before the parse that would
 * exhaust the heap (`yaml` spent 9 s and every byte of a 384 MB heap on 0.95 MiB of `[`).
 */
import { Lexer, parseDocument, type Document } from 'yaml';

/** Levels below a parent's spec, or below any other object, that a hook reads at most. Pod specs nest about 12. */
export const MAX_DEPTH = 100;
/** The longest JSON or YAML text inside an object that is parsed (a ConfigMap's value may hold 1 MiB). */
export const MAX_TEXT = 128 * 1024;
/** Aliases a YAML text may resolve in all (`yaml`'s own default is 100): a 600-byte alias bomb makes millions. */
export const MAX_ALIASES = 100;
/** Block nesting of a YAML text: no indicator (`-`, `?`) and no line's first token past this column. */
const MAX_YAML_COLUMN = 256;

/** The path (`.a[0].b`) of the first value nested deeper than `limit` levels below `value`, if any. */
export function tooDeepPath(value: unknown, limit = MAX_DEPTH): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  // Depth-first with an explicit stack: each entry a container, its depth and the path step to it.
  const stack: { value: object; depth: number; parent: number; step: string }[] = [{ value, depth: 0, parent: -1, step: '' }];
  const seen: { parent: number; step: string }[] = [];
  while (stack.length > 0) {
    const top = stack.pop() as (typeof stack)[number];
    const index = seen.push({ parent: top.parent, step: top.step }) - 1;
    if (top.depth >= limit) return pathOf(seen, index);
    const container = top.value;
    if (Array.isArray(container)) {
      for (let i = container.length - 1; i >= 0; i--) {
        const v: unknown = container[i];
        if (typeof v === 'object' && v !== null) stack.push({ value: v, depth: top.depth + 1, parent: index, step: `[${i}]` });
      }
    } else {
      const record = container as Record<string, unknown>;
      const keys = Object.keys(record);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        const v = record[key];
        if (typeof v === 'object' && v !== null) stack.push({ value: v, depth: top.depth + 1, parent: index, step: `.${key}` });
      }
    }
  }
  return undefined;
}

/** The path to entry `index`: its first 12 steps, then `…`. */
function pathOf(seen: { parent: number; step: string }[], index: number): string {
  const steps: string[] = [];
  for (let i = index; i > 0; i = (seen[i] as { parent: number }).parent) steps.push((seen[i] as { step: string }).step);
  steps.reverse();
  return steps.length > 12 ? `${steps.slice(0, 12).join('')}…` : steps.join('');
}

/**
 * Replaces, in place, every object or array nested deeper than `limit` levels below `value`
 * with null; returns how many were cut. Walks only what is there: a flat object costs its keys.
 */
export function cutTooDeep(value: unknown, limit = MAX_DEPTH): number {
  if (typeof value !== 'object' || value === null) return 0;
  let cut = 0;
  const stack: { value: object; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const top = stack.pop() as (typeof stack)[number];
    const container = top.value as Record<string, unknown> | unknown[];
    const keys = Array.isArray(container) ? undefined : Object.keys(container);
    const n = keys === undefined ? (container as unknown[]).length : keys.length;
    for (let i = 0; i < n; i++) {
      const key = keys === undefined ? i : (keys[i] as string);
      const v = (container as Record<string | number, unknown>)[key];
      if (typeof v !== 'object' || v === null) continue;
      if (top.depth + 1 >= limit) {
        (container as Record<string | number, unknown>)[key] = null;
        cut++;
      } else stack.push({ value: v, depth: top.depth + 1 });
    }
  }
  return cut;
}

/** Why a text is refused before it is parsed, or undefined: its size, measured in UTF-8 bytes. */
function sizeProblem(text: string): string | undefined {
  // A character is at most 3 UTF-8 bytes (4 for a pair of 2 UTF-16 units): skip the count for short texts.
  if (text.length * 3 <= MAX_TEXT) return undefined;
  const bytes = Buffer.byteLength(text);
  return bytes > MAX_TEXT ? `is ${bytes} bytes, more than the ${MAX_TEXT} modelhooks reads` : undefined;
}

/**
 * A JSON text inside an object (a ConfigMap's value), parsed within MAX_TEXT bytes and MAX_DEPTH
 * levels: the value, or `{ problem }` saying why not, as a noun phrase (its size, its depth, or JSON.parse's message).
 */
export function readJsonText(text: string): { value: unknown } | { problem: string } {
  const size = sizeProblem(text);
  if (size) return { problem: size.replace(/^is /, '') };
  let value: unknown;
  try {
    // V8's JSON.parse does not recurse: any depth within MAX_TEXT is parsed, then measured.
    value = JSON.parse(text);
  } catch (e) {
    return { problem: `not JSON (${(e as Error).message})` };
  }
  const deep = tooDeepPath(value);
  return deep === undefined ? { value } : { problem: `nested deeper than ${MAX_DEPTH} levels (at ${deep})` };
}

/**
 * A YAML text inside an object, parsed (unique keys) within MAX_TEXT bytes, MAX_DEPTH levels of
 * flow collections, block nesting to column MAX_YAML_COLUMN (all three checked on the lexer's
 * tokens first: no node is built) and MAX_ALIASES aliases (its `toJS` is tried once here, so
 * the caller's own calls cannot throw): the document and its value, or `{ problem }` (a verb phrase: "does not parse as YAML (…)").
 */
export function readYamlText(text: string): { doc: Document; value: unknown } | { problem: string } {
  const size = sizeProblem(text) ?? yamlShapeProblem(text);
  if (size) return { problem: size };
  try {
    const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
    const [error] = doc.errors;
    if (error) return { problem: `does not parse as YAML (${error.message.split('\n')[0]})` };
    const value: unknown = doc.toJS({ maxAliasCount: MAX_ALIASES });
    const deep = tooDeepPath(value);
    if (deep !== undefined) return { problem: `nests deeper than ${MAX_DEPTH} levels (at ${deep})` };
    return { doc, value };
  } catch (e) {
    // toJS's "Excessive alias count", or a RangeError: never out of this function.
    return { problem: `cannot be read as YAML (${(e as Error).message.split('\n')[0]})` };
  }
}

/** Flow collections deeper than MAX_DEPTH, or block nesting past MAX_YAML_COLUMN, from the lexer's tokens (it keeps no tree). */
function yamlShapeProblem(text: string): string | undefined {
  let flow = 0;
  let column = 0;
  let lineStart = true;
  for (const token of new Lexer().lex(text)) {
    // The lexer marks a token's kind with one control character that is not in the text.
    if (token.length === 1 && token < ' ' && token !== '\n' && token !== '\t') continue;
    if (token === '[' || token === '{') {
      if (++flow > MAX_DEPTH) return `nests flow collections deeper than ${MAX_DEPTH} levels`;
    } else if (token === ']' || token === '}') flow--;
    const indicator = token === '-' || token === '?';
    const first = lineStart && token.trim() !== '';
    if ((indicator || first) && column > MAX_YAML_COLUMN) return `nests blocks past column ${MAX_YAML_COLUMN}`;
    if (first) lineStart = false;
    const newline = token.lastIndexOf('\n');
    if (newline >= 0) {
      column = token.length - newline - 1;
      lineStart = true;
    } else column += token.length;
  }
  return undefined;
}
