import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentHash, shortHash } from '../../hooks/kit/index.js';
import { canonicalJson } from '../../hooks/kit/children/hash.js';

/**
 * The definition canonicalJson must keep (hashes of pod templates land in annotations such as
 * modelhooks.dev/spec-hash: a different text would roll out every Deployment on upgrade).
 */
function sortedReplacerJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      // A null prototype, so a "__proto__" key is copied as the data it is: a plain object's
      // setter would drop it and hash two different specs alike (fast-check found one).
      const sorted: Record<string, unknown> = Object.create(null);
      for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }
    return v;
  });
}

/** Strings with what JSON escapes: quotes, backslashes, control characters, surrogates (paired and lone). */
const nastyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '0',
    '7',
    '10',
    '01',
    '4294967294',
    '4294967295',
    '-1',
    '1.5',
    '"',
    '\\',
    '\u0000',
    '\n',
    '\u001f',
    '\u007f',
    '\u2028',
    '\ud83d\ude00',
    '\ud800',
    '\udfff',
    'a\ud800b',
    'é',
  ),
);
const value = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: 'small' },
    nastyString,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.date({ noInvalidDate: true }),
    fc.array(tie('any')),
    fc.dictionary(nastyString, tie('any')),
  ),
})).any;

describe('hash', () => {
  it('does not depend on key order', () => {
    expect(contentHash({ a: 1, b: { c: 2, d: [1, 2] } })).toBe(contentHash({ b: { d: [1, 2], c: 2 }, a: 1 }));
  });
  it('depends on array order and on values', () => {
    expect(contentHash([1, 2])).not.toBe(contentHash([2, 1]));
    expect(shortHash('gs://a')).not.toBe(shortHash('gs://b'));
  });
  it('shortHash is hex of the asked length', () => {
    expect(shortHash('x', 8)).toMatch(/^[0-9a-f]{8}$/);
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });
  it('is the text of JSON.stringify with a key-sorting replacer, for any JSON-like value', () => {
    fc.assert(
      fc.property(value, (v) => {
        if (v === undefined) return;
        expect(canonicalJson(v)).toBe(sortedReplacerJson(v));
      }),
      { numRuns: 3000 },
    );
  });
  it('keeps a "__proto__" key, as JSON.parse gives it', () => {
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1},"b":1}');
  });
  it('leaves out undefined and functions in objects, writes null for them in arrays and for non-finite numbers', () => {
    const v = {
      b: undefined,
      a: [undefined, () => 1, Number.NaN, -0, Number.POSITIVE_INFINITY],
      c: () => 1,
      d: new Date(0),
      e: { toJSON: (k: string) => `key ${k}` },
    };
    expect(canonicalJson(v)).toBe(sortedReplacerJson(v));
    expect(canonicalJson(v)).toBe('{"a":[null,null,null,0,null],"d":"1970-01-01T00:00:00.000Z","e":"key e"}');
  });
});
