import { readFileSync } from 'node:fs';
import { parseAllDocuments, stringify } from 'yaml';
import type { CompositionConfigs } from '../kit/config.js';
import { UsageError } from '../server/errors.js';
import type { AnyComposition } from '../kit/composition.js';
import { findCondition, READY } from '../kit/status/conditions.js';
import { parseVariants, variantNames } from '../engine/manifests.js';
import { isKubeObject } from '../kit/observed.js';
import { DEFAULT_NAMESPACE, INVALID_SPEC } from '../engine/protocol.js';
import { RequestShapeError } from '../engine/request.js';
import { runOverWire } from '../engine/run.js';
import { decorated } from '../engine/decorator.js';
import { labelsMatch } from './plan/plan.js';
import { isRecord, type KubeObject } from '../kit/types.js';
import { describeUnknown, unknownFields } from '../engine/fields/unknown-fields.js';

export { UsageError } from '../server/errors.js';

/** YAML text and where it came from (a path, or `<stdin>`), for messages. */
export interface YamlSource {
  name: string;
  text: string;
}

export interface RenderOptions {
  parent: YamlSource;
  /** The cluster's state: children, and (optionally) the parent itself with its last status. */
  observed: YamlSource[];
  related: YamlSource[];
  /** Variant names, each a name or a comma list; they combine (`openshift`, `prometheus`). */
  variant?: string | string[];
  /** RFC 3339 time of the call: new conditions' lastTransitionTime. */
  now: string;
  /** Only the children: what `kubectl apply -f -` should get. */
  childrenOnly?: boolean;
  /** yaml (a stream of documents, the default) or json (one `kind: List`, as `kubectl get -o json` prints several). */
  output?: 'yaml' | 'json';
  /** Told each field of the spec its schema does not know, with the nearest one it does. */
  warn?: (text: string) => void;
}

/** Every Kubernetes object in a YAML file (multi-document; `kind: List` is unpacked). */
export function readObjects(file: string): KubeObject[] {
  return parseObjects(readSource(file));
}

export function readSource(file: string): YamlSource {
  try {
    return { name: file, text: readFileSync(file, 'utf8') };
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
}

export function parseObjects(source: YamlSource): KubeObject[] {
  const objects: KubeObject[] = [];
  for (const doc of parseAllDocuments(source.text)) {
    if (doc.errors.length > 0) throw new UsageError(`${source.name}: invalid YAML: ${doc.errors[0]?.message}`);
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    const items = isKubeObjectList(value) ? value.items : [value];
    for (const item of items) {
      if (!isKubeObject(item)) throw new UsageError(`${source.name}: every document must be a Kubernetes object with apiVersion, kind and metadata.name`);
      objects.push(item);
    }
  }
  return objects;
}

function isKubeObjectList(value: unknown): value is { items: unknown[] } {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'List' && Array.isArray((value as { items?: unknown }).items);
}

export function compositionFor(compositions: AnyComposition[], parent: KubeObject): AnyComposition {
  const [group] = parent.apiVersion.split('/');
  const found = compositions.find((c) => c.parent.group === group && c.parent.kind === parent.kind);
  if (!found) {
    const known = compositions.map((c) => `${c.parent.kind}.${c.parent.group}`).join(', ');
    throw new UsageError(`no composition serves ${parent.kind} (${parent.apiVersion}); known kinds: ${known}`);
  }
  const version = parent.apiVersion.split('/')[1];
  if (!found.parent.versions.includes(version ?? '')) {
    throw new UsageError(`${parent.kind} ${parent.apiVersion}: version ${version} is not served (served: ${found.parent.versions.join(', ')})`);
  }
  return found;
}

/** The variants `--variant` names (one name or a comma list each, combined); every name must be one a composition knows. */
function variantsOf(compositions: AnyComposition[], given: string | string[] | undefined): string[] {
  let names: string[];
  try {
    names = parseVariants(given);
  } catch (err) {
    throw new UsageError(`--variant: ${(err as Error).message}`);
  }
  const known = variantNames(compositions);
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0)
    throw new UsageError(`no variant ${unknown.map((n) => `"${n}"`).join(', ')}; variants: ${known.join(', ')} (combine them with commas)`);
  return names;
}

/**
 * What one sync call makes of the parent, as a stream of complete objects: the parent (its
 * spec and the new status) first, then the children in the order the hook answered them
 * (kind, then name: stable). `crossplane render` prints the same order (the XR, then the
 * composed resources); unlike its default, which prints only the XR's name and status, the
 * parent here is whole, so the output can be applied, diffed, or fed back as `--observed`.
 */
export function render(compositions: AnyComposition[], config: CompositionConfigs, opts: RenderOptions): string {
  const [given, ...rest] = parseObjects(opts.parent);
  if (!given) throw new UsageError(`${opts.parent.name}: no object found`);
  if (rest.length > 0) throw new UsageError(`${opts.parent.name}: expected one parent object, found ${rest.length + 1}`);
  const composition = compositionFor(compositions, given);
  // Said before anything can fail: a misspelt required field (predictr) is why the spec is invalid.
  for (const u of unknownFields(composition.spec, given.spec ?? {})) opts.warn?.(`${opts.parent.name}: ${describeUnknown(u)}`);
  const variant = variantsOf(compositions, opts.variant);
  const namespace = given.metadata.namespace ?? DEFAULT_NAMESPACE;
  const parent: KubeObject = { ...given, metadata: { ...given.metadata, namespace } };
  const { previous, children: observed } = splitObserved(parent, opts.observed);
  // The cluster's copy of the parent carries the status the last sync wrote: a hook reads it
  // (e.g. to keep a condition's lastTransitionTime while its status does not change).
  if (previous) parent.status = previous.status;
  let answer: Record<string, unknown>;
  try {
    const files = opts.related.flatMap(parseObjects);
    // What a DecoratorController would have written on the related objects (the credentials summary on ServiceAccounts).
    const related = decorated(composition, files, namespace, (rule) =>
      files.filter(
        (o) =>
          o.apiVersion === rule.apiVersion &&
          `${o.kind.toLowerCase()}s` === rule.resource &&
          (rule.namespace === undefined || (o.metadata.namespace ?? namespace) === rule.namespace) &&
          (rule.names === undefined || rule.names.includes(o.metadata.name)) &&
          labelsMatch(rule.labelSelector, o.metadata.labels),
      ),
    );
    answer = runOverWire(composition, 'sync', { parent, observed, related, variant }, { now: opts.now, config });
  } catch (err) {
    if (err instanceof RequestShapeError) throw new UsageError(`${opts.parent.name}: ${err.message}`);
    throw err;
  }
  const status = isRecord(answer.status) ? answer.status : {};
  const ready = findCondition<{ type?: string; reason?: string; message?: string }>(status.conditions, READY);
  if (ready?.reason === INVALID_SPEC) throw new UsageError(`${opts.parent.name}: invalid spec: ${ready.message}`);
  const children = (answer.children ?? []) as KubeObject[];
  const { status: _before, ...whole } = parent;
  const docs = opts.childrenOnly ? children : [{ ...whole, status }, ...children];
  if (opts.output === 'json') return `${JSON.stringify({ apiVersion: 'v1', kind: 'List', items: docs }, null, 2)}\n`;
  return docs.map((d) => stringify(d, { lineWidth: 0 })).join('---\n');
}

/**
 * Observed objects, with the parent itself taken out: render's own output holds the parent
 * (same API group, kind, namespace and name), and a cluster would never list it as a child.
 */
function splitObserved(parent: KubeObject, sources: YamlSource[]): { previous?: KubeObject; children: KubeObject[] } {
  const group = (o: KubeObject) => (o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '');
  const isParent = (o: KubeObject) =>
    o.kind === parent.kind &&
    group(o) === group(parent) &&
    o.metadata.name === parent.metadata.name &&
    (o.metadata.namespace ?? parent.metadata.namespace) === parent.metadata.namespace;
  const objects = sources.flatMap(parseObjects);
  const parents = objects.filter(isParent);
  if (parents.length > 1) throw new UsageError(`--observed holds ${parent.kind} ${parent.metadata.name} ${parents.length} times; give it once`);
  return { ...(parents[0] ? { previous: parents[0] } : {}), children: objects.filter((o) => !isParent(o)) };
}
