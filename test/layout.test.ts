import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../hooks/compositions.js';
import { sourceFilesUnder } from './support/source-files.js';

// docs/architecture.md: every composition has the same parts, a sync that reads top
// to bottom, and the production code never leans on the test helpers.
const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

const filesUnder = sourceFilesUnder;

/** The lines of `sync(input) { … }` in a composition's index.ts, braces included. */
export function syncLines(source: string): string[] {
  const lines = source.split('\n');
  const start = lines.findIndex((l) => /^ {2}sync\(input\) \{$/.test(l));
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && l === '  },');
  return lines.slice(start, end + 1);
}

for (const { name } of builtinCompositions) {
  describe(`hooks/${name}: the shape every composition has`, () => {
    const dir = `hooks/${name}`;
    it('has index.ts, spec.ts, config.ts, names.ts and status.ts', () => {
      const files = readdirSync(path.join(root, dir));
      for (const part of ['index.ts', 'spec.ts', 'config.ts', 'names.ts', 'status.ts']) expect(files, `${dir}/${part}`).toContain(part);
    });

    it('names its parts alike: <name>Spec, <name>Config, selectorFor, conditionTree, statusFrom', () => {
      expect(read(`${dir}/spec.ts`)).toMatch(new RegExp(`^export const ${name}Spec = `, 'm'));
      expect(read(`${dir}/config.ts`)).toMatch(new RegExp(`^export const ${name}Config = `, 'm'));
      expect(read(`${dir}/names.ts`)).toMatch(/^export function selectorFor\(/m);
      const status = read(`${dir}/status.ts`);
      // The condition tree is data: Ready, phase and lastTransitionTime are derived by the kit.
      expect(status).toMatch(/^export const conditionTree = readyConditions\(/m);
      expect(status).toMatch(/^export function statusFrom\(\s*input: /m);
    });

    it('has a sync of at most 30 lines, top to bottom', () => {
      const sync = syncLines(read(`${dir}/index.ts`));
      expect(sync.length, `${dir}/index.ts sync`).toBeGreaterThan(2);
      expect(sync.length, `${dir}/index.ts sync:\n${sync.join('\n')}`).toBeLessThanOrEqual(30);
    });
  });
}

describe('examples/custom/echo.ts, docs/writing-compositions.md', () => {
  const source = read('examples/custom/echo.ts');
  it('has the same parts under the same names, and a short sync', () => {
    expect(source).toMatch(/^export const echoSpec = /m);
    expect(source).toMatch(/^export const selectorFor = /m);
    expect(source).toMatch(/^export const conditionTree = readyConditions\(/m);
    expect(source).toMatch(/^export function statusFrom\(input: /m);
    const sync = syncLines(source);
    expect(sync.length).toBeGreaterThan(2);
    expect(sync.length).toBeLessThanOrEqual(30);
  });
});

describe('the source tree', () => {
  const hooks = filesUnder('hooks');

  it('finds the sync of a composition of the usual form (and of no other)', () => {
    expect(syncLines('x\n  sync(input) {\n    return 1;\n  },\n})')).toEqual(['  sync(input) {', '    return 1;', '  },']);
    expect(syncLines('const sync = 1;')).toEqual([]);
  });

  it('the production path never imports the test helpers (hooks/testing*)', () => {
    const importers = hooks.filter((file) => !file.startsWith('hooks/testing'));
    expect(importers.length).toBeGreaterThan(50);
    for (const file of importers) {
      for (const [, source] of read(file).matchAll(/from '(\.[^']+)'/g)) {
        const target = path.relative(root, path.resolve(root, path.dirname(file), source as string));
        expect(target, `${file} imports ${source}`).not.toMatch(/^hooks\/testing(\.js|\/|$)/);
      }
    }
  });

  it('comments cite only what is in the repository or upstream, never notes kept outside it', () => {
    const files = [...hooks, ...filesUnder('test'), ...filesUnder('examples'), ...filesUnder('bench')];
    for (const file of files) {
      expect(read(file), file).not.toMatch(/\b(FIDELITY|DESIGN|COMPOSITIONS|STYLE)\.md\b|\/work\/shared\b/);
    }
  });

  it("every parent has its namespace from the kit: no `?? 'default'` in hooks", () => {
    for (const file of hooks) expect(read(file), file).not.toContain("?? 'default'");
  });
});
