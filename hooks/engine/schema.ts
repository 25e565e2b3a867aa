import { z } from 'zod';
import { isRecord } from '../kit/types.js';

export type JsonSchema = Record<string, unknown>;

/**
 * Metadata of a zod object (`.meta({ [KEPT]: names })`): fields the object names besides those
 * typed, kept as written and not looked into (a Kubernetes PodSpec's inside an InferenceService
 * component). The CRD names them (preserve-unknown-fields inside each), the UnknownFields check
 * knows them (unknown-fields.ts), zod's parse does not (its output keeps its key order).
 */
export const KEPT = 'x-modelhooks-kept';

/** Unbounded number limits zod writes for `.int()`: noise in a CRD. */
const SAFE_INTEGER_LIMITS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/**
 * The CRD schema of a zod type: OpenAPI 3.0 of the *input* (so defaults show and optional
 * fields stay optional), inlined, then made structural as Kubernetes requires.
 */
export function crdSchemaOf(type: z.ZodType): JsonSchema {
  const raw = z.toJSONSchema(type, { target: 'openapi-3.0', io: 'input', reused: 'inline', unrepresentable: 'any' }) as JsonSchema;
  delete raw.$schema;
  return structural(raw, '');
}

/**
 * Rewrites one node into a structural schema: every node typed, no `$ref`, no union at
 * object level; int-or-string and free-form nodes carry Kubernetes' extensions instead.
 */
export function structural(node: JsonSchema, path: string): JsonSchema {
  if ('$ref' in node) throw new Error(`${path || '.'}: recursive schemas cannot be written into a CRD`);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'anyOf' || key === 'oneOf') Object.assign(out, unionOf(value as JsonSchema[], path));
    else if (key === 'const') out.enum = [value];
    else if ((key === 'maximum' || key === 'minimum') && SAFE_INTEGER_LIMITS.has(value as number)) continue;
    else if (key === 'propertyNames' || key === 'additionalProperties') continue;
    // An empty `properties` is left out: the API server drops it (omitempty), and `kubectl apply` would then patch it back on every apply.
    else if (key === 'properties') {
      if (Object.keys(value as object).length > 0) out.properties = mapValues(value as Record<string, JsonSchema>, (v, k) => structural(v, `${path}.${k}`));
    } else if (key === 'items') out.items = structural(value as JsonSchema, `${path}[]`);
    else out[key] = value;
  }
  applyAdditionalProperties(node, out, path);
  if (Array.isArray(node[KEPT])) {
    delete out[KEPT];
    const typed = (out.properties ?? {}) as Record<string, JsonSchema>;
    const kept = (node[KEPT] as string[]).filter((k) => !(k in typed)).map((k) => [k, { 'x-kubernetes-preserve-unknown-fields': true }]);
    out.properties = { ...typed, ...Object.fromEntries(kept) };
  }
  if (out.type === undefined && !out['x-kubernetes-int-or-string'] && !out['x-kubernetes-preserve-unknown-fields']) {
    // An `unknown` in zod: anything goes, and the API server must keep it.
    out['x-kubernetes-preserve-unknown-fields'] = true;
  }
  return out;
}

/**
 * `additionalProperties: {}` means "keep unknown fields"; a typed one is a map. An object whose
 * schema says `x-kubernetes-preserve-unknown-fields: false` (`.meta()` of a zod looseObject)
 * is closed in the CRD all the same: zod keeps what reaches the hook, the API server reports
 * (and prunes) a field the schema does not name.
 */
function applyAdditionalProperties(node: JsonSchema, out: JsonSchema, path: string): void {
  if (node['x-kubernetes-preserve-unknown-fields'] === false) {
    delete out['x-kubernetes-preserve-unknown-fields'];
    if (out.type === undefined) out.type = 'object';
    return;
  }
  const extra = node.additionalProperties;
  if (extra === undefined || extra === false) return;
  const freeForm = extra === true || (isRecord(extra) && Object.keys(extra).length === 0);
  if (freeForm) out['x-kubernetes-preserve-unknown-fields'] = true;
  else if (!node.properties) out.additionalProperties = structural(extra as JsonSchema, `${path}.*`);
  else out['x-kubernetes-preserve-unknown-fields'] = true;
  if (out.type === undefined) out.type = 'object';
}

function unionOf(branches: JsonSchema[], path: string): JsonSchema {
  const types = new Set(branches.map((b) => b.type));
  if (branches.every((b) => b.type === 'string' || b.type === 'integer' || b.type === 'number') && types.has('string') && types.size > 1) {
    return { 'x-kubernetes-int-or-string': true };
  }
  if (types.size === 1 && !types.has('object') && !types.has(undefined)) {
    const enums = branches.flatMap((b) => (Array.isArray(b.enum) ? b.enum : []));
    return enums.length === branches.length ? { type: branches[0]?.type, enum: enums } : { type: branches[0]?.type };
  }
  throw new Error(`${path || '.'}: a union of ${[...types].join(', ')} cannot be written into a structural CRD schema`);
}

function mapValues<T, U>(obj: Record<string, T>, fn: (v: T, k: string) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, fn(v, k)]));
}
