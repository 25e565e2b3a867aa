import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { imagesFrom, imagesOnlyConfig } from '../../hooks/kit/index.js';
import { configFor, configsFrom, imageVariable } from '../../hooks/kit/config.js';

const withPort = { name: 'a', config: z.looseObject({ A_PORT: z.coerce.number().int().default(80) }).transform((e) => ({ port: e.A_PORT })) };
const withImage = { name: 'b', config: imagesOnlyConfig({ 'b-server': 'b:1' }) };
const without = { name: 'c' };

describe('composition configuration', () => {
  it('configsFrom parses each composition that declares a config, by name', () => {
    expect(configsFrom([withPort, withImage, without], { A_PORT: '81' })).toEqual({
      configs: { a: { port: 81 }, b: { images: { 'b-server': 'b:1' } } },
      problems: [],
    });
  });
  it('configsFrom lists the problems of every composition, each naming its variable', () => {
    const other = { name: 'd', config: z.looseObject({ D_MODE: z.enum(['x', 'y']).default('x') }) };
    const out = configsFrom([withPort, other], { A_PORT: 'eighty', D_MODE: 'z' });
    expect(out.problems).toHaveLength(2);
    expect(out.problems[0]).toMatch(/^A_PORT: /);
    expect(out.problems[1]).toMatch(/^D_MODE: /);
  });
  it('configFor gives a composition its own configuration, or its defaults when none was given', () => {
    expect(configFor(withPort, { a: { port: 9 } })).toEqual({ port: 9 });
    expect(configFor(withPort, {})).toEqual({ port: 80 });
    expect(configFor(withPort, undefined)).toEqual({ port: 80 });
    expect(configFor(without, {})).toBeUndefined();
  });
  it('an image is overridden by MODELHOOKS_IMAGE_<KEY>; an empty value keeps the default', () => {
    expect(imageVariable('storage-initializer')).toBe('MODELHOOKS_IMAGE_STORAGE_INITIALIZER');
    expect(imagesFrom({ 'b-server': 'b:1' }, { MODELHOOKS_IMAGE_B_SERVER: 'mirror/b:2' })).toEqual({ 'b-server': 'mirror/b:2' });
    expect(imagesFrom({ 'b-server': 'b:1' }, { MODELHOOKS_IMAGE_B_SERVER: '' })).toEqual({ 'b-server': 'b:1' });
  });
});
