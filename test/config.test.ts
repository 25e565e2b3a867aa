import { describe, expect, it } from 'vitest';
import { IMAGE_DEFAULTS, loadConfig } from '../hooks/config.js';

describe('loadConfig', () => {
  it('has documented defaults', () => {
    const c = loadConfig({});
    expect([c.port, c.host, c.bodyLimit, c.logLevel, c.cacheEntries]).toEqual([8080, '', '16mb', 'info', 512]);
    expect(loadConfig({ MODELHOOKS_HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
    expect(c.hooks.images).toEqual(IMAGE_DEFAULTS);
    expect(c.hooks.gateway).toEqual({ namespace: 'kserve', name: 'kserve-ingress-gateway' });
  });
  it('overrides an image with MODELHOOKS_IMAGE_<KEY>', () => {
    const c = loadConfig({ MODELHOOKS_IMAGE_TRUSTYAI_SERVICE: 'registry.local/trustyai:1.0', MODELHOOKS_IMAGE_STORAGE_INITIALIZER: 'si:2' });
    expect(c.hooks.images['trustyai-service']).toBe('registry.local/trustyai:1.0');
    expect(c.hooks.images['storage-initializer']).toBe('si:2');
  });
  it('names the variable of an invalid value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/invalid configuration: PORT/);
    expect(() => loadConfig({ MODELHOOKS_GATEWAY: 'no-slash' })).toThrow(/MODELHOOKS_GATEWAY: namespace\/name of a Gateway/);
    expect(() => loadConfig({ MODELHOOKS_BODY_LIMIT: 'lots' })).toThrow(/MODELHOOKS_BODY_LIMIT/);
  });
});
