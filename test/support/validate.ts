// Strict validation of Kubernetes objects for the repository's tests: the validator of
// `modelhooks/testing` (hooks/testing/schema), with the custom resources' CRDs looked up in the
// repo's generated crds/ and the vendored upstream CRDs (test/vendor/crds). Unknown fields fail.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { CrdVersion } from '../../hooks/testing/schema/crd-schema.js';
import { labelOf, validateAgainstCrd, validateKubeObject, versionsOf } from '../../hooks/testing/schema/validator.js';
import { type KubeObject, isCrd, loadYamlFile, repoRoot, vendorDir, yamlFilesIn } from './reference.js';

export { validateAgainstCrd };

/** Errors of `obj` (empty when valid), each prefixed with `Kind/name: `. */
export function validateObject(obj: unknown, extraCrds: object[] = []): string[] {
  return validateKubeObject(obj, { crds: extraCrds, lookup: knownCrdVersions });
}

/** Fails the current test with every error of `obj`, naming its kind and name. */
export function expectValid(obj: unknown, extraCrds?: object[]): void {
  expect(validateObject(obj, extraCrds), `${labelOf(obj)} is not valid`).toEqual([]);
}

const crdsByKind = new Map<string, CrdVersion[]>();
const crdsByFile = new Map<string, KubeObject[]>();

/**
 * Versions of `kind` from the repo's generated crds/ (first: they are what we ship), then from
 * the vendored CRDs. Only files that mention the kind are parsed: parsing every vendored CRD
 * costs ~2 s, most of it KServe's, which few tests need.
 */
function knownCrdVersions(kind: string): CrdVersion[] {
  let versions = crdsByKind.get(kind);
  if (!versions) {
    const files = [...yamlFilesIn(path.join(repoRoot(), 'crds')), ...yamlFilesIn(path.join(vendorDir(), 'crds'))];
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
