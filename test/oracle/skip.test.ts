import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { skipReason } from './support/skip.js';

// `npm run test:oracle` where Go is missing says why and exits 0 (test/oracle/run.ts); unlike
// the live tier it needs no Metacontroller source (test/live/build.sh no-metacontroller).
describe('the oracle tier skips plainly', () => {
  const empty = mkdtempSync(path.join(tmpdir(), 'modelhooks-oracle-skip-'));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));

  it('no Go: the reason says so, and names what Go builds', () => {
    expect(skipReason({ PATH: empty }, [])).toBe(
      "Go is not installed (need Go >= 1.26 on PATH or in /usr/local/go/bin) to build kube-apiserver, kube-controller-manager and KServe's manager",
    );
  });

  it('does not ask for Metacontroller’s source', () => {
    expect(skipReason({ ...process.env, METACONTROLLER_SRC: empty }) ?? '').not.toMatch(/Metacontroller/);
  });
});
