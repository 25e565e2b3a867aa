import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../e2e/support/files.js';
import { metacontrollerSrc, skipReason } from './support/skip.js';

// `npm run test:live` where it cannot run (a bare clone: no ../shared/metacontroller) says why
// and exits 0; it never needs Go, a cluster or the network to say so.
describe('the live tier skips plainly', () => {
  const empty = mkdtempSync(path.join(tmpdir(), 'modelhooks-live-skip-'));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));

  it('METACONTROLLER_SRC wins over ../shared/metacontroller', () => {
    expect(metacontrollerSrc({ METACONTROLLER_SRC: empty })).toBe(empty);
    expect(metacontrollerSrc({})).toBe(path.resolve(fromRoot(), '..', 'shared', 'metacontroller'));
  });

  it('no Metacontroller source: the reason names the directory and the variable', () => {
    expect(skipReason({ ...process.env, METACONTROLLER_SRC: empty })).toBe(
      `no Metacontroller source at ${empty} (set METACONTROLLER_SRC, or put its source in ../shared/metacontroller)`,
    );
  });

  it('no Go: the reason says so', () => {
    const src = mkdtempSync(path.join(empty, 'src-'));
    writeFileSync(path.join(src, 'go.mod'), 'module metacontroller\n');
    expect(skipReason({ METACONTROLLER_SRC: src, PATH: empty }, [])).toMatch(/^Go is not installed/);
  });

  it('npm run test:live prints the reason and exits 0', () => {
    const out = execFileSync(fromRoot('node_modules/.bin/tsx'), ['test/live/run.ts'], {
      cwd: fromRoot(),
      env: { ...process.env, METACONTROLLER_SRC: empty },
      encoding: 'utf8',
    });
    expect(out.trim()).toBe(`live tier skipped: no Metacontroller source at ${empty} (set METACONTROLLER_SRC, or put its source in ../shared/metacontroller)`);
  });
});
