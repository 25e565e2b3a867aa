import { readFileSync } from 'node:fs';
import { parseAllDocuments, stringify } from 'yaml';
import type { HookConfig } from '../config.js';
import type { AnyComposition } from '../kit/composition.js';
import { isKubeObject } from '../kit/observed.js';
import { INVALID_SPEC } from '../kit/protocol.js';
import type { KubeObject } from '../kit/types.js';
import { runSync } from '../testing.js';

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface RenderOptions {
  parentFile: string;
  observedFiles: string[];
  relatedFiles: string[];
  variant?: string;
  now?: string;
}

/** Every Kubernetes object in a YAML file (multi-document; `kind: List` is unpacked). */
export function readObjects(file: string): KubeObject[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
  const objects: KubeObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new UsageError(`${file}: invalid YAML: ${doc.errors[0]?.message}`);
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    const items = isKubeObjectList(value) ? value.items : [value];
    for (const item of items) {
      if (!isKubeObject(item)) throw new UsageError(`${file}: every document must be a Kubernetes object with apiVersion, kind and metadata.name`);
      objects.push(item);
    }
  }
  return objects;
}

function isKubeObjectList(value: unknown): value is { items: unknown[] } {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'List' && Array.isArray((value as { items?: unknown }).items);
}

export function compositionFor(compositions: AnyComposition<HookConfig>[], parent: KubeObject): AnyComposition<HookConfig> {
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

/** The desired children as a YAML stream, then one document with the parent's new status. */
export function render(compositions: AnyComposition<HookConfig>[], config: HookConfig, opts: RenderOptions): string {
  const [parent, ...rest] = readObjects(opts.parentFile);
  if (!parent) throw new UsageError(`${opts.parentFile}: no object found`);
  if (rest.length > 0) throw new UsageError(`${opts.parentFile}: expected one parent object, found ${rest.length + 1}`);
  const composition = compositionFor(compositions, parent);
  if (opts.variant && opts.variant !== 'default' && !composition.variants?.some((v) => v.name === opts.variant)) {
    const names = ['default', ...(composition.variants ?? []).map((v) => v.name)].join(', ');
    throw new UsageError(`${composition.name} has no variant "${opts.variant}"; variants: ${names}`);
  }
  const result = runSync(composition, {
    parent,
    observed: opts.observedFiles.flatMap(readObjects),
    related: opts.relatedFiles.flatMap(readObjects),
    config,
    ...(opts.variant ? { variant: opts.variant } : {}),
    ...(opts.now ? { now: opts.now } : {}),
  });
  const ready = result.condition('Ready');
  if (ready?.reason === INVALID_SPEC) throw new UsageError(`${opts.parentFile}: invalid spec: ${ready.message}`);
  return [...result.children, { status: result.status }].map((d) => stringify(d, { lineWidth: 0 })).join('---\n');
}
