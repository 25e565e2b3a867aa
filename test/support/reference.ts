// Access to the upstream reference data vendored under test/vendor (test/vendor/SOURCES.md names
// each file's repository and commit): real CRDs, Kubernetes OpenAPI documents and users' samples.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { KubeObject as KitObject } from '../../hooks/kit/index.js';

export type KubeObject = Record<string, unknown> & { apiVersion?: unknown; kind?: unknown };

export interface Sample {
  file: string;
  object: KubeObject;
}

let root: string | undefined;

/** The directory holding package.json, found upwards from this file. */
export function repoRoot(): string {
  if (root) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above test/support');
    dir = parent;
  }
  root = dir;
  return dir;
}

/** `<repo>/test/vendor`: the upstream files the tests read, kept in the repository. */
export function vendorDir(): string {
  return path.join(repoRoot(), 'test', 'vendor');
}

/** Every non-empty YAML document of a file, as plain objects. */
export function loadYamlFile(file: string): KubeObject[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  return docs.flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message}`);
    const value: unknown = doc.toJS();
    return isObject(value) ? [value] : [];
  });
}

/** Sorted `*.yaml`/`*.yml` files of a directory; none when it does not exist. */
export function yamlFilesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => path.join(dir, name));
}

/** The CRDs of one file under test/vendor/crds (some files hold several). */
export function loadReferenceCrds(fileName: string): KubeObject[] {
  return loadYamlFile(path.join(vendorDir(), 'crds', fileName)).filter(isCrd);
}

/** The one CRD of a vendored file, or the one for `kind` when the file holds several. */
export function loadReferenceCrd(fileName: string, kind?: string): KubeObject {
  const crds = loadReferenceCrds(fileName).filter((crd) => kind === undefined || crdKind(crd) === kind);
  const [only, ...rest] = crds;
  if (!only || rest.length > 0) {
    const found = loadReferenceCrds(fileName).map(crdKind).join(', ');
    throw new Error(`${fileName}: expected one CRD${kind ? ` of kind ${kind}` : ''}, found: ${found || 'none'}`);
  }
  return only;
}

/** Every CRD under test/vendor/crds. */
export function allReferenceCrds(): KubeObject[] {
  return yamlFilesIn(path.join(vendorDir(), 'crds')).flatMap(loadYamlFile).filter(isCrd);
}

/** Every object of every file under test/vendor/samples, in file order. */
export function referenceSamples(): Sample[] {
  return yamlFilesIn(path.join(vendorDir(), 'samples')).flatMap((file) => loadYamlFile(file).map((object) => ({ file: path.basename(file), object })));
}

export function isCrd(obj: KubeObject): boolean {
  return obj.kind === 'CustomResourceDefinition' && String(obj.apiVersion).startsWith('apiextensions.k8s.io/');
}

function crdKind(crd: KubeObject): string {
  const spec = crd.spec as { names?: { kind?: string } } | undefined;
  return spec?.names?.kind ?? '?';
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The ServiceAccounts and Secrets the vendored KServe samples ship beside their
 * InferenceServices, plus a bare ServiceAccount for each one a sample names but does not ship
 * (the Hugging Face docs' hf_secret.yaml is not vendored: its HF_TOKEN is not valid base64).
 * KServe refuses the pods of an InferenceService whose ServiceAccount is missing, so without
 * these a sample renders nothing.
 */
export function sampleCredentials(): KitObject[] {
  const objects = referenceSamples().map((s) => s.object as KitObject);
  const shipped = objects.filter((o) => o.apiVersion === 'v1' && (o.kind === 'ServiceAccount' || o.kind === 'Secret'));
  const accounts = new Set(shipped.filter((o) => o.kind === 'ServiceAccount').map((o) => o.metadata?.name));
  const named = objects
    .filter((o) => o.kind === 'InferenceService')
    .flatMap((o) => Object.values((o.spec ?? {}) as Record<string, { serviceAccountName?: unknown }>).map((c) => c?.serviceAccountName))
    .filter((n): n is string => typeof n === 'string' && !accounts.has(n));
  return [...shipped, ...[...new Set(named)].map((name) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } }))];
}
