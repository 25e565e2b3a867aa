import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from './kube.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Upstream CRDs and users' samples, vendored in the repo (test/vendor/SOURCES.md names their sources). */
export const vendorDir = path.join(repoRoot, 'test', 'vendor');

export const fromRoot = (...parts: string[]) => path.join(repoRoot, ...parts);

/** Every object in a (multi-document) YAML file; empty documents and `List` wrappers flattened. */
export function readObjects(file: string): KubeObject[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  const out: KubeObject[] = [];
  for (const doc of docs) {
    if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0]?.message}`);
    const value = doc.toJS() as KubeObject | null;
    if (!value) continue;
    if (value.kind?.endsWith('List') && Array.isArray(value.items)) out.push(...((value.items as KubeObject[] | undefined) ?? []));
    else out.push(value);
  }
  return out;
}

/** YAML files of a directory (and its subdirectories with `recursive`), sorted; [] when absent. */
export function yamlFiles(dir: string, recursive = false): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive })
    .map(String)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}

/** Objects of every YAML file in a directory, each with its file; kustomization.yaml files skipped. */
export function objectsIn(dir: string, recursive = false): Array<{ file: string; obj: KubeObject }> {
  return yamlFiles(dir, recursive).flatMap((file) =>
    readObjects(file)
      .filter((obj) => !obj.apiVersion?.startsWith('kustomize.config.k8s.io/'))
      .map((obj) => ({ file: path.relative(repoRoot, file), obj })),
  );
}

export function subdirs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((d) => statSync(path.join(dir, d)).isDirectory())
    .sort();
}
