import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deepFreeze, memoOnSpec, specParser } from '../../hooks/kit/spec-memo.js';

const schema = z.object({ image: z.string(), ports: z.array(z.object({ port: z.number().default(8080) })).default([]) });

describe('specParser', () => {
  it('parses a spec it has seen once, and gives the same result for the same text again', () => {
    let calls = 0;
    const counted = z.unknown().transform((v) => {
      calls++;
      return schema.parse(v);
    });
    const parse = specParser(counted);
    const a = parse({ image: 'x', ports: [{}] });
    const b = parse({ image: 'x', ports: [{}] });
    expect(a.success && a.data).toEqual({ image: 'x', ports: [{ port: 8080 }] });
    expect(b).toBe(a);
    expect(calls).toBe(1);
    parse({ image: 'y' });
    expect(calls).toBe(2);
  });

  it('freezes the result all the way down, so a sync cannot change what the next one reads', () => {
    const parse = specParser(schema);
    const r = parse({ image: 'x', ports: [{ port: 1 }] });
    if (!r.success) throw new Error('expected a valid spec');
    expect(Object.isFrozen(r.data)).toBe(true);
    expect(Object.isFrozen(r.data.ports)).toBe(true);
    expect(Object.isFrozen(r.data.ports[0])).toBe(true);
    expect(() => {
      (r.data.ports as Array<{ port: number }>).push({ port: 2 });
    }).toThrow(TypeError);
  });

  it('shares nothing with the request: changing the request afterwards changes no remembered spec', () => {
    const parse = specParser(z.object({ args: z.array(z.string()) }).passthrough());
    const sent = { args: ['--a'], extra: { nested: 1 } };
    const r = parse(sent);
    sent.args.push('--b');
    sent.extra.nested = 2;
    expect(Object.isFrozen(sent.args)).toBe(false);
    expect(r.success && r.data).toEqual({ args: ['--a'], extra: { nested: 1 } });
  });

  it('gives equal text equal results only: another spec, even by one character, is parsed on its own', () => {
    const parse = specParser(schema);
    expect(parse({ image: 'x' })).not.toBe(parse({ image: 'X' }));
    const invalid = parse({ image: 1 });
    expect(invalid.success).toBe(false);
    expect(parse({ image: 1 })).toBe(invalid);
  });

  it('is bounded: it starts over after `max` specs or `maxChars` of text, and never keeps a spec longer than `maxChars` / 16', () => {
    let calls = 0;
    const counted = z.unknown().transform((v) => (calls++, v));
    const parse = specParser(counted, 2, 16 * 20);
    parse({ a: 1 });
    parse({ a: 2 });
    parse({ a: 3 }); // the table was full: it starts over with this one
    parse({ a: 1 });
    expect(calls).toBe(4);
    const long = { text: 'x'.repeat(20) }; // 31 characters of JSON: over 320 / 16
    parse(long);
    parse(long);
    expect(calls).toBe(6);

    let byChars = 0;
    const bySize = specParser(
      z.unknown().transform((v) => (byChars++, v)),
      100,
      16 * 10,
    );
    const nine = (c: string) => ({ k: c }); // {"k":"a"} is 9 characters
    for (const c of 'abcdefghijklmnopq') bySize(nine(c)); // 17 × 9 = 153 characters: all kept
    bySize(nine('a'));
    expect(byChars).toBe(17);
    bySize(nine('r')); // 162 > 160: it starts over
    bySize(nine('a'));
    expect(byChars).toBe(19);
  });
});

describe('memoOnSpec', () => {
  const parse = specParser(schema);
  const parsed = (image: string) => {
    const r = parse({ image });
    if (!r.success) throw new Error('expected a valid spec');
    return r.data;
  };

  it('computes once per parsed spec and key text, and freezes what it keeps', () => {
    const seen: string[] = [];
    const f = memoOnSpec(
      (spec: { image: string }, a: { tag: string }) => (seen.push(`${spec.image}:${a.tag}`), { ref: `${spec.image}:${a.tag}` }),
      (a) => a.tag,
    );
    const spec = parsed('x');
    const first = f(spec, { tag: '1' });
    expect(f(spec, { tag: '1' })).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(f(spec, { tag: '2' })).toEqual({ ref: 'x:2' });
    expect(f(parsed('y'), { tag: '1' })).toEqual({ ref: 'y:1' });
    expect(seen).toEqual(['x:1', 'x:2', 'y:1']);
  });

  it("computes every time for a spec the kit did not parse (a test's, a canary's), even a frozen one", () => {
    let calls = 0;
    const f = memoOnSpec(
      (spec: { image: string }) => (calls++, spec.image),
      () => '',
    );
    const own = Object.freeze({ image: 'x' });
    f(own, undefined);
    f(own, undefined);
    expect(calls).toBe(2);
  });

  it('keeps at most `perSpec` answers for one spec', () => {
    let calls = 0;
    const f = memoOnSpec((_spec: object, n: number) => (calls++, n), String, 2);
    const spec = parsed('z');
    for (const n of [1, 2, 3, 1]) f(spec, n);
    expect(calls).toBe(4);
  });

  it('keeps at most `total` answers in all, whatever the specs', () => {
    let calls = 0;
    const f = memoOnSpec((_spec: object, n: number) => (calls++, n), String, 8, 3);
    const [a, b] = [parsed('t1'), parsed('t2')];
    for (const [spec, n] of [
      [a, 1],
      [b, 1],
      [a, 2],
    ] as const)
      f(spec, n);
    expect(calls).toBe(3);
    // All three are kept: asked again, none is computed.
    for (const [spec, n] of [
      [a, 1],
      [b, 1],
      [a, 2],
    ] as const)
      f(spec, n);
    expect(calls).toBe(3);
    // A fourth starts over: the first three are computed again when next asked.
    f(b, 2);
    f(a, 1);
    expect(calls).toBe(5);
  });

  it("counts a spec's answers out when its own table starts over", () => {
    let calls = 0;
    const f = memoOnSpec((_spec: object, n: number) => (calls++, n), String, 2, 3);
    const [a, b] = [parsed('u1'), parsed('u2')];
    // a: 1, 2, then 3 starts a's table over (a keeps 3 alone): two answers are kept in all.
    for (const n of [1, 2, 3]) f(a, n);
    f(b, 1);
    expect(calls).toBe(4);
    f(a, 3);
    f(b, 1);
    expect(calls).toBe(4);
  });
});

describe('deepFreeze', () => {
  it('freezes nested objects and arrays and leaves primitives alone', () => {
    const v = deepFreeze({ a: [{ b: 1 }], c: 'd' });
    expect(Object.isFrozen(v.a[0])).toBe(true);
    expect(deepFreeze(3)).toBe(3);
    expect(deepFreeze(null)).toBe(null);
  });
});
