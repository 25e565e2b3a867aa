// docs/configuration.md and docs/kit-api.md are generated (release/docs.ts, `npm run docs`):
// checked here to be current, as `npm run docs -- --check` does in CI.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configVariables } from '../hooks/server/config.js';
import { CONFIGURATION_PAGE, configurationPage, docsFiles, docsProblems, firstSentence, KIT_API_PAGE, kitExports } from '../release/docs.js';

const root = path.resolve(import.meta.dirname, '..');

describe('the generated pages of docs/', () => {
  it('are what their sources generate (`npm run docs -- --check`)', () => {
    expect(docsProblems(root, docsFiles(root))).toEqual([]);
  }, 120_000);

  it('configuration.md lists every variable `serve --help` lists, with its default (images in the images table)', () => {
    const page = configurationPage(root);
    const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const v of configVariables()) {
      // An image's row starts with its key: `| key | VARIABLE | default | run by |`.
      const row = v.name.startsWith('MODELHOOKS_IMAGE_') ? `^\\| \`[a-z-]+\` \\| \`${v.name}\` \\| ` : `^\\| \`${v.name}\` \\| `;
      expect(page, v.name).toMatch(new RegExp(`${row}[^|]*${escaped(v.default)}`, 'm'));
    }
  });

  it('kit-api.md lists every export of hooks/kit/index.ts, named as exported', async () => {
    const kit = await import('../hooks/kit/index.js');
    const listed = kitExports(root).map((e) => e.name);
    // Values are what the module exports at run time; types are in the list too.
    for (const name of Object.keys(kit)) expect(listed, name).toContain(name);
    const page = readFileSync(path.join(root, KIT_API_PAGE), 'utf8');
    for (const name of listed) expect(page, name).toMatch(new RegExp(`^\\| \`${name}[(\`]`, 'm'));
  }, 120_000);

  it('reads named exports as well as `export *`: kind, signature, first doc sentence, declaring file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kit-api-'));
    try {
      mkdirSync(path.join(dir, 'hooks/kit/status'), { recursive: true });
      const status = [
        '/** Ready, derived. More words. */',
        'export function readyFrom(others: string[], reason?: string): string { return others[0] ?? reason ?? ""; }',
        '/** A condition. */',
        'export interface Cond { type: string }',
        'export const hidden = 1;',
        '/** Arrow. */',
        'export const arrow = (a: number) => a;',
      ];
      writeFileSync(path.join(dir, 'hooks/kit/status/conditions.ts'), `${status.join('\n')}\n`);
      writeFileSync(path.join(dir, 'hooks/kit/index.ts'), "export { readyFrom, arrow, type Cond } from './status/conditions.js';\n");
      const listed = kitExports(dir).map(({ name, kind, signature, file, doc }) => ({ name, kind, signature, file, doc }));
      expect(listed.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
        { name: 'arrow', kind: 'function', signature: 'arrow(a)', file: 'kit/status/conditions.ts', doc: 'Arrow.' },
        { name: 'Cond', kind: 'interface', signature: 'Cond', file: 'kit/status/conditions.ts', doc: 'A condition.' },
        { name: 'readyFrom', kind: 'function', signature: 'readyFrom(others, reason?)', file: 'kit/status/conditions.ts', doc: 'Ready, derived.' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('reports a page that is stale or missing', () => {
    const files = new Map([
      [CONFIGURATION_PAGE, 'not what is committed'],
      ['docs/no-such-page.md', ''],
    ]);
    expect(docsProblems(root, files)).toEqual([`${CONFIGURATION_PAGE}: differs`, 'docs/no-such-page.md: missing']);
  });

  it('takes the first sentence of a doc comment, past abbreviations', () => {
    expect(firstSentence('The kit, e.g. `x`. Then more.\nLines.\n\nAnother paragraph.')).toBe('The kit, e.g. `x`.');
    expect(firstSentence('One line\nwrapped. `Code` starts the next.')).toBe('One line wrapped.');
    expect(firstSentence('')).toBe('');
  });
});
