import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IMAGE_DEFAULTS, loadConfig, sizeInBytes } from '../hooks/config.js';

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

describe('server settings', () => {
  it('has documented defaults: bounded cache, drain, timeouts, connection cap, no TLS, no token', () => {
    const c = loadConfig({});
    expect(c.cacheBytes).toBe(64 * 1024 * 1024);
    expect([c.drainSeconds, c.requestTimeoutSeconds, c.headersTimeoutSeconds, c.keepAliveTimeoutSeconds, c.maxConnections]).toEqual([10, 30, 10, 95, 256]);
    expect([c.tls, c.tokenFile, c.metricsPort]).toEqual([undefined, undefined, 0]);
  });
  it('reads sizes in powers of 1024 and the TLS files', () => {
    expect(loadConfig({ MODELHOOKS_CACHE_BYTES: '512kb' }).cacheBytes).toBe(512 * 1024);
    expect(sizeInBytes('3')).toBe(3);
    expect(sizeInBytes('2GB')).toBe(2 * 1024 ** 3);
    const c = loadConfig({ MODELHOOKS_TLS_CERT_FILE: '/t/tls.crt', MODELHOOKS_TLS_KEY_FILE: '/t/tls.key', MODELHOOKS_CLIENT_CA_FILE: '/t/ca.crt', MODELHOOKS_METRICS_PORT: '9090', MODELHOOKS_TOKEN_FILE: '/t/token' });
    expect(c.tls).toEqual({ certFile: '/t/tls.crt', keyFile: '/t/tls.key', clientCaFile: '/t/ca.crt' });
    expect([c.tokenFile, c.metricsPort]).toEqual(['/t/token', 9090]);
  });
  it('refuses combinations that cannot work, naming the variables', () => {
    expect(() => loadConfig({ MODELHOOKS_TLS_CERT_FILE: '/t/tls.crt' })).toThrow(/MODELHOOKS_TLS_CERT_FILE and MODELHOOKS_TLS_KEY_FILE go together/);
    expect(() => loadConfig({ MODELHOOKS_CLIENT_CA_FILE: '/t/ca.crt', MODELHOOKS_METRICS_PORT: '9090' })).toThrow(/MODELHOOKS_CLIENT_CA_FILE needs MODELHOOKS_TLS_CERT_FILE/);
    expect(() => loadConfig({ MODELHOOKS_TLS_CERT_FILE: 'c', MODELHOOKS_TLS_KEY_FILE: 'k', MODELHOOKS_CLIENT_CA_FILE: 'ca' })).toThrow(/MODELHOOKS_CLIENT_CA_FILE needs MODELHOOKS_METRICS_PORT/);
    expect(() => loadConfig({ MODELHOOKS_METRICS_PORT: '8080' })).toThrow(/MODELHOOKS_METRICS_PORT must differ from PORT/);
    expect(() => loadConfig({ MODELHOOKS_HEADERS_TIMEOUT_SECONDS: '60' })).toThrow(/MODELHOOKS_HEADERS_TIMEOUT_SECONDS must not exceed/);
    expect(() => loadConfig({ MODELHOOKS_CACHE_BYTES: 'lots' })).toThrow(/MODELHOOKS_CACHE_BYTES/);
    expect(() => loadConfig({ MODELHOOKS_MAX_CONNECTIONS: '0' })).toThrow(/MODELHOOKS_MAX_CONNECTIONS/);
  });
});

describe('README', () => {
  it('documents every variable hooks/config.ts reads', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const source = readFileSync(path.join(root, 'hooks/config.ts'), 'utf8');
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const configuration = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## HTTP API'));
    const names = [...source.matchAll(/^\s+(PORT|MODELHOOKS_[A-Z0-9_]+): z\./gm)].map((m) => m[1] as string);
    expect(names).toContain('MODELHOOKS_TOKEN_FILE');
    for (const name of names) expect(configuration, name).toContain(`\`${name}\``);
  });
});
