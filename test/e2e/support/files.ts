import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from './kube.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Shared reference data (real upstream CRDs and samples), outside the repo on purpose. */
export const referenceDir = process.env.MODELHOOKS_REFERENCE ?? path.resolve(repoRoot, '../shared/reference');

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

/** YAML files directly in a directory, sorted; [] when the directory does not exist. */
export function yamlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}

/** Objects of every YAML file in a directory, each with the file it came from. */
export function objectsIn(dir: string): Array<{ file: string; obj: KubeObject }> {
  return yamlFiles(dir).flatMap((file) => readObjects(file).map((obj) => ({ file: path.relative(repoRoot, file), obj })));
}

export function subdirs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((d) => statSync(path.join(dir, d)).isDirectory())
    .sort();
}
