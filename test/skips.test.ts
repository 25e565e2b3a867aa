import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFilesUnder } from './support/source-files.js';

// `npm test` never skips in silence (issue 33): every conditional skip of the unit tier names its
// reason in the suite's title and prints it on stderr when it skips.
const root = path.resolve(import.meta.dirname, '..');

describe('skipped tests say why', () => {
  const files = [...sourceFilesUnder('test'), ...sourceFilesUnder('examples')].filter(
    (f) => /\.test\.ts$/.test(f) && !f.startsWith('test/e2e/') && !f.startsWith('test/live/') && f !== 'test/skips.test.ts',
  );
  const withSkips = files.filter((f) => /\.(skipIf|runIf)\(|\bit\.skip\(|\bdescribe\.skip\(|\.todo\(/.test(readFileSync(path.join(root, f), 'utf8')));

  it('finds the conditional skips (the kustomize checks of test/deploy)', () => {
    expect(withSkips).toEqual(['test/deploy/deploy.test.ts']);
  });

  it.each(withSkips)('%s: no unconditional skip; each skipIf prints its reason and puts it in the title', (file) => {
    const source = readFileSync(path.join(root, file), 'utf8');
    expect(source).not.toMatch(/\bit\.skip\(|\bdescribe\.skip\(|\.todo\(/);
    const skips = [...source.matchAll(/\.skipIf\((\w+) !== undefined\)\(\s*`[^`]*\$\{(\w+) \? ` \(skipped: \$\{(\w+)\}\)` : ''\}`/g)];
    expect(skips.length, "describe.skipIf(reason !== undefined)(`title${reason ? ` (skipped: ${reason})` : ''}`)").toBe(
      (source.match(/\.skipIf\(/g) ?? []).length,
    );
    for (const [, reason] of skips) expect(source).toContain(`if (${reason}) process.stderr.write(`);
  });
});
