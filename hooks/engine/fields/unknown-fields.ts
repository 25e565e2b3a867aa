import type { z } from 'zod';
import { KEPT } from '../schema.js';
import { nearest } from './suggest.js';

/** A field of a spec that its schema does not name, and the nearest field it does, if one is near. */
export interface UnknownField {
  path: string;
  suggestion?: string;
}

export const UNKNOWN_FIELDS = 'UnknownFields';
export const FIELDS_UNKNOWN = 'FieldsUnknown';

/** zod 4's definition of a schema, as far as the walk reads it. */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The object shape(s) a schema checks an object value against, through optional, default, pipe, lazy, union and intersection. */
function shapesOf(schema: z.ZodType, depth = 0): Array<Record<string, z.ZodType | undefined>> {
  if (depth > 20) return [];
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      // Fields named only in the metadata (schema.ts KEPT): known, not looked into.
      const kept = (schema.meta() as Record<string, unknown> | undefined)?.[KEPT];
      const extra = Array.isArray(kept) ? Object.fromEntries(kept.map((k: string) => [k, undefined])) : {};
      return def.shape ? [{ ...extra, ...def.shape }] : [];
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return def.innerType ? shapesOf(def.innerType, depth + 1) : [];
    case 'pipe':
      return def.in ? shapesOf(def.in, depth + 1) : [];
    case 'lazy':
      return def.getter ? shapesOf(def.getter(), depth + 1) : [];
    case 'union':
      return (def.options ?? []).flatMap((o) => shapesOf(o, depth + 1));
    case 'intersection': {
      const merged = Object.assign({}, ...[def.left, def.right].flatMap((s) => (s ? shapesOf(s, depth + 1) : []))) as Record<string, z.ZodType | undefined>;
      return Object.keys(merged).length > 0 ? [merged] : [];
    }
    default:
      return [];
  }
}

/** The schema of each element (array) or value (record), through the wrappers. */
function itemsOf(schema: z.ZodType, depth = 0): z.ZodType | undefined {
  if (depth > 20) return undefined;
  const def = defOf(schema);
  if (def.type === 'array') return def.element;
  if (def.type === 'record') return def.valueType;
  const inner = def.innerType ?? def.in ?? def.getter?.();
  return inner ? itemsOf(inner, depth + 1) : undefined;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Every field of `value` that `schema` does not name, as JSON paths under `base` (`spec.predictr`),
 * each with the nearest named field of its object (`spec.predictor`). Objects are closed here
 * whether zod strips unknown keys (`z.object`: the API server prunes them too) or keeps them
 * (`z.looseObject`: they reach the hook and nothing reads them); maps (`z.record`) and
 * `z.unknown()` take any key. A union's object is checked against all its branches' fields.
 */
export function unknownFields(schema: z.ZodType, value: unknown, base = 'spec'): UnknownField[] {
  const out: UnknownField[] = [];
  walk(schema, value, base, out, 0);
  return out;
}

function walk(schema: z.ZodType, value: unknown, at: string, out: UnknownField[], depth: number): void {
  if (depth > 64) return;
  if (Array.isArray(value)) {
    const item = itemsOf(schema);
    if (item) value.forEach((v, i) => walk(item, v, `${at}[${i}]`, out, depth + 1));
    return;
  }
  if (!isPlainObject(value)) return;
  const shapes = shapesOf(schema);
  if (shapes.length === 0) {
    const item = itemsOf(schema);
    if (item) for (const [k, v] of Object.entries(value)) walk(item, v, `${at}.${k}`, out, depth + 1);
    return;
  }
  const known = new Map<string, z.ZodType | undefined>();
  for (const shape of shapes) for (const [k, s] of Object.entries(shape)) if (known.get(k) === undefined) known.set(k, s);
  for (const [k, v] of Object.entries(value)) {
    const field = known.get(k);
    if (field) walk(field, v, `${at}.${k}`, out, depth + 1);
    else if (!known.has(k)) {
      const near = nearest(k, known.keys());
      out.push({ path: `${at}.${k}`, ...(near === undefined ? {} : { suggestion: `${at}.${near}` }) });
    }
  }
}

/** `unknown field spec.predictr, did you mean spec.predictor?` */
export function describeUnknown(u: UnknownField): string {
  return `unknown field ${u.path}${u.suggestion ? `, did you mean ${u.suggestion}?` : ''}`;
}
