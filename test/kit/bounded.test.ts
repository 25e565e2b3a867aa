import { describe, expect, it } from 'vitest';
import { cutTooDeep, MAX_DEPTH, readJsonText, readYamlText, tooDeepPath } from '../../hooks/kit/bounded.js';

/** `[[…[]…]]`, `n` arrays deep, parsed (V8's JSON.parse does not recurse). */
const nested = (n: number): unknown => JSON.parse(`${'['.repeat(n)}${']'.repeat(n)}`);

describe('tooDeepPath: depth measured without recursion', () => {
  it('finds nothing in a value within MAX_DEPTH levels, and names the first step past it', () => {
    expect(tooDeepPath({ a: nested(MAX_DEPTH - 1) })).toBeUndefined();
    expect(tooDeepPath({ a: [1, { b: nested(MAX_DEPTH) }] })).toBe('.a[1].b[0][0][0][0][0][0][0][0][0]…');
    expect(tooDeepPath({ a: { b: { c: 1 } } }, 2)).toBe('.a.b');
  });
  it('measures 10,000 levels (what the API server stores) and 100,000 without a RangeError', () => {
    expect(() => JSON.stringify(nested(10_000))).toThrow(RangeError);
    expect(tooDeepPath({ x: nested(10_000) })).toMatch(/^\.x\[0\]/);
    expect(tooDeepPath(nested(100_000))).toBeDefined();
  });
});

describe('cutTooDeep', () => {
  it('replaces what nests past the limit with null, in place, and says how many it cut', () => {
    const value = { a: { b: { c: { d: 1 } }, e: [{ f: 1 }] }, g: 1 };
    expect(cutTooDeep(value, 2)).toBe(2);
    expect(value).toEqual({ a: { b: null, e: null }, g: 1 });
  });
  it('leaves a value within the limit as it was, and makes a 10,000-deep one serialisable', () => {
    const shallow = { a: [{ b: 'c' }] };
    expect(cutTooDeep(shallow)).toBe(0);
    expect(shallow).toEqual({ a: [{ b: 'c' }] });
    const deep = { x: nested(10_000) };
    expect(cutTooDeep(deep)).toBe(1);
    expect(JSON.stringify(deep).length).toBeLessThan(4 * MAX_DEPTH);
  });
});

describe('readJsonText and readYamlText: texts inside tenants objects', () => {
  it('read what fits', () => {
    expect(readJsonText('{"a":[1,2]}')).toEqual({ value: { a: [1, 2] } });
    const yaml = readYamlText('a: &x [1, 2]\nb: *x\n');
    expect('value' in yaml && yaml.value).toEqual({ a: [1, 2], b: [1, 2] });
  });
  it('refuse 0.95 MiB of brackets at once, by its size (it exhausted a 384 MB heap in yaml)', () => {
    const text = `${'['.repeat(5e5)}${']'.repeat(5e5)}`;
    const started = performance.now();
    expect(readYamlText(text)).toEqual({ problem: 'is 1000000 bytes, more than the 131072 modelhooks reads' });
    expect(readJsonText(text)).toEqual({ problem: '1000000 bytes, more than the 131072 modelhooks reads' });
    expect(performance.now() - started).toBeLessThan(100);
  });
  it('count bytes, not characters: 50,000 three-byte characters are 150,000 bytes', () => {
    expect(readJsonText(JSON.stringify('€'.repeat(50_000)))).toEqual({ problem: '150002 bytes, more than the 131072 modelhooks reads' });
  });
  it('refuse depth before building a node: flow collections, blocks, and JSON', () => {
    expect(readYamlText(`${'['.repeat(20_000)}${']'.repeat(20_000)}`)).toEqual({ problem: 'nests flow collections deeper than 100 levels' });
    expect(readYamlText(`${'{a: '.repeat(101)}1${'}'.repeat(101)}`)).toEqual({ problem: 'nests flow collections deeper than 100 levels' });
    expect(readYamlText(`${'- '.repeat(60_000)}x`)).toEqual({ problem: 'nests blocks past column 256' });
    expect(readYamlText(Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}a:`).join('\n'))).toEqual({ problem: 'nests blocks past column 256' });
    expect(readJsonText(`${'['.repeat(5000)}${']'.repeat(5000)}`)).toEqual({
      problem: 'nested deeper than 100 levels (at [0][0][0][0][0][0][0][0][0][0][0][0]…)',
    });
  });
  it('brackets inside quotes and comments are not collections', () => {
    const text = `a: "${'['.repeat(200)}"\nb: '${'{'.repeat(200)}'\n# ${'['.repeat(200)}\n`;
    const read = readYamlText(text);
    expect('value' in read && read.value).toEqual({ a: '['.repeat(200), b: '{'.repeat(200) });
  });
  it('an alias bomb of 600 bytes is a problem, never a throw', () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const text = lines.join('\n');
    expect(text.length).toBeLessThan(600);
    expect(readYamlText(text)).toEqual({ problem: 'cannot be read as YAML (Excessive alias count indicates a resource exhaustion attack)' });
  });
  it('a YAML error is its first line', () => {
    expect(readYamlText('a: [1\n')).toMatchObject({ problem: expect.stringMatching(/^does not parse as YAML \([^\n]+\)$/) });
  });
});
