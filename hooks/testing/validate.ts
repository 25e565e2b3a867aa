/**
 * Checks a composition's children the way the API server would with fieldValidation=Strict:
 * built-in kinds (v1, apps/v1, batch/v1, autoscaling/v2, networking.k8s.io/v1, policy/v1)
 * against the Kubernetes 1.35 OpenAPI documents shipped in this package, custom resources
 * against the CRDs you pass. Unknown fields, wrong types, missing required fields and bad
 * formats are errors; so is a kind that has no schema.
 *
 *   expectValidChildren(runSync(myComposition, { parent }).children);
 *
 * Needs the optional peer dependency `ajv` (`npm install --save-dev ajv@^8`); it is loaded on
 * the first call, never by importing `modelhooks/testing`.
 */
import { validateKubeObject } from './schema/validator.js';

export interface ValidateChildrenOptions {
  /** CRDs (apiextensions.k8s.io/v1 objects) of the custom-resource children, e.g. parsed from YAML. */
  crds?: readonly object[];
}

type Children = readonly unknown[] | { children: readonly unknown[] };

/** Every error of every child (empty when all are valid), each as `Kind/name: /path: problem`. */
export function validateChildren(objects: Children, options: ValidateChildrenOptions = {}): string[] {
  const list = Array.isArray(objects) ? objects : (objects as { children: readonly unknown[] }).children;
  return list.flatMap((obj) => validateKubeObject(obj, { crds: options.crds ?? [] }));
}

/** Throws an Error that lists every error of every child; returns when all are valid. */
export function expectValidChildren(objects: Children, options: ValidateChildrenOptions = {}): void {
  const errors = validateChildren(objects, options);
  if (errors.length > 0) {
    throw new Error(`${errors.length} schema error(s) in the children:\n${errors.map((e) => `  ${e}`).join('\n')}`);
  }
}
