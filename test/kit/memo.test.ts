import { describe, expect, it } from 'vitest';
import { memoByString } from '../../hooks/kit/memo.js';

describe('memoByString', () => {
  const counting = (max?: number, maxLength?: number) => {
    const calls: string[] = [];
    const f = memoByString((s: string) => {
      calls.push(s);
      return { length: s.length, upper: s.toUpperCase() };
    }, max, maxLength);
    return { f, calls };
  };

  it('computes once per distinct text and answers an equal text (another string object) from the table', () => {
    const { f, calls } = counting();
    const a = f('name: "half"');
    const b = f(['name: ', '"half"'].join(''));
    expect(b).toBe(a);
    expect(calls).toEqual(['name: "half"']);
    expect(f('name: "halF"')).toEqual({ length: 12, upper: 'NAME: "HALF"' });
    expect(calls).toHaveLength(2);
  });

  it('hands out frozen values, so no caller can change what another one gets', () => {
    const { f } = counting();
    expect(Object.isFrozen(f('x'))).toBe(true);
  });

  it('computes a text longer than the limit every time and never keeps it', () => {
    const { f, calls } = counting(4, 8);
    f('123456789');
    f('123456789');
    expect(calls).toEqual(['123456789', '123456789']);
  });

  it('stays within its bound: a full table starts over, and answers stay right', () => {
    const { f, calls } = counting(2);
    expect(f('a').upper).toBe('A');
    expect(f('b').upper).toBe('B');
    expect(f('c').upper).toBe('C'); // the table was full: it starts over with c
    expect(f('a').upper).toBe('A'); // computed again
    expect(f('c').upper).toBe('C'); // still known
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });
});
