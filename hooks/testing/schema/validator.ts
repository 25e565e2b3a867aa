// Strict validation of Kubernetes objects: built-in kinds against the Kubernetes 1.35 OpenAPI
// documents, custom resources against their CRDs. A field the schema does not name is an error
// (the API server with fieldValidation=Strict rejects it; without, it drops it silently).
import type { ValidateFunction } from 'ajv';
import { isRecord as isObject, type KubeObject } from '../../kit/types.js';
import { childProblems } from '../../kit/children/child-problems.js';
import { compileShared, describeError, sharedAjv } from './ajv.js';
import { type CrdVersion, apiVersionOf, applyDefaults, crdVersions, customResourceSchema } from './crd-schema.js';
import { builtinSchemas, definitionRef } from './openapi.js';

export interface ValidatorOptions {
  /** CRDs (apiextensions.k8s.io v1 or v1beta1 objects) for custom resources; they win over `lookup`. */
  crds?: readonly object[];
  /** More CRD versions for a kind, found elsewhere (the repository's tests read files). */
  lookup?: (kind: string) => CrdVersion[];
}

/** Errors of `obj` (empty when valid), each prefixed with `Kind/name: `. */
export function validateKubeObject(obj: unknown, options: ValidatorOptions = {}): string[] {
  if (!isObject(obj)) return [`${labelOf(obj)}: a Kubernetes object must be a JSON object`];
  const { apiVersion, kind } = obj;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
    return [`${labelOf(obj)}: /: must have string apiVersion and kind`];
  }
  const builtin = builtinSchemas().kinds.get(`${apiVersion} ${kind}`);
  const version = builtin ? undefined : findCrdVersion(apiVersion, kind, options);
  if (typeof version === 'string') return [`${labelOf(obj)}: ${version}`];
  const errors = builtin ? run(builtinValidator(builtin), obj) : validateCustomResource(version as CrdVersion, obj);
  // What the OpenAPI schema cannot say and the API server's validation code checks (names, label maps, pod fields).
  return errors.length === 0 && isObject(obj.metadata) ? childProblems(obj as KubeObject) : errors;
}

/** Errors of a custom resource against one CRD (the version its apiVersion names). */
export function validateAgainstCrd(crd: object, obj: unknown): string[] {
  if (!isObject(obj)) return [`${labelOf(obj)}: a Kubernetes object must be a JSON object`];
  const version = versionsOf(crd).find((v) => apiVersionOf(v) === obj.apiVersion && v.kind === obj.kind);
  if (!version) {
    const offered = versionsOf(crd)
      .map((v) => `${apiVersionOf(v)} ${v.kind}`)
      .join(', ');
    return [`${labelOf(obj)}: ${String(obj.apiVersion)} ${String(obj.kind)} is not in this CRD (${offered})`];
  }
  if (!version.served) return [`${labelOf(obj)}: version ${version.version} is not served by its CRD`];
  return validateCustomResource(version, obj);
}

/** `Kind/name` of an object, for messages. */
export function labelOf(obj: unknown): string {
  if (!isObject(obj)) return `<${obj === null ? 'null' : typeof obj}>`;
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  const name = meta.name ?? meta.generateName ?? '<no name>';
  return `${typeof obj.kind === 'string' ? obj.kind : '<no kind>'}/${String(name)}`;
}

function validateCustomResource(version: CrdVersion, obj: Record<string, unknown>): string[] {
  const defaulted = structuredClone(obj);
  applyDefaults(version.schema, defaulted);
  return run(crdValidator(version), defaulted);
}

function run(validate: ValidateFunction, obj: Record<string, unknown>): string[] {
  if (validate(obj)) return [];
  const label = labelOf(obj);
  return [...new Set((validate.errors ?? []).map((e) => `${label}: ${describeError(e)}`))];
}

const builtinValidators = new Map<string, ValidateFunction>();

function builtinValidator(definition: string): ValidateFunction {
  let validate = builtinValidators.get(definition);
  if (!validate) {
    validate = sharedAjv().compile({ allOf: [{ $ref: definitionRef(definition) }], required: ['apiVersion', 'kind'] });
    builtinValidators.set(definition, validate);
  }
  return validate;
}

const versionsByCrd = new WeakMap<object, CrdVersion[]>();

/** Memoised so that a CRD object passed again finds its compiled validators by identity. */
export function versionsOf(crd: object): CrdVersion[] {
  let versions = versionsByCrd.get(crd);
  if (!versions) {
    versions = crdVersions(crd);
    versionsByCrd.set(crd, versions);
  }
  return versions;
}

// By identity first; by content for callers that parse the same CRD again for every call.
const byIdentity = new WeakMap<CrdVersion, ValidateFunction>();
const byContent = new Map<string, ValidateFunction>();

function crdValidator(version: CrdVersion): ValidateFunction {
  let validate = byIdentity.get(version);
  if (validate) return validate;
  const key = `${apiVersionOf(version)} ${version.kind} ${JSON.stringify(version.schema)}`;
  validate = byContent.get(key) ?? compileShared(customResourceSchema(version));
  byContent.set(key, validate);
  byIdentity.set(version, validate);
  return validate;
}

/** The CRD version for a custom resource, or why there is none. Passed CRDs win. */
function findCrdVersion(apiVersion: string, kind: string, options: ValidatorOptions): CrdVersion | string {
  const extra = (options.crds ?? []).flatMap(versionsOf);
  const candidates = [...extra, ...(options.lookup?.(kind) ?? [])].filter((v) => v.kind === kind);
  const match = candidates.find((v) => apiVersionOf(v) === apiVersion);
  if (match) return match.served ? match : `${apiVersion} ${kind} is not served by its CRD`;
  if (candidates.length > 0) {
    const versions = [...new Set(candidates.map(apiVersionOf))].join(', ');
    return `unknown apiVersion ${apiVersion} for kind ${kind} (known: ${versions})`;
  }
  if (builtinSchemas().apiVersions.has(apiVersion)) return `unknown kind ${kind} in ${apiVersion}`;
  return `unknown apiVersion/kind ${apiVersion} ${kind} (no OpenAPI schema or CRD for it)`;
}
