/**
 * Issue 10: a namespace full of regex metacharacters once blocked the event loop for 5 s,
 * because a regex was built from it. No code under hooks/ builds a regex at run time:
 * every pattern is a literal, so none is made from input (test/trustyai/modelmesh.test.ts
 * checks the payload-processor case by behaviour).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const served = (readdirSync(path.join(root, 'hooks'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));

describe('no regex is built at run time in hooks/', () => {
  it('finds the sources', () => expect(served.length).toBeGreaterThan(50));
  it('has no RegExp constructor call in any served source', () => {
    const offenders = served.filter((f) => /\bRegExp\s*\(/.test(readFileSync(path.join(root, 'hooks', f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
