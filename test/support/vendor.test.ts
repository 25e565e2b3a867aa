import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, vendorDir } from './reference.js';

/** The id `git hash-object` prints: what SOURCES.md records of each upstream file. */
function gitBlobId(file: string): string {
  const bytes = readFileSync(file);
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describe('test/vendor', () => {
  const sources = readFileSync(path.join(vendorDir(), 'SOURCES.md'), 'utf8');
  const rows = new Map(
    sources
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| file') && !l.startsWith('| ---'))
      .map((l) => {
        const cells = l.split('|').map((c) => c.trim());
        return [cells[1], cells.at(-2)] as const;
      }),
  );

  it.each(filesUnder(vendorDir()).filter((f) => f !== 'SOURCES.md'))('%s is the upstream blob SOURCES.md names', (file) => {
    expect(rows.get(file), `${file} has no row in test/vendor/SOURCES.md`).toBeDefined();
    expect(gitBlobId(path.join(vendorDir(), file))).toBe(rows.get(file));
  });

  it('lists no file that is not there', () => {
    const present = new Set(filesUnder(vendorDir()));
    expect([...rows.keys()].filter((f) => f && !present.has(f))).toEqual([]);
  });

  it('is what the tests read: nothing reads a directory beside the repository (but the live tier, which says when it skips)', () => {
    // Spelled in parts so that this file does not match itself.
    const beside = ['..', '/shared'].join('');
    const envVar = ['MODELHOOKS', 'REFERENCE'].join('_');
    const places = ['test', 'hooks', 'examples', 'bench', '.ci', 'vitest.config.ts', 'package.json'];
    const offenders = places
      .flatMap((p) => {
        const full = path.join(repoRoot(), p);
        return p.includes('.') && !p.startsWith('.') ? [full] : filesUnder(full).map((f) => path.join(full, f));
      })
      .filter((f) => !f.includes(`${path.sep}vendor${path.sep}`) && !f.includes(`${path.sep}fixtures${path.sep}`))
      .filter((f) => /\.(ts|json|sh|ya?ml|md)$|\/run$/.test(f))
      .filter((f) => readFileSync(f, 'utf8').includes(beside) || readFileSync(f, 'utf8').includes(envVar));
    // The one exception (docs/development.md, Live tier): Metacontroller's source is built from beside the
    // clone, or skipped with a word; npm test never needs it (test/live/skip.test.ts).
    const liveTier = ['.ci/run', 'test/live/build.sh', 'test/live/skip.test.ts', 'test/live/support/skip.ts'];
    expect(offenders.map((f) => path.relative(repoRoot(), f)).filter((f) => !liveTier.includes(f))).toEqual([]);
  });

  it('ships the Kubernetes OpenAPI documents with the package, for modelhooks/testing', () => {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toEqual(expect.arrayContaining(['test/vendor/kubernetes', 'test/vendor/SOURCES.md']));
  });
});
