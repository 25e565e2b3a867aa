// npm run bench:compare's pure parts: its options, and the per-round ratios it reports. No timing.
import { describe, expect, it } from 'vitest';
import { compareTable, median, parseCompareArgs, summary } from '../../bench/compare-report.js';

describe('bench:compare options', () => {
  it('needs the other checkout and defaults to the four cases of docs/development.md, 9 rounds', () => {
    expect(() => parseCompareArgs([])).toThrow(/--against DIR is required/);
    expect(parseCompareArgs(['--against', '/tmp/pre'])).toEqual({
      against: '/tmp/pre',
      only: ['mlmodel/serving', 'tfserv/three-models', 'trustyai/database', 'inferenceservice/hf-llm'],
      rounds: 9,
      durationS: 1.5,
      warmupS: 0.5,
      concurrency: 16,
      outDir: '.cache/bench-compare',
      json: false,
    });
    expect(parseCompareArgs(['--help'])).toBe('help');
  });

  it('takes cases, rounds and durations, and refuses what is out of range or unknown', () => {
    const o = parseCompareArgs(['--against', 'x', '--only', 'mlmodel, tfserv/three-models', '--rounds', '5', '--duration', '2', '--json']);
    expect(o).toMatchObject({ only: ['mlmodel', 'tfserv/three-models'], rounds: 5, durationS: 2, json: true });
    expect(() => parseCompareArgs(['--against', 'x', '--rounds', '0'])).toThrow(/--rounds must be a number from 1 to 31, got "0"/);
    expect(() => parseCompareArgs(['--against', 'x', '--concurrency', '1'])).toThrow(/--concurrency/);
    expect(() => parseCompareArgs(['--against', 'x', '--bogus'])).toThrow();
  });
});

describe('bench:compare figures', () => {
  it('the lower median, a real value for an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2);
    expect(() => median([])).toThrow();
  });

  it('the ratio is the median of the rounds’ ratios, not the ratio of the medians: a busy round that slowed both cancels out', () => {
    // Round 2 ran while the machine was busy: both sides 3× dearer; this side is 10 % dearer in every round.
    const s = summary({ this: [110, 330, 121, 99], that: [100, 300, 110, 90] });
    expect(s.ratio).toBeCloseTo(1.1, 10);
    expect([s.this, s.that]).toEqual([110, 100]);
    expect(() => summary({ this: [1], that: [] })).toThrow(/round counts/);
  });

  it('prints each case and path with both medians, the ratio and every round', () => {
    const text = compareTable([
      { name: 'mlmodel/serving', rounds: { identical: { this: [105, 96], that: [100, 80] }, notModified: { this: [90], that: [100] } } },
    ]);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^case\s+path\s+that µs\/req\s+this µs\/req\s+this ÷ that/);
    expect(lines[1]).toMatch(/^mlmodel\/serving\s+identical\s+80\s+96\s+1\.05×\s+105\/100 96\/80$/);
    expect(lines[2]).toMatch(/^mlmodel\/serving\s+304\s+100\s+90\s+0\.90×\s+90\/100$/);
  });
});
