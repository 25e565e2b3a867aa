import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyComposition } from '../kit/composition.js';
import { isDns1123Label } from '../kit/children/names.js';
import { UsageError } from '../server/errors.js';

/** A composition module that cannot be served: missing, broken, empty, or clashing with another. */
export class CompositionLoadError extends UsageError {
  override name = 'CompositionLoadError';
}

/** The options `serve`, `render` and `manifests` share (node:util parseArgs shape). */
export const COMPOSITION_OPTIONS = {
  composition: { type: 'string', multiple: true, default: [] as string[] },
  'no-builtin': { type: 'boolean', default: false },
} as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why a value is not a composition (what `defineComposition` returns), or undefined if it is one. */
export function compositionProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'not an object';
  if (typeof value.name !== 'string' || !isDns1123Label(value.name))
    return `name must be a lowercase DNS label (it is the route /hooks/<name>/sync), got ${JSON.stringify(value.name)}`;
  const parent = value.parent;
  if (!isObject(parent)) return 'no parent type';
  for (const field of ['group', 'kind', 'plural', 'singular']) {
    if (typeof parent[field] !== 'string' || parent[field] === '') return `parent.${field} must be a non-empty string`;
  }
  if (!Array.isArray(parent.versions) || parent.versions.length === 0 || !parent.versions.every((v) => typeof v === 'string')) {
    return 'parent.versions must be a non-empty list of versions';
  }
  if (!isObject(value.spec) || typeof value.spec.safeParse !== 'function') return 'spec must be a zod schema';
  if (!Array.isArray(value.children)) return 'children must be a list of child types';
  if (typeof value.sync !== 'function') return 'sync must be a function';
  return undefined;
}

/** The compositions a module exports: its default export (one or a list) and its named exports. */
export function compositionsOf(module: Record<string, unknown>, label: string): AnyComposition[] {
  const found = new Set<AnyComposition>();
  const nearMisses: string[] = [];
  for (const [key, value] of Object.entries(module)) {
    if (key === 'default' && Array.isArray(value)) {
      value.forEach((item, i) => {
        const problem = compositionProblem(item);
        if (problem) throw new CompositionLoadError(`${label}: default export [${i}] is not a composition: ${problem}`);
        found.add(item as AnyComposition);
      });
      continue;
    }
    const problem = compositionProblem(value);
    if (!problem) found.add(value as AnyComposition);
    // Something that tries to be a composition deserves to hear why it is not one.
    else if (isObject(value) && ('sync' in value || 'parent' in value)) nearMisses.push(`${key}: ${problem}`);
  }
  if (found.size === 0) {
    const why = nearMisses.length > 0 ? `; ${nearMisses.join('; ')}` : ` (exports: ${Object.keys(module).join(', ') || 'none'})`;
    throw new CompositionLoadError(
      `${label} exports no composition: export one made with defineComposition from modelhooks/kit, by name or as the default export (one or a list)${why}`,
    );
  }
  return [...found];
}

/**
 * Imports each module (a path relative to cwd, compiled JavaScript) and returns its compositions.
 * `given` says in messages where a file was named (`--composition`, or the directory variable).
 */
export async function loadCompositions(files: string[], cwd: string, given = '--composition'): Promise<Array<{ composition: AnyComposition; source: string }>> {
  const loaded: Array<{ composition: AnyComposition; source: string }> = [];
  for (const file of files) {
    const resolved = path.resolve(cwd, file);
    if (!existsSync(resolved)) throw new CompositionLoadError(`${given} ${file}: no such file (${resolved})`);
    let module: Record<string, unknown>;
    try {
      module = (await import(pathToFileURL(resolved).href)) as Record<string, unknown>;
    } catch (err) {
      throw new CompositionLoadError(`${given} ${file}: cannot load it: ${(err as Error).message}`);
    }
    for (const composition of compositionsOf(module, file)) loaded.push({ composition, source: file });
  }
  return loaded;
}

/** Refuses two compositions with one name (one route) or one parent kind (two controllers for it). */
export function withoutClashes(entries: Array<{ composition: AnyComposition; source: string }>): AnyComposition[] {
  const byName = new Map<string, string>();
  const byKind = new Map<string, string>();
  for (const { composition: c, source } of entries) {
    const kind = `${c.parent.kind}.${c.parent.group}`;
    const sameName = byName.get(c.name);
    if (sameName) throw new CompositionLoadError(`composition "${c.name}" is defined twice: by ${sameName} and by ${source}`);
    const sameKind = byKind.get(kind);
    if (sameKind) throw new CompositionLoadError(`${kind} is served twice: by ${sameKind} and by ${source} (composition "${c.name}")`);
    byName.set(c.name, source);
    byKind.set(kind, source);
  }
  return entries.map((e) => e.composition);
}

/** The variable that names a directory of composition modules (the image sets /compositions). */
export const COMPOSITIONS_DIR = 'MODELHOOKS_COMPOSITIONS_DIR';

/**
 * The modules of a compositions directory: every `.js` and `.mjs` file at its top, in name
 * order, but tests (`*.test.js`, `*.spec.js`, compiled beside them by some builds). Helper
 * modules a composition imports go in a subdirectory. A missing directory is an error (a typo
 * would otherwise serve nothing); an empty one is not (the image's, before a build adds to it).
 */
export function compositionModulesIn(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CompositionLoadError(`${COMPOSITIONS_DIR}=${dir}: no such directory`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && /\.m?js$/.test(e.name) && !/\.(test|spec)\.m?js$/.test(e.name))
    .map((e) => path.join(dir, e.name))
    .sort();
}

/**
 * The compositions a command serves: the built-in ones (unless --no-builtin), then each module
 * of MODELHOOKS_COMPOSITIONS_DIR (when set), then each --composition module's.
 */
export async function compositionsFromOptions(
  values: { composition?: string[]; 'no-builtin'?: boolean },
  cwd: string,
  env: Record<string, string | undefined> = {},
): Promise<AnyComposition[]> {
  const dir = env[COMPOSITIONS_DIR];
  const inDir = dir ? compositionModulesIn(path.resolve(cwd, dir)) : [];
  const files = values.composition ?? [];
  if (values['no-builtin'] && files.length + inDir.length === 0)
    throw new UsageError(`--no-builtin needs at least one --composition FILE (or a module in ${COMPOSITIONS_DIR}) to serve`);
  // Imported only here: `--help`, `init` and `completion` start without the compositions.
  const builtins = values['no-builtin']
    ? []
    : (await import('../compositions.js')).builtinCompositions.map((composition) => ({
        composition,
        source: 'the built-in compositions (--no-builtin leaves them out)',
      }));
  return withoutClashes([...builtins, ...(await loadCompositions(inDir, cwd, COMPOSITIONS_DIR)), ...(await loadCompositions(files, cwd))]);
}
