// The one ajv instance that every validator of the test run is compiled by, so that the big
// built-in pool (PodSpec, ObjectMeta …) is compiled once per process and shared by all kinds.
// ajv is an optional peer dependency of modelhooks: loaded here, on first use, so that importing
// `modelhooks/testing` (and the server image, which has no ajv) never needs it.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Ajv, AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv';
import { builtinSchemas } from './openapi.js';

export const AJV_MISSING = 'modelhooks/testing: validating children needs the optional peer dependency ajv; install it: npm install --save-dev ajv@^8';

/** The Ajv class, or a message that says how to install it. `load` is replaceable for tests. */
export function loadAjv(load: (id: string) => unknown = createRequire(import.meta.url)): typeof Ajv {
  try {
    return (load('ajv') as { Ajv: typeof Ajv }).Ajv;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'MODULE_NOT_FOUND') throw new Error(AJV_MISSING, { cause: error });
    throw error;
  }
}

let instance: Ajv | undefined;

export function sharedAjv(): Ajv {
  if (instance) return instance;
  const AjvClass = loadAjv();
  const ajv = new AjvClass({
    strict: false, // OpenAPI-isms (e.g. `enum: [null]` without a null type) are legitimate here
    allErrors: true, // a test failure should list every problem of the object at once
    verbose: true, // errors carry the offending value, printed in type errors
    inlineRefs: false, // shared definitions stay one function each instead of being copied per use
    validateSchema: false, // the schemas come from Kubernetes and from our own converter, not users
  });
  addKubernetesFormats(ajv);
  ajv.addSchema(builtinSchemas().pool);
  instance = ajv;
  return ajv;
}

const SHARED_PREFIX = 'https://modelhooks.test/shared/';
// Small enough to share a repeated probe or env var, large enough not to make a function of every leaf.
const HOIST_ABOVE_CHARS = 200;
const hoisted = new Set<string>();

/**
 * Compiles a CRD schema with its repeated parts shared. KServe's InferenceService inlines the
 * Container schema dozens of times; compiled as is it takes ~6.5 s, with identical subschemas
 * registered once by content hash (and `inlineRefs: false`) ~0.4 s, and the next CRD that
 * repeats them (ServingRuntime) reuses the compiled functions.
 */
export function compileShared(root: AnySchemaObject): ValidateFunction {
  const ajv = sharedAjv();
  return ajv.compile(shareChildren(ajv, root));
}

function shareChildren(ajv: Ajv, node: AnySchemaObject): AnySchemaObject {
  const out: AnySchemaObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'enum' || key === 'const' || key === 'required' || key === 'type') out[key] = value;
    else if (key === 'properties') out[key] = Object.fromEntries(Object.entries(value as object).map(([n, s]) => [n, share(ajv, s)]));
    else if (Array.isArray(value)) out[key] = value.map((s: unknown) => share(ajv, s));
    else out[key] = share(ajv, value);
  }
  return out;
}

function share(ajv: Ajv, node: unknown): unknown {
  if (typeof node !== 'object' || node === null) return node;
  const out = shareChildren(ajv, node as AnySchemaObject);
  const json = JSON.stringify(out);
  if (json.length <= HOIST_ABOVE_CHARS) return out;
  const $id = SHARED_PREFIX + createHash('sha1').update(json).digest('hex');
  if (!hoisted.has($id)) {
    ajv.addSchema({ ...out, $id });
    hoisted.add($id);
  }
  return { $ref: $id };
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The formats the API server itself enforces and a hook could plausibly get wrong. */
function addKubernetesFormats(ajv: Ajv): void {
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('date-time', { type: 'string', validate: (s: string) => RFC3339.test(s) });
  ajv.addFormat('byte', { type: 'string', validate: (s: string) => BASE64.test(s) });
}

/** `/spec/template/spec/containers/0/imagez: must NOT have additional properties` */
export function describeError(e: ErrorObject): string {
  const at = e.instancePath || '/';
  switch (e.keyword) {
    case 'additionalProperties':
      return `${e.instancePath}/${String(e.params.additionalProperty)}: must NOT have additional properties`;
    case 'type':
      return `${at}: must be ${String(e.params.type)}, got ${JSON.stringify(e.data)}`;
    case 'enum':
      return `${at}: must be one of ${JSON.stringify(e.params.allowedValues)}, got ${JSON.stringify(e.data)}`;
    default:
      return `${at}: ${e.message ?? e.keyword}`;
  }
}
