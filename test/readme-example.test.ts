import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/writing-compositions.md shows examples/custom as it is: a block marked
// `README example: FILE` is the whole file, one marked `README excerpt: FILE` is pieces of it
// (separated by `// …` lines) in the file's order.
const root = path.resolve(import.meta.dirname, '..');
const readme = readFileSync(path.join(root, 'docs/writing-compositions.md'), 'utf8');
const marked = [...readme.matchAll(/<!-- README (example|excerpt): (\S+) -->\n```ts\n([^]*?)```\n/g)].map((m) => ({
  kind: m[1],
  file: m[2] as string,
  code: m[3] as string,
}));

describe('docs/writing-compositions.md: the custom composition example', () => {
  it('shows examples/custom/echo.ts whole and an excerpt of its test', () => {
    expect(marked.map((m) => `${m.kind} ${m.file}`)).toEqual(['example examples/custom/echo.ts', 'excerpt examples/custom/echo.test.ts']);
  });

  for (const block of marked) {
    it(`${block.kind} of ${block.file} matches the file`, () => {
      const text = readFileSync(path.join(root, block.file), 'utf8');
      if (block.kind === 'example') {
        expect(block.code).toBe(text);
        return;
      }
      let from = 0;
      for (const piece of block.code.split(/^\/\/ …\n/m)) {
        const at = text.indexOf(piece, from);
        expect(at, `this piece is not in ${block.file} (after offset ${from}):\n${piece}`).toBeGreaterThanOrEqual(0);
        from = at + piece.length;
      }
    });
  }

  it('imports only what a user has: modelhooks/kit, /testing, /server, zod and vitest', () => {
    const dir = path.join(root, 'examples/custom');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const sources = [...readFileSync(path.join(dir, file), 'utf8').matchAll(/^import [^]*? from '([^']+)';$/gm)].map((m) => m[1]);
      expect(sources.length, file).toBeGreaterThan(0);
      for (const source of sources) expect(source, file).toMatch(/^(modelhooks\/(kit|testing|server)|zod|vitest|\.\/.*\.js)$/);
    }
  });
});
