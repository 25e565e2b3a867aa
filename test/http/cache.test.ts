import { describe, expect, it } from 'vitest';
import { AnswerCache } from '../../hooks/server/cache.js';

const byLength = (_key: string, value: string) => value.length;

describe('AnswerCache', () => {
  it('evicts the least recently used entry beyond its entry count', () => {
    const cache = new AnswerCache<string>(2);
    cache.set('a', 'A');
    cache.set('b', 'B');
    expect(cache.get('a')).toBe('A'); // a is now the most recent
    cache.set('c', 'C');
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.size]).toEqual(['A', 'C', 2]);
  });

  it('evicts least recently used entries until its bytes fit', () => {
    const cache = new AnswerCache<string>(100, 100, byLength);
    cache.set('a', 'x'.repeat(10));
    cache.set('b', 'x'.repeat(10));
    cache.set('c', 'x'.repeat(10));
    cache.get('a');
    expect(cache.bytes).toBe(30);
    // 30 + 9 × 10 > 100: the two least recently used (b, then c) go.
    for (const key of ['d', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l']) cache.set(key, 'x'.repeat(10));
    expect(cache.bytes).toBe(100);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.size).toBe(10);
  });

  it('does not cache an entry larger than an eighth of its bytes, and keeps the others', () => {
    const cache = new AnswerCache<string>(100, 800, byLength);
    expect(cache.maxEntryBytes).toBe(100);
    expect(cache.set('small', 'x'.repeat(100))).toBe(true);
    expect(cache.set('big', 'x'.repeat(101))).toBe(false);
    expect([cache.get('big'), cache.get('small')?.length, cache.bytes]).toEqual([undefined, 100, 100]);
  });

  it('replacing a key counts its bytes once', () => {
    const cache = new AnswerCache<string>(10, 1000, byLength);
    cache.set('a', 'x'.repeat(50));
    cache.set('a', 'x'.repeat(20));
    expect([cache.size, cache.bytes]).toEqual([1, 20]);
    // A replacement too big to keep removes the old value too: it no longer answers that key.
    cache.set('a', 'x'.repeat(200));
    expect([cache.size, cache.bytes, cache.get('a')]).toEqual([0, 0, undefined]);
  });

  it('holds nothing with a capacity of 0', () => {
    const cache = new AnswerCache<string>(0, 1000, byLength);
    expect(cache.set('a', 'A')).toBe(false);
    expect(cache.get('a')).toBeUndefined();
  });
});
