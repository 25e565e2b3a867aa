// Turns Kubernetes OpenAPI v3 / CRD structural schemas into JSON Schema that ajv validates
// strictly: unknown fields become errors, because the API server would silently drop them.
import type { AnySchemaObject } from 'ajv';
import { isRecord as isObject } from '../../kit/types.js';

export interface ConvertOptions {
  /** Rewrites `#/components/schemas/X` references; OpenAPI documents only. */
  ref?: (ref: string) => string;
  /**
   * Close `type: object` nodes that list no properties. Right for CRDs (structural pruning
   * empties them), wrong for the built-in documents, where they mean "free-form" (RawExtension).
   */
  closeEmptyObjects: boolean;
}

// Only keywords that validate; descriptions, defaults and x-kubernetes-* are left behind.
const PASSED_ON = [
  'type',
  'required',
  'enum',
  'const',
  'pattern',
  'minimum',
  'maximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
] as const;
const JUNCTORS = ['allOf', 'anyOf', 'oneOf'] as const;

/** Formats checked by `addKubernetesFormats`; any other format is not checked (as the API server). */
export const CHECKED_FORMATS = new Set(['int32', 'int64', 'date-time', 'byte']);

export function toJsonSchema(node: unknown, opts: ConvertOptions): AnySchemaObject {
  if (!isObject(node)) return {};
  const out: AnySchemaObject = {};
  for (const key of PASSED_ON) if (node[key] !== undefined) out[key] = node[key];
  if (typeof node.format === 'string' && CHECKED_FORMATS.has(node.format)) out.format = node.format;
  copyExclusiveBounds(node, out);

  if (typeof node.$ref === 'string') out.$ref = opts.ref ? opts.ref(node.$ref) : node.$ref;
  if (isObject(node.properties)) {
    out.properties = Object.fromEntries(Object.entries(node.properties).map(([name, sub]) => [name, toJsonSchema(sub, opts)]));
  }
  if (isObject(node.additionalProperties)) out.additionalProperties = toJsonSchema(node.additionalProperties, opts);
  else if (typeof node.additionalProperties === 'boolean') out.additionalProperties = node.additionalProperties;
  if (isObject(node.items)) out.items = toJsonSchema(node.items, opts);
  if (node.not !== undefined) out.not = toJsonSchema(node.not, opts);
  for (const key of JUNCTORS) {
    if (Array.isArray(node[key])) out[key] = (node[key] as unknown[]).map((sub) => toJsonSchema(sub, opts));
  }

  collapseSingleRef(out);
  if (node['x-kubernetes-int-or-string'] === true || node.format === 'int-or-string') intOrString(out);
  if (out.type === 'object' && out.additionalProperties === undefined && node['x-kubernetes-preserve-unknown-fields'] !== true) {
    if (out.properties || opts.closeEmptyObjects) out.additionalProperties = false;
  }
  if (node.nullable === true) allowNull(out);
  return out;
}

/** OpenAPI 3.0 has boolean exclusiveMinimum/Maximum (zod emits them); JSON Schema wants numbers. */
function copyExclusiveBounds(node: Record<string, unknown>, out: AnySchemaObject): void {
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    const value = node[exclusive];
    if (typeof value === 'number') out[exclusive] = value;
    else if (value === true && typeof node[bound] === 'number') {
      out[exclusive] = node[bound];
      delete out[bound];
    }
  }
}

/** `allOf: [{$ref}]` is how the documents attach a default to a reference; only the ref matters. */
function collapseSingleRef(out: AnySchemaObject): void {
  const only = Array.isArray(out.allOf) && out.allOf.length === 1 ? out.allOf[0] : undefined;
  if (isObject(only) && Object.keys(only).length === 1 && typeof only.$ref === 'string' && out.$ref === undefined) {
    out.$ref = only.$ref;
    delete out.allOf;
  }
}

/** A type list reads better in errors than the `anyOf: [integer, string]` the schemas carry. */
function intOrString(out: AnySchemaObject): void {
  out.type = ['integer', 'string'];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const alts = out[key] as unknown[] | undefined;
    if (alts?.every((alt) => isObject(alt) && Object.keys(alt).length === 1 && alt.type !== undefined)) delete out[key];
  }
}

/** ajv accepts `nullable` only beside a single `type`; spell it out instead. */
function allowNull(out: AnySchemaObject): void {
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (out.$ref !== undefined) {
    const { $ref, ...rest } = out;
    for (const key of Object.keys(out)) delete out[key];
    out.anyOf = [{ type: 'null' }, { $ref, ...rest }];
  }
}
