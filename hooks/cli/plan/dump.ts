/**
 * A cluster dump (`kubectl get … -A -o yaml`: a List, several documents, JSON too), read once
 * and indexed by what a sync asks of it: objects of a type in a namespace, one object by name,
 * the objects an owner uid owns, the orphans labelled `controller-uid` — never a scan per parent.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { AnyComposition } from '../../kit/composition.js';
import { isKubeObject, typeKey } from '../../kit/observed.js';
import { isRecord, type KubeObject } from '../../kit/types.js';
import { UsageError } from '../../server/errors.js';

/** The label a `generateSelector: true` CompositeController selects its children by (controller.go makeSelector). */
export const CONTROLLER_UID = 'controller-uid';

/** Plurals that the English rule below gets wrong or that a dump may ask for before holding one. */
const KNOWN_RESOURCES: Record<string, string> = {
  Endpoints: 'endpoints',
  Ingress: 'ingresses',
  NetworkPolicy: 'networkpolicies',
  PodDisruptionBudget: 'poddisruptionbudgets',
};

/** The plural resource of a kind, as the API server names it for the usual kinds (lowercase, English plural). */
export function pluralOf(kind: string): string {
  const known = KNOWN_RESOURCES[kind];
  if (known) return known;
  const lower = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

/** A file, a directory (its .yaml, .yml and .json files, recursively, in name order) or `-` (stdin's text, given). */
export function readDumpTexts(paths: string[], cwd: string, stdin?: string): Array<{ name: string; text: string }> {
  const out: Array<{ name: string; text: string }> = [];
  for (const p of paths) {
    if (p === '-') {
      if (stdin === undefined) throw new UsageError('- (stdin) is not available here');
      out.push({ name: '<stdin>', text: stdin });
      continue;
    }
    const resolved = path.resolve(cwd, p);
    let isDir: boolean;
    try {
      isDir = statSync(resolved).isDirectory();
    } catch (err) {
      throw new UsageError(`cannot read ${p}: ${(err as Error).message}`);
    }
    for (const file of isDir ? filesUnder(resolved) : [resolved]) out.push({ name: file, text: readFileSync(file, 'utf8') });
  }
  return out;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return filesUnder(full);
      return /\.(ya?ml|json)$/.test(e.name) ? [full] : [];
    });
}

/** YAML text to its documents' values; throws a UsageError naming the file. */
export type YamlLoader = (name: string, text: string) => unknown[];

/**
 * js-yaml where it is installed: about 8 times faster than the yaml package on kubectl's output
 * (npm run bench:plan), which a dump of thousands of parents needs; its core schema, as yaml's
 * YAML 1.2 default (no timestamps or binary: every string stays a string). Else the yaml package
 * render uses. Loaded on first use, so that no other command needs either.
 */
export async function yamlLoader(): Promise<YamlLoader> {
  try {
    const { loadAll, CORE_SCHEMA } = await import('js-yaml');
    return (name, text) => {
      const values: unknown[] = [];
      try {
        loadAll(text, (doc) => values.push(doc), { schema: CORE_SCHEMA, filename: name });
      } catch (err) {
        throw new UsageError(`${name}: invalid YAML: ${(err as Error).message}`);
      }
      return values;
    };
  } catch (err) {
    if (err instanceof UsageError) throw err;
    return yamlPackageLoader;
  }
}

/** The yaml package's reading (render's). */
export const yamlPackageLoader: YamlLoader = (name, text) =>
  parseAllDocuments(text).map((doc) => {
    if (doc.errors.length > 0) throw new UsageError(`${name}: invalid YAML: ${doc.errors[0]?.message}`);
    return doc.toJS() as unknown;
  });

/** Every object of a text: JSON (an object or a List) or YAML documents; `List`s are unpacked. */
export function parseDump(name: string, text: string, load: YamlLoader = yamlPackageLoader): KubeObject[] {
  const values: unknown[] = [];
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      values.push(JSON.parse(text));
    } catch {
      // Not JSON after all (YAML flow style): read it as YAML below.
    }
  }
  if (values.length === 0) for (const v of load(name, text)) values.push(v);
  const objects: KubeObject[] = [];
  const add = (v: unknown) => {
    if (v === null || v === undefined) return;
    if (Array.isArray(v)) return v.forEach(add);
    if (isRecord(v) && Array.isArray(v.items) && typeof v.kind === 'string' && v.kind.endsWith('List')) return v.items.forEach(add);
    if (!isKubeObject(v)) throw new UsageError(`${name}: every object must be a Kubernetes object with apiVersion, kind and metadata.name`);
    objects.push(v);
  };
  values.forEach(add);
  return objects;
}

const nsOf = (o: KubeObject) => o.metadata.namespace ?? '';
const objectKey = (apiVersion: string, kind: string, namespace: string, name: string) => `${typeKey(apiVersion, kind)}\u0000${namespace}\u0000${name}`;

/** The dump, indexed. */
export class Dump {
  readonly objects: KubeObject[];
  private readonly byName = new Map<string, KubeObject>();
  private readonly byType = new Map<string, Map<string, KubeObject[]>>();
  private readonly byOwner = new Map<string, KubeObject[]>();
  private readonly byControllerUid = new Map<string, KubeObject[]>();
  /** `apiVersion resource` → kind, for the customize rules (which name resources). */
  private readonly kinds = new Map<string, string>();

  constructor(objects: KubeObject[], compositions: AnyComposition[]) {
    // A later object of the same type, namespace and name replaces an earlier one (several files, or --set-config).
    for (const o of objects) this.byName.set(objectKey(o.apiVersion, o.kind, nsOf(o), o.metadata.name), o);
    this.objects = [...this.byName.values()];
    for (const o of this.objects) {
      const key = typeKey(o.apiVersion, o.kind);
      let group = this.byType.get(key);
      if (!group) this.byType.set(key, (group = new Map()));
      const list = group.get(nsOf(o));
      if (list) list.push(o);
      else group.set(nsOf(o), [o]);
      for (const ref of o.metadata.ownerReferences ?? []) {
        if (typeof ref.uid !== 'string') continue;
        const owned = this.byOwner.get(ref.uid);
        if (owned) owned.push(o);
        else this.byOwner.set(ref.uid, [o]);
      }
      const label = o.metadata.labels?.[CONTROLLER_UID];
      if (label) {
        const labelled = this.byControllerUid.get(label);
        if (labelled) labelled.push(o);
        else this.byControllerUid.set(label, [o]);
      }
      this.kinds.set(`${o.apiVersion} ${pluralOf(o.kind)}`, o.kind);
    }
    for (const c of compositions) {
      this.kinds.set(`${c.parent.group}/${c.parent.versions[0]} ${c.parent.plural}`, c.parent.kind);
      for (const t of [...c.children, ...(c.optionalChildren ?? [])]) this.kinds.set(`${t.apiVersion} ${t.resource}`, t.kind);
    }
  }

  /** The kind of `resource` in `apiVersion`, if the dump or a composition knows it. */
  kindOf(apiVersion: string, resource: string): string | undefined {
    return this.kinds.get(`${apiVersion} ${resource}`);
  }

  get(apiVersion: string, kind: string, namespace: string, name: string): KubeObject | undefined {
    return this.byName.get(objectKey(apiVersion, kind, namespace, name));
  }

  /** Objects of a type in one namespace (`''`: the cluster-scoped ones), or in every namespace (undefined). */
  list(apiVersion: string, kind: string, namespace?: string): KubeObject[] {
    const group = this.byType.get(typeKey(apiVersion, kind));
    if (!group) return [];
    if (namespace !== undefined) return group.get(namespace) ?? [];
    return [...group.values()].flat();
  }

  /** Objects with an ownerReference (controller or not) to `uid`. */
  ownedBy(uid: string): KubeObject[] {
    return this.byOwner.get(uid) ?? [];
  }

  /** Objects labelled `controller-uid: uid`. */
  labelled(uid: string): KubeObject[] {
    return this.byControllerUid.get(uid) ?? [];
  }
}

/**
 * `--set-config` objects laid over the dump's: a ConfigMap (or any object) replaces the one of
 * the same type, namespace and name; a Namespace given keeps the dump's labels unless it sets
 * its own, so that selectors still select it.
 */
export function withOverrides(objects: KubeObject[], overrides: KubeObject[]): KubeObject[] {
  const index = new Map(objects.map((o, i) => [objectKey(o.apiVersion, o.kind, nsOf(o), o.metadata.name), i]));
  const out = objects.slice();
  for (const o of overrides) {
    const key = objectKey(o.apiVersion, o.kind, nsOf(o), o.metadata.name);
    const at = index.get(key);
    if (at === undefined) {
      index.set(key, out.length);
      out.push(o);
      continue;
    }
    const current = out[at] as KubeObject;
    out[at] =
      o.kind === 'Namespace' && o.apiVersion === 'v1'
        ? {
            ...current,
            metadata: { ...current.metadata, ...(o.metadata.labels ? { labels: o.metadata.labels } : {}), annotations: o.metadata.annotations ?? {} },
          }
        : o;
  }
  return out;
}

/** Every value of every Secret in the dump (data as given, base64, and decoded; stringData): what the output must never show. */
export function secretValues(objects: KubeObject[]): Set<string> {
  const values = new Set<string>();
  for (const o of objects) {
    if (o.kind !== 'Secret' || o.apiVersion !== 'v1') continue;
    const s = o as KubeObject & { data?: unknown; stringData?: unknown };
    if (isRecord(s.data)) {
      for (const v of Object.values(s.data)) {
        if (typeof v !== 'string' || v === '') continue;
        values.add(v);
        const decoded = Buffer.from(v, 'base64').toString('utf8');
        if (decoded !== '') values.add(decoded);
      }
    }
    if (isRecord(s.stringData)) for (const v of Object.values(s.stringData)) if (typeof v === 'string' && v !== '') values.add(v);
  }
  return values;
}
