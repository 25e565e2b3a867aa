// Just enough of kustomize to read deploy/ without the binary: `resources` (files and
// directories with a kustomization.yaml, recursively), `components` (kind: Component, applied
// in order to what the including kustomization has accumulated), inline JSON 6902 `patches`
// with a `target` (add, remove, replace, test), and `images`. Anything else a kustomization uses is refused, so a test never
// checks objects that differ from what `kustomize build` would make (test/deploy/deploy.test.ts
// compares the two where the e2e tier has built the binary; the e2e tier runs the real thing).
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { type KubeObject, isObject, loadYamlFile } from '../support/reference.js';
export interface Kustomization {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  resources?: string[];
  components?: string[];
  patches?: { target?: PatchTarget; patch?: string; path?: string }[];
  images?: Image[];
  [other: string]: unknown;
}

interface PatchTarget {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
}

interface Operation {
  op: 'add' | 'remove' | 'replace' | 'test';
  path: string;
  value?: unknown;
}

const SUPPORTED = new Set(['apiVersion', 'kind', 'namespace', 'resources', 'components', 'patches', 'images']);

export type Image = { name: string; newName?: string; newTag?: string };

/** What `kustomize edit add component` and `kustomize edit set image` would change, without writing it. */
export interface Edits {
  /** Appended to `components:`, relative to the directory built. */
  components?: string[];
  /** Replace the `images:` entry of the same name, or are appended. */
  images?: Image[];
}

const parsed = new Map<string, { mtimeMs: number; objects: KubeObject[] }>();

/**
 * A resource file's objects, parsed once per file and modification time (a fresh copy each
 * time: patches change them). Builds of every combination of components re-read the same
 * files, crds/ among them (130 KB of YAML): parsing each once took the 48 builds of the Helm chart from 70 s to 11 s (a loaded 2-core machine).
 */
function objectsOf(file: string): KubeObject[] {
  const { mtimeMs } = statSync(file);
  let entry = parsed.get(file);
  if (entry === undefined || entry.mtimeMs !== mtimeMs) parsed.set(file, (entry = { mtimeMs, objects: loadYamlFile(file) }));
  return structuredClone(entry.objects);
}

export function kustomizationFile(dir: string): string | undefined {
  return ['kustomization.yaml', 'kustomization.yml', 'Kustomization'].map((f) => path.join(dir, f)).find((f) => existsSync(f));
}

export function readKustomization(dir: string): Kustomization {
  const file = kustomizationFile(dir);
  if (!file) throw new Error(`${dir}: no kustomization.yaml`);
  return parse(readFileSync(file, 'utf8')) as Kustomization;
}

/** The objects `kustomize build dir` would print, as far as this model goes (after `edits`). */
export function build(dir: string, edits: Edits = {}): KubeObject[] {
  return accumulate(dir, [], 'Kustomization', edits);
}

function accumulate(dir: string, objects: KubeObject[], as: 'Kustomization' | 'Component', edits: Edits): KubeObject[] {
  const k = readKustomization(dir);
  const kind = k.kind ?? 'Kustomization';
  if (kind !== as) throw new Error(`${dir}: a ${kind} cannot be used as a ${as === 'Component' ? 'component' : 'resource or built'}`);
  const unsupported = Object.keys(k).filter((key) => !SUPPORTED.has(key));
  if (unsupported.length > 0) throw new Error(`${dir}: test/deploy/kustomize.ts does not model ${unsupported.join(', ')}`);
  if (kind === 'Component' && k.namespace !== undefined) throw new Error(`${dir}: namespace in a Component is not modelled`);
  for (const rel of k.resources ?? []) {
    const abs = path.resolve(dir, rel);
    if (!existsSync(abs)) throw new Error(`${dir}: resource ${rel} does not exist`);
    for (const obj of statSync(abs).isDirectory() ? build(abs) : objectsOf(abs)) {
      // As kustomize's resource map: one object per id.
      const id = (o: KubeObject) => {
        const m = (o.metadata ?? {}) as { name?: string; namespace?: string };
        return `${o.kind}/${m.name}.${m.namespace ?? ''} (${o.apiVersion})`;
      };
      if (objects.some((o) => id(o) === id(obj))) throw new Error(`${dir}: may not add resource with an already registered id: ${id(obj)}`);
      objects.push(obj);
    }
  }
  for (const rel of [...(k.components ?? []), ...(edits.components ?? [])]) {
    const abs = path.resolve(dir, rel);
    if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new Error(`${dir}: component ${rel} is not a directory`);
    accumulate(abs, objects, 'Component', {});
  }
  for (const p of k.patches ?? []) {
    if (p.path !== undefined || p.patch === undefined || p.target === undefined) {
      throw new Error(`${dir}: only inline JSON 6902 patches with a target are modelled`);
    }
    const ops = parse(p.patch) as Operation[];
    if (!Array.isArray(ops)) throw new Error(`${dir}: strategic-merge patches are not modelled`);
    const targets = objects.filter((o) => matches(o, p.target as PatchTarget));
    // kustomize applies a patch that selects nothing to nothing. The model refuses it (a misspelt
    // target), except for a guard of test ops alone (deploy/components/tls-*: each fails on the other's object).
    if (targets.length === 0 && !ops.every((op) => op.op === 'test')) throw new Error(`${dir}: patch target ${JSON.stringify(p.target)} matches nothing`);
    for (const obj of targets) for (const op of ops) apply(obj, op);
  }
  const images = [...(k.images ?? [])];
  for (const image of edits.images ?? []) {
    const at = images.findIndex((i) => i.name === image.name);
    if (at >= 0) images[at] = image;
    else images.push(image);
  }
  for (const image of images) for (const obj of objects) setImage(obj, image);
  return objects;
}

/** `images:` on the containers of workloads (the only kind with pods that deploy/ has). */
function setImage(obj: KubeObject, image: Image): void {
  const pod = (obj.spec as { template?: { spec?: { containers?: { image?: string }[]; initContainers?: { image?: string }[] } } } | undefined)?.template?.spec;
  for (const c of [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])]) {
    const match = /^(.*?)(?::([^:/@]+))?(@.*)?$/.exec(c.image ?? '');
    if (!match || match[1] !== image.name) continue;
    c.image = `${image.newName ?? image.name}${image.newTag !== undefined ? `:${image.newTag}` : match[2] ? `:${match[2]}` : ''}${match[3] ?? ''}`;
  }
}

function matches(obj: KubeObject, t: PatchTarget): boolean {
  const [group, version] = String(obj.apiVersion).includes('/') ? String(obj.apiVersion).split('/') : ['', String(obj.apiVersion)];
  const meta = (obj.metadata ?? {}) as { name?: string; namespace?: string };
  return (
    (t.group === undefined || t.group === group) &&
    (t.version === undefined || t.version === version) &&
    (t.kind === undefined || t.kind === obj.kind) &&
    (t.name === undefined || t.name === meta.name) &&
    (t.namespace === undefined || t.namespace === meta.namespace)
  );
}

function apply(obj: KubeObject, op: Operation): void {
  const tokens = op.path
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = tokens.pop();
  if (last === undefined) throw new Error(`patch path "${op.path}" names the whole object`);
  if (!['add', 'remove', 'replace', 'test'].includes(op.op)) throw new Error(`patch op "${op.op}" is not modelled`);
  let node: unknown = obj;
  for (const t of tokens) {
    node = Array.isArray(node) ? node[Number(t)] : isObject(node) ? node[t] : undefined;
    if (node === undefined) throw new Error(`patch path "${op.path}": ${t} does not exist`);
  }
  if (op.op === 'test') {
    const actual = Array.isArray(node) ? node[Number(last)] : isObject(node) ? node[last] : undefined;
    // kustomize fails the build when a test op does not hold, in these words (evanphx/json-patch).
    if (JSON.stringify(actual) !== JSON.stringify(op.value)) throw new Error(`testing value ${op.path} failed: test failed`);
    return;
  }
  if (Array.isArray(node)) {
    const index = last === '-' ? node.length : Number(last);
    if (op.op === 'add') node.splice(index, 0, op.value);
    else if (index >= node.length) throw new Error(`patch path "${op.path}" does not exist`);
    else if (op.op === 'remove') node.splice(index, 1);
    else node[index] = op.value;
  } else if (isObject(node)) {
    if (op.op !== 'add' && !(last in node)) throw new Error(`patch path "${op.path}" does not exist`);
    if (op.op === 'remove') delete node[last];
    else node[last] = op.value;
  } else {
    throw new Error(`patch path "${op.path}": parent is not an object or array`);
  }
}
