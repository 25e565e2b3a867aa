import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash, shortHash } from '../../hooks/kit/index.js';

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
});
