// Custom resources: the JSON Schema of one version of a CRD, made strict the way the API
// server's pruning is (a field the schema does not name is dropped, so here it is an error).
import type { AnySchemaObject } from 'ajv';
import { toJsonSchema } from './json-schema.js';
import { OBJECT_META, definitionRef } from './openapi.js';
import { isRecord as isObject } from '../../kit/types.js';

export interface CrdVersion {
  group: string;
  kind: string;
  version: string;
  served: boolean;
  /** The version's openAPIV3Schema (apiextensions v1beta1 may keep one for all versions). */
  schema: unknown;
}

/** The versions a CRD (apiextensions v1 or v1beta1) declares, with their schemas. */
export function crdVersions(crd: unknown): CrdVersion[] {
  const spec = isObject(crd) && isObject(crd.spec) ? crd.spec : {};
  const group = String(spec.group ?? '');
  const kind = isObject(spec.names) ? String(spec.names.kind ?? '') : '';
  const shared = openApiSchema(spec.validation);
  const versions = Array.isArray(spec.versions) ? spec.versions.filter(isObject) : [{ name: spec.version, served: true }];
  return versions.map((v) => ({
    group,
    kind,
    version: String(v.name),
    served: v.served !== false,
    schema: openApiSchema(v.schema) ?? shared,
  }));
}

/** `group/version` as written in a custom resource's apiVersion. */
export function apiVersionOf(v: CrdVersion): string {
  return v.group ? `${v.group}/${v.version}` : v.version;
}

/**
 * The validating schema of a custom resource. `metadata` is always checked against the real
 * ObjectMeta (CRD schemas just say `type: object`), so `metadata.labelz` fails for every kind.
 */
export function customResourceSchema(v: CrdVersion): AnySchemaObject {
  // Old v1beta1 CRDs may leave the root untyped; it is an object all the same.
  const given = isObject(v.schema) ? v.schema : { 'x-kubernetes-preserve-unknown-fields': true };
  const root = toJsonSchema({ type: 'object', ...given }, { closeEmptyObjects: true });
  const properties = isObject(root.properties) ? root.properties : {};
  root.properties = {
    ...properties,
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { $ref: definitionRef(OBJECT_META) },
  };
  root.required = [...new Set([...(Array.isArray(root.required) ? root.required : []), 'apiVersion', 'kind'])];
  return root;
}

/**
 * Fills in the schema's defaults, as the API server does before it validates a custom resource
 * (some rules rely on it: Route's `wildcardPolicy` defaults to None). Mutates `value`.
 */
export function applyDefaults(schema: unknown, value: unknown): void {
  if (!isObject(schema)) return;
  if (Array.isArray(value)) {
    for (const item of value) applyDefaults(schema.items, item);
    return;
  }
  if (!isObject(value)) return;
  if (isObject(schema.properties)) {
    for (const [name, sub] of Object.entries(schema.properties)) {
      const unset = value[name] === undefined || (value[name] === null && isObject(sub) && sub.nullable !== true);
      if (unset && isObject(sub) && sub.default !== undefined) value[name] = structuredClone(sub.default);
      applyDefaults(sub, value[name]);
    }
  }
  if (isObject(schema.additionalProperties)) {
    for (const [name, item] of Object.entries(value)) {
      if (!isObject(schema.properties) || !(name in schema.properties)) applyDefaults(schema.additionalProperties, item);
    }
  }
}

function openApiSchema(holder: unknown): unknown {
  return isObject(holder) ? holder.openAPIV3Schema : undefined;
}
