import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { approxBytes, DEFAULT_MEMO_BYTES, memoBytesHeld, setMemoBytes } from '../../hooks/kit/memo-budget.js';
import { memoOnSpec, specParser } from '../../hooks/kit/spec-memo.js';

afterEach(() => setMemoBytes(DEFAULT_MEMO_BYTES));

describe('approxBytes', () => {
  it('counts a string at every place it is reached, as the JSON texts kept for each child repeat it', () => {
    const notes = 'x'.repeat(250_000);
    const one = approxBytes({ metadata: { annotations: { notes } } });
    const five = approxBytes(Array.from({ length: 5 }, () => ({ metadata: { annotations: { notes } } })));
    expect(one).toBeGreaterThan(250_000);
    expect(five).toBeGreaterThan(5 * 250_000);
  });
});

describe('one byte budget for every memo (MODELHOOKS_MEMO_BYTES)', () => {
  const parse = specParser(z.object({ image: z.string() }));
  const spec = (image: string) => {
    const r = parse({ image });
    if (!r.success) throw new Error('expected a valid spec');
    return r.data;
  };

  it('a plan of a parent with 250 KB of annotations: the memo holds no more than the budget, whatever the count', () => {
    setMemoBytes(8 * 1024 * 1024);
    let calls = 0;
    // Five children sharing the parent's annotations, as a settled plan's do.
    const plan = memoOnSpec(
      (s: { image: string }, notes: string) => (calls++, Array.from({ length: 5 }, () => ({ image: s.image, annotations: { notes } }))),
      (notes) => notes.slice(0, 8),
      64,
      512,
    );
    const s = spec('img');
    for (let i = 0; i < 100; i++) plan(s, `${String(i).padStart(8, '0')}${'n'.repeat(100_000)}`);
    expect(calls).toBe(100);
    expect(memoBytesHeld()).toBeLessThanOrEqual(8 * 1024 * 1024);
    // The newest are still known: computed once.
    plan(s, `${'99'.padStart(8, '0')}${'n'.repeat(100_000)}`);
    expect(calls).toBe(100);
  });

  it('a value over a sixteenth of the budget is computed every time and never kept', () => {
    setMemoBytes(1024 * 1024);
    let calls = 0;
    const big = memoOnSpec(
      (_: { image: string }, s: string) => (calls++, { s, copy: `${s}!` }),
      (s) => s,
      256,
      1024,
    );
    const s = spec('big');
    const held = memoBytesHeld();
    const text = 'y'.repeat(40_000);
    big(s, text);
    big(s, text);
    expect(calls).toBe(2);
    expect(memoBytesHeld()).toBe(held);
  });

  it('when full, the memo holding the most starts over, not the small one', () => {
    setMemoBytes(1024 * 1024);
    let smallCalls = 0;
    const small = memoOnSpec(
      (_: { image: string }, k: string) => (smallCalls++, k.length),
      (k) => k,
    );
    const large = memoOnSpec(
      (_: { image: string }, k: string) => ({ k: `${k}:${'z'.repeat(30_000)}` }),
      (k) => k,
      100_000,
      100_000,
    );
    const s = spec('full');
    small(s, 'a');
    for (let i = 0; i < 100; i++) large(s, String(i));
    expect(memoBytesHeld()).toBeLessThanOrEqual(1024 * 1024);
    small(s, 'a');
    expect(smallCalls).toBe(1);
  });

  it('lowering the budget starts over whatever is over it', () => {
    const f = memoOnSpec(
      (_: { image: string }, k: string) => ({ k: `${k}${'w'.repeat(10_000)}` }),
      (k) => k,
      100,
      100,
    );
    const s = spec('lower');
    for (let i = 0; i < 50; i++) f(s, String(i));
    expect(memoBytesHeld()).toBeGreaterThan(500_000);
    setMemoBytes(100_000);
    expect(memoBytesHeld()).toBeLessThanOrEqual(100_000);
  });
});
