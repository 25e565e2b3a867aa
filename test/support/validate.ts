// Strict validation of Kubernetes objects against the real schemas in shared/reference:
// built-in kinds against the Kubernetes OpenAPI documents, custom resources against their CRDs
// (reference CRDs, the repo's generated crds/*.yaml, and any passed in). Unknown fields fail.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import { expect } from 'vitest';
import { compileShared, describeError, sharedAjv } from './ajv.js';
import { type CrdVersion, apiVersionOf, applyDefaults, crdVersions, customResourceSchema } from './crd-schema.js';
import { builtinSchemas, definitionRef } from './openapi.js';
import { type KubeObject, isCrd, isObject, loadYamlFile, referenceDir, repoRoot, yamlFilesIn } from './reference.js';

/** Errors of `obj` (empty when valid), each prefixed with `Kind/name: `. */
export function validateObject(obj: unknown, extraCrds: object[] = []): string[] {
  if (!isObject(obj)) return [`${labelOf(obj)}: a Kubernetes object must be a JSON object`];
  const { apiVersion, kind } = obj;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
    return [`${labelOf(obj)}: /: must have string apiVersion and kind`];
  }
  const builtin = builtinSchemas().kinds.get(`${apiVersion} ${kind}`);
  if (builtin) return run(builtinValidator(builtin), obj);
  const version = findCrdVersion(apiVersion, kind, extraCrds);
  if (typeof version === 'string') return [`${labelOf(obj)}: ${version}`];
  return validateCustomResource(version, obj);
}

/** Fails the current test with every error of `obj`, naming its kind and name. */
export function expectValid(obj: unknown, extraCrds?: object[]): void {
  expect(validateObject(obj, extraCrds), `${labelOf(obj)} is not valid`).toEqual([]);
}

/** Errors of a custom resource against one CRD (the version its apiVersion names). */
export function validateAgainstCrd(crd: object, obj: unknown): string[] {
  if (!isObject(obj)) return [`${labelOf(obj)}: a Kubernetes object must be a JSON object`];
  const version = versionsOf(crd).find((v) => apiVersionOf(v) === obj.apiVersion && v.kind === obj.kind);
  if (!version) {
    const offered = versionsOf(crd).map((v) => `${apiVersionOf(v)} ${v.kind}`).join(', ');
    return [`${labelOf(obj)}: ${String(obj.apiVersion)} ${String(obj.kind)} is not in this CRD (${offered})`];
  }
  if (!version.served) return [`${labelOf(obj)}: version ${version.version} is not served by its CRD`];
  return validateCustomResource(version, obj);
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

function labelOf(obj: unknown): string {
  if (!isObject(obj)) return `<${obj === null ? 'null' : typeof obj}>`;
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  const name = meta.name ?? meta.generateName ?? '<no name>';
  return `${typeof obj.kind === 'string' ? obj.kind : '<no kind>'}/${String(name)}`;
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
function versionsOf(crd: object): CrdVersion[] {
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
function findCrdVersion(apiVersion: string, kind: string, extraCrds: object[]): CrdVersion | string {
  const extra = extraCrds.flatMap(versionsOf);
  const candidates = [...extra, ...knownCrdVersions(kind)].filter((v) => v.kind === kind);
  const match = candidates.find((v) => apiVersionOf(v) === apiVersion);
  if (match) return match.served ? match : `${apiVersion} ${kind} is not served by its CRD`;
  if (candidates.length > 0) {
    const versions = [...new Set(candidates.map(apiVersionOf))].join(', ');
    return `unknown apiVersion ${apiVersion} for kind ${kind} (known: ${versions})`;
  }
  if (builtinSchemas().apiVersions.has(apiVersion)) return `unknown kind ${kind} in ${apiVersion}`;
  return `unknown apiVersion/kind ${apiVersion} ${kind} (no OpenAPI schema or CRD for it)`;
}

const crdsByKind = new Map<string, CrdVersion[]>();
const crdsByFile = new Map<string, KubeObject[]>();

/**
 * Versions of `kind` from the repo's generated crds/ (first: they are what we ship), then from
 * the reference CRDs. Only files that mention the kind are parsed: parsing every reference CRD
 * costs ~2 s, most of it KServe's, which few tests need.
 */
function knownCrdVersions(kind: string): CrdVersion[] {
  let versions = crdsByKind.get(kind);
  if (!versions) {
    const files = [...yamlFilesIn(path.join(repoRoot(), 'crds')), ...yamlFilesIn(path.join(referenceDir(), 'crds'))];
    const mentions = new RegExp(`^\\s*kind:\\s*["']?${kind.replace(/\W/g, '\\$&')}["']?\\s*$`, 'm');
    versions = files
      .filter((file) => mentions.test(readFileSync(file, 'utf8')))
      .flatMap(crdsIn)
      .flatMap(versionsOf)
      .filter((v) => v.kind === kind);
    crdsByKind.set(kind, versions);
  }
  return versions;
}

function crdsIn(file: string): KubeObject[] {
  let crds = crdsByFile.get(file);
  if (!crds) {
    crds = loadYamlFile(file).filter(isCrd);
    crdsByFile.set(file, crds);
  }
  return crds;
}
