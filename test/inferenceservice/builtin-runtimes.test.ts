import { describe, expect, it } from 'vitest';
import { INFERENCESERVICE_IMAGES } from '../../hooks/inferenceservice/config.js';
import { builtinRuntimes, kserveRuntimes } from '../../hooks/inferenceservice/runtime/kserve-runtimes.js';

// Every sync reads the shipped runtimes; they are built once per configuration and kept.
describe('the shipped runtimes, kept between syncs', () => {
  it('are the shipped set, the same object for the same images, another for other images', () => {
    const images = { ...INFERENCESERVICE_IMAGES };
    expect(builtinRuntimes(images)).toEqual(kserveRuntimes(images));
    expect(builtinRuntimes(images)).toBe(builtinRuntimes(images));
    const other = { ...INFERENCESERVICE_IMAGES, sklearnserver: 'example.com/sklearn:1' };
    expect(builtinRuntimes(other)).not.toBe(builtinRuntimes(images));
    expect(JSON.stringify(builtinRuntimes(other))).toContain('example.com/sklearn:1');
    expect(JSON.stringify(builtinRuntimes(images))).not.toContain('example.com/sklearn:1');
  });
  it('cannot be changed by a sync: a write to a kept runtime throws', () => {
    const [first] = builtinRuntimes({ ...INFERENCESERVICE_IMAGES });
    const container = first?.spec.containers?.[0] as { args?: string[]; resources?: { limits?: Record<string, string> } };
    expect(() => container.args?.push('--changed')).toThrow(TypeError);
    expect(() => {
      (container.resources?.limits as Record<string, string>).cpu = '99';
    }).toThrow(TypeError);
  });
});
