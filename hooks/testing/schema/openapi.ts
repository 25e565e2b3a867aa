// The built-in kinds, from the Kubernetes 1.35 OpenAPI v3 documents vendored under
// test/vendor/kubernetes (shipped in the package; test/vendor/SOURCES.md says where they come from).
// All documents are merged into one pool of definitions: a type shared by several documents
// (PodSpec, ObjectMeta …) is then compiled once, and identical names hold identical schemas.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnySchemaObject } from 'ajv';
import { isRecord as isObject } from '../../kit/types.js';
import { toJsonSchema } from './json-schema.js';

export const K8S_SCHEMA_ID = 'https://modelhooks.test/k8s-openapi.json';
export const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

export function definitionRef(name: string): string {
  return `${K8S_SCHEMA_ID}#/definitions/${name}`;
}

// The documents understate what the API server takes.
const OVERRIDES: Record<string, AnySchemaObject> = {
  // Quantities arrive as numbers too (`cpu: 1`); the API server and kubectl accept both.
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { type: ['string', 'number'] },
  // `creationTimestamp: null` is what kubectl and most clients write for an unset time.
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': { type: ['string', 'null'], format: 'date-time' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': { type: ['string', 'null'], format: 'date-time' },
};

interface Gvk {
  group?: string;
  version?: string;
  kind?: string;
}

export interface BuiltinSchemas {
  /** One schema to add to ajv: `{ $id: K8S_SCHEMA_ID, definitions }`. */
  pool: AnySchemaObject;
  /** `apiVersion kind` → definition name. */
  kinds: Map<string, string>;
  /** apiVersions that the documents describe, to tell an unknown kind from an unknown group. */
  apiVersions: Set<string>;
}

/** Where the documents are: `test/vendor/kubernetes` of the modelhooks package (source or dist). */
export function kubernetesSchemaDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'test', 'vendor', 'kubernetes');
    if (existsSync(path.join(dir, 'package.json')) && existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir)
      throw new Error('modelhooks/testing: the Kubernetes OpenAPI documents (test/vendor/kubernetes) are missing from the modelhooks package');
    dir = parent;
  }
}

let loaded: BuiltinSchemas | undefined;

export function builtinSchemas(): BuiltinSchemas {
  if (loaded) return loaded;
  const dir = kubernetesSchemaDir();
  const definitions: Record<string, AnySchemaObject> = {};
  const kinds = new Map<string, string>();
  const apiVersions = new Set<string>();
  const ref = (r: string): string => definitionRef(r.replace('#/components/schemas/', ''));

  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const doc = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { components?: { schemas?: unknown } };
    const schemas = isObject(doc.components?.schemas) ? doc.components.schemas : {};
    for (const [name, schema] of Object.entries(schemas)) {
      definitions[name] ??= OVERRIDES[name] ?? toJsonSchema(schema, { ref, closeEmptyObjects: false });
      for (const gvk of groupVersionKinds(schema)) {
        const apiVersion = gvk.group ? `${gvk.group}/${gvk.version}` : String(gvk.version);
        if (!kinds.has(`${apiVersion} ${gvk.kind}`)) kinds.set(`${apiVersion} ${gvk.kind}`, name);
        if (isServedKind(name)) apiVersions.add(apiVersion);
      }
    }
  }
  loaded = { pool: { $id: K8S_SCHEMA_ID, definitions }, kinds, apiVersions };
  return loaded;
}

function groupVersionKinds(schema: unknown): Gvk[] {
  const list = isObject(schema) ? schema['x-kubernetes-group-version-kind'] : undefined;
  return Array.isArray(list) ? (list as Gvk[]) : [];
}

// meta.v1 types (DeleteOptions, WatchEvent …) claim a kind in every group; they do not make
// a group "known" (otherwise `foo.example.com/v1` would look built-in).
function isServedKind(definition: string): boolean {
  return !definition.startsWith('io.k8s.apimachinery.');
}
