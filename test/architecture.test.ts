import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../hooks/compositions.js';
import * as kit from '../hooks/kit/index.js';
import { sourceFilesUnder } from './support/source-files.js';

// The architecture the README draws, held: no import cycle under hooks/ (type imports and
// re-exports count), no folder of more than 15 source files, and a small author's kit
// (`modelhooks/kit`) that leans on nothing outside hooks/kit.
const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

const filesUnder = sourceFilesUnder;

/** The files a source imports or re-exports by a relative path (`import type` and `export … from` included). */
export function relativeImports(file: string, source: string): string[] {
  const targets: string[] = [];
  for (const [, spec] of source.matchAll(/^\s*(?:import|export)\b[^;'"]*?(?:from\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm)) {
    const target = path.join(path.dirname(file), spec as string).replace(/\.js$/, '.ts');
    targets.push(target.endsWith('.ts') ? target : existsSync(path.join(root, `${target}.ts`)) ? `${target}.ts` : path.join(target, 'index.ts'));
  }
  return targets;
}

/** Tarjan's strongly connected components of a graph; each with more than one node is a cycle. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

const hooks = filesUnder('hooks');
const graph = new Map(hooks.map((file) => [file, relativeImports(file, read(file))]));

describe('the import graph under hooks/', () => {
  it('finds a cycle through `import type` and re-exports, and none in a chain', () => {
    const sources: Record<string, string> = {
      'a/x.ts': "import type { Y } from './y.js';",
      'a/y.ts': "export { z } from '../b/z.js';",
      'b/z.ts': "import {\n  type X,\n} from '../a/x.js';",
      'b/w.ts': "import { z } from './z.js';",
    };
    const g = new Map(Object.entries(sources).map(([f, s]) => [f, relativeImports(f, s)]));
    expect(cyclesOf(g)).toEqual([['a/x.ts', 'a/y.ts', 'b/z.ts']]);
    g.set('b/z.ts', []);
    expect(cyclesOf(g)).toEqual([]);
  });

  it('reads every relative import of the sources (the graph is not empty)', () => {
    expect(hooks.length).toBeGreaterThan(100);
    for (const [file, targets] of graph) for (const target of targets) expect(existsSync(path.join(root, target)), `${file} imports ${target}`).toBe(true);
    expect(graph.get('hooks/engine/protocol.ts')).toContain('hooks/kit/children/keep.ts');
    expect(graph.get('hooks/kit/index.ts')).toContain('hooks/kit/composition.ts');
  });

  it('has no import cycle, type imports and re-exports included', () => {
    expect(cyclesOf(graph).map((c) => c.join(' ↔ '))).toEqual([]);
  });

  it('has no folder with more than 15 source files', () => {
    const perFolder = new Map<string, number>();
    for (const file of hooks) perFolder.set(path.dirname(file), (perFolder.get(path.dirname(file)) ?? 0) + 1);
    expect([...perFolder].filter(([, n]) => n > 15)).toEqual([]);
  });
});

describe('modelhooks/kit (hooks/kit/index.ts)', () => {
  const index = read('hooks/kit/index.ts');
  const runtime = Object.keys(kit).sort();

  /** Each name the index exports at run time, with the file it comes from. */
  const origin = new Map<string, string>();
  for (const [, names, from] of index.matchAll(/^export \{([^}]*)\} from '([^']+)';/gm)) {
    for (const name of (names as string)
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean))
      origin.set(name, path.join('hooks/kit', (from as string).replace(/\.js$/, '.ts')));
  }

  /** The names a file imports from the kit's index (`modelhooks/kit` or a relative path to it), values only. */
  function kitImports(file: string): string[] {
    const names: string[] = [];
    for (const [, typeOnly, list] of read(file).matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'(?:modelhooks\/kit|[./]+kit\/index\.js)'/g)) {
      if (typeOnly) continue;
      for (const n of (list as string).split(',').map((x) => x.trim())) if (n && !n.startsWith('type ')) names.push(n.split(/\s+as\s+/)[0] as string);
    }
    return names;
  }

  it('names each export (no `export *`), at most 60 of them at run time', () => {
    expect(index).not.toMatch(/^export \*/m);
    expect([...origin.keys()].sort()).toEqual(runtime);
    expect(runtime.length).toBeGreaterThan(20);
    expect(runtime.length).toBeLessThanOrEqual(60);
  });

  it('exports only what a built-in composition or examples/ use', () => {
    const users = [...builtinCompositions.map((c) => `hooks/${c.name}`), 'examples'];
    const used = new Set(users.flatMap((dir) => filesUnder(dir)).flatMap(kitImports));
    expect(used.has('defineComposition')).toBe(true);
    expect(
      runtime.filter((name) => !used.has(name)),
      'exported but used by no composition or example',
    ).toEqual([]);
  });

  it('documents each export in a doc comment on its declaration', () => {
    const undocumented = runtime.filter((name) => {
      const file = origin.get(name) as string;
      const source = read(file);
      const at = source.search(new RegExp(`^export (?:const|let|function|class) ${name}\\b`, 'm'));
      if (at < 0) return true;
      const before = source.slice(0, at).trimEnd();
      if (!before.endsWith('*/')) return true;
      const doc = before.slice(before.lastIndexOf('/**'));
      const firstLine =
        doc
          .replace(/^\/\*\*\s*\*?\s*/, '')
          .split('\n')[0]
          ?.trim() ?? '';
      return firstLine.length < 10;
    });
    expect(undocumented).toEqual([]);
  });

  it('imports nothing outside hooks/kit (the engine, server and CLI import the kit, never the reverse)', () => {
    const kitFiles = hooks.filter((file) => file.startsWith('hooks/kit/'));
    expect(kitFiles.length).toBeGreaterThan(10);
    for (const file of kitFiles) {
      for (const target of graph.get(file) ?? []) expect(target, `${file} imports ${target}`).toMatch(/^hooks\/kit\//);
    }
  });
});

describe('what left the kit', () => {
  it("crdFor and compositeControllerFor are modelhooks/server's, where docs/writing-compositions.md points", async () => {
    const server = await import('../hooks/server/api.js');
    expect(typeof server.crdFor).toBe('function');
    expect(typeof server.compositeControllerFor).toBe('function');
    expect(Object.keys(kit)).not.toContain('crdFor');
    expect(read('docs/writing-compositions.md')).toMatch(/`crdFor\(composition\)` and `compositeControllerFor\([^`]*\)` \(from\s+`modelhooks\/server`\)/);
  });
});
