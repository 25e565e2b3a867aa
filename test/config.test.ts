import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inflightBytes, loadConfig, sizeInBytes, type ServerConfig } from '../hooks/server/config.js';
import { builtinCompositions } from '../hooks/compositions.js';
import { ConfigError } from '../hooks/server/errors.js';
import { INFERENCESERVICE_IMAGES } from '../hooks/inferenceservice/config.js';
import { imageVariable } from '../hooks/kit/config.js';
import { MLMODEL_IMAGES } from '../hooks/mlmodel/config.js';
import { TFSERV_IMAGES } from '../hooks/tfserv/config.js';
import { TRUSTYAI_IMAGES } from '../hooks/trustyai/config.js';

/** Every variable, its documented default, a valid other value, and where each lands. */
const variables: Array<{
  name: string;
  unset: unknown;
  set: string;
  want: unknown;
  read: (c: ServerConfig) => unknown /** Variables set with this one: it is refused alone. */;
  with?: Record<string, string>;
}> = [
  { name: 'PORT', unset: 8080, set: '9090', want: 9090, read: (c) => c.port },
  { name: 'MODELHOOKS_HOST', unset: '', set: '127.0.0.1', want: '127.0.0.1', read: (c) => c.host },
  { name: 'MODELHOOKS_BODY_LIMIT', unset: '16mb', set: '2mb', want: '2mb', read: (c) => c.bodyLimit },
  { name: 'MODELHOOKS_LOG_LEVEL', unset: 'info', set: 'debug', want: 'debug', read: (c) => c.logLevel },
  { name: 'MODELHOOKS_CACHE_ENTRIES', unset: 65536, set: '0', want: 0, read: (c) => c.cacheEntries },
  { name: 'MODELHOOKS_SHUTDOWN_TIMEOUT_SECONDS', unset: 25, set: '5', want: 5, read: (c) => c.shutdownTimeoutSeconds },
  { name: 'MODELHOOKS_INGRESS_DOMAIN', unset: 'example.com', set: 'ml.corp', want: 'ml.corp', read: (c) => c.hooks.inferenceservice.ingress.domain },
  { name: 'MODELHOOKS_INGRESS_CLASS', unset: '', set: 'nginx', want: 'nginx', read: (c) => c.hooks.inferenceservice.ingress.className },
  {
    name: 'MODELHOOKS_DOMAIN_TEMPLATE',
    unset: '{{name}}-{{namespace}}.{{domain}}',
    set: '{{name}}.{{domain}}',
    want: '{{name}}.{{domain}}',
    read: (c) => c.hooks.inferenceservice.ingress.domainTemplate,
  },
  { name: 'MODELHOOKS_URL_SCHEME', unset: 'http', set: 'https', want: 'https', read: (c) => c.hooks.inferenceservice.ingress.urlScheme },
  {
    name: 'MODELHOOKS_GATEWAY',
    unset: { namespace: 'kserve', name: 'kserve-ingress-gateway' },
    set: 'istio-system/main',
    want: { namespace: 'istio-system', name: 'main' },
    read: (c) => c.hooks.inferenceservice.gateway,
  },
  // `namespace`: the Namespace's pod-security.kubernetes.io/enforce label decides (engine/namespace-settings.ts), as KServe adds no security field.
  { name: 'MODELHOOKS_POD_SECURITY', unset: 'namespace', set: 'baseline', want: 'baseline', read: (c) => c.hooks.inferenceservice.podSecurity },
  { name: 'MODELHOOKS_MODEL_READINESS', unset: false, set: 'true', want: true, read: (c) => c.hooks.inferenceservice.modelReadiness },
  { name: 'MODELHOOKS_POD_INJECTION', unset: 'template', set: 'webhook', want: 'webhook', read: (c) => c.hooks.inferenceservice.podInjection },
  {
    name: 'MODELHOOKS_LOGGER_DEFAULT_URL',
    unset: 'http://default-broker',
    set: 'http://b.ml',
    want: 'http://b.ml',
    read: (c) => c.hooks.inferenceservice.logger.defaultUrl,
  },
  { name: 'MODELHOOKS_LOGGER_CA_BUNDLE', unset: '', set: 'ca', want: 'ca', read: (c) => c.hooks.inferenceservice.logger.caBundle },
  { name: 'MODELHOOKS_LOGGER_CA_CERT_FILE', unset: '', set: 'ca.crt', want: 'ca.crt', read: (c) => c.hooks.inferenceservice.logger.caCertFile },
  { name: 'MODELHOOKS_LOGGER_TLS_SKIP_VERIFY', unset: false, set: 'true', want: true, read: (c) => c.hooks.inferenceservice.logger.tlsSkipVerify },
  { name: 'MODELHOOKS_KSERVE_NAMESPACE', unset: 'kserve', set: 'platform', want: 'platform', read: (c) => c.hooks.inferenceservice.kserveNamespace },
  {
    name: 'MODELHOOKS_NAMESPACE_SELECTOR',
    unset: { text: '', requirements: [] },
    set: 'modelhooks.dev/enabled=true',
    want: { text: 'modelhooks.dev/enabled=true', requirements: [{ key: 'modelhooks.dev/enabled', op: 'in', values: ['true'] }] },
    read: (c) => c.namespaceSelector,
  },
  { name: 'MODELHOOKS_CACHE_BYTES', unset: 64 * 1024 * 1024, set: '1mb', want: 1024 * 1024, read: (c) => c.cacheBytes },
  { name: 'MODELHOOKS_MEMO_BYTES', unset: 48 * 1024 * 1024, set: '2mb', want: 2 * 1024 * 1024, read: (c) => c.memoBytes },
  { name: 'MODELHOOKS_DRAIN_SECONDS', unset: 10, set: '0', want: 0, read: (c) => c.drainSeconds },
  { name: 'MODELHOOKS_REQUEST_TIMEOUT_SECONDS', unset: 30, set: '45', want: 45, read: (c) => c.requestTimeoutSeconds },
  { name: 'MODELHOOKS_HEADERS_TIMEOUT_SECONDS', unset: 10, set: '5', want: 5, read: (c) => c.headersTimeoutSeconds },
  { name: 'MODELHOOKS_KEEPALIVE_TIMEOUT_SECONDS', unset: 95, set: '65', want: 65, read: (c) => c.keepAliveTimeoutSeconds },
  { name: 'MODELHOOKS_MAX_CONNECTIONS', unset: 256, set: '32', want: 32, read: (c) => c.maxConnections },
  { name: 'MODELHOOKS_MAX_PENDING_CONNECTIONS', unset: 64, set: '8', want: 8, read: (c) => c.maxPendingConnections },
  { name: 'MODELHOOKS_HANDSHAKE_TIMEOUT_SECONDS', unset: 5, set: '2', want: 2, read: (c) => c.handshakeTimeoutSeconds },
  // 0: an eighth of the heap limit, at least the body limit (config.ts inflightBytes).
  { name: 'MODELHOOKS_INFLIGHT_BYTES', unset: inflightBytes('0', 16 * 1024 * 1024), set: '100mb', want: 100 * 1024 * 1024, read: (c) => c.inflightBytes },
  { name: 'MODELHOOKS_MIN_DATA_RATE', unset: 64 * 1024, set: '1mb', want: 1024 * 1024, read: (c) => c.minDataRate },
  { name: 'MODELHOOKS_COMPUTE_WORKERS', unset: 1, set: '0', want: 0, read: (c) => c.computeWorkers },
  { name: 'MODELHOOKS_NAMESPACE_QUEUE', unset: 32, set: '4', want: 4, read: (c) => c.namespaceQueue },
  { name: 'MODELHOOKS_TOKEN_FILE', unset: undefined, set: '/t/token', want: '/t/token', read: (c) => c.tokenFile },
  { name: 'MODELHOOKS_METRICS_PORT', unset: 0, set: '9090', want: 9090, read: (c) => c.metricsPort },
  // The certificate and its key go together: each is set with the other.
  {
    name: 'MODELHOOKS_TLS_CERT_FILE',
    unset: undefined,
    set: '/t/tls.crt',
    want: '/t/tls.crt',
    read: (c) => c.tls?.certFile,
    with: { MODELHOOKS_TLS_KEY_FILE: '/t/tls.key' },
  },
  {
    name: 'MODELHOOKS_TLS_KEY_FILE',
    unset: undefined,
    set: '/t/tls.key',
    want: '/t/tls.key',
    read: (c) => c.tls?.keyFile,
    with: { MODELHOOKS_TLS_CERT_FILE: '/t/tls.crt' },
  },
  {
    name: 'MODELHOOKS_CLIENT_CA_FILE',
    unset: undefined,
    set: '/t/ca.crt',
    want: '/t/ca.crt',
    read: (c) => c.tls?.clientCaFile,
    with: { MODELHOOKS_TLS_CERT_FILE: '/t/tls.crt', MODELHOOKS_TLS_KEY_FILE: '/t/tls.key', MODELHOOKS_METRICS_PORT: '9090' },
  },
  {
    name: 'MODELHOOKS_WEBHOOK_PORT',
    unset: 0,
    set: '9443',
    want: 9443,
    read: (c) => c.webhookPort,
    with: { MODELHOOKS_TLS_CERT_FILE: '/t/tls.crt', MODELHOOKS_TLS_KEY_FILE: '/t/tls.key' },
  },
  { name: 'MODELHOOKS_MODELMESH_NAMESPACE', unset: 'modelmesh-serving', set: 'mm', want: 'mm', read: (c) => c.hooks.trustyai.modelMeshNamespace },
  // Read by the CLI before loadConfig (which compositions to serve: cli/load-compositions.ts, test/cli-first-contact.test.ts).
  { name: 'MODELHOOKS_COMPOSITIONS_DIR', unset: '', set: '/compositions', want: '/compositions', read: (c) => c.compositionsDir },
  {
    name: 'MODELHOOKS_TRUSTYAI_CERT_ISSUER',
    unset: undefined,
    set: 'ClusterIssuer/ca',
    want: { kind: 'ClusterIssuer', name: 'ca' },
    read: (c) => c.hooks.trustyai.certIssuer,
  },
];

const invalid: Array<{ name: string; value: string; message: RegExp }> = [
  { name: 'PORT', value: 'eighty', message: /invalid configuration: PORT/ },
  { name: 'PORT', value: '70000', message: /PORT/ },
  { name: 'MODELHOOKS_BODY_LIMIT', value: 'lots', message: /MODELHOOKS_BODY_LIMIT: a size such as 16mb/ },
  { name: 'MODELHOOKS_LOG_LEVEL', value: 'loud', message: /MODELHOOKS_LOG_LEVEL/ },
  { name: 'MODELHOOKS_CACHE_ENTRIES', value: '-1', message: /MODELHOOKS_CACHE_ENTRIES/ },
  { name: 'MODELHOOKS_SHUTDOWN_TIMEOUT_SECONDS', value: 'soon', message: /MODELHOOKS_SHUTDOWN_TIMEOUT_SECONDS/ },
  { name: 'MODELHOOKS_URL_SCHEME', value: 'ftp', message: /MODELHOOKS_URL_SCHEME/ },
  { name: 'MODELHOOKS_POD_SECURITY', value: 'lenient', message: /invalid configuration: MODELHOOKS_POD_SECURITY/ },
  { name: 'MODELHOOKS_GATEWAY', value: 'no-slash', message: /invalid configuration: MODELHOOKS_GATEWAY: namespace\/name of a Gateway/ },
  // Both parts are DNS-1123 labels, as the namespace annotation's gateway is checked (kit/names.ts).
  { name: 'MODELHOOKS_GATEWAY', value: '-istio/gw', message: /MODELHOOKS_GATEWAY: namespace\/name of a Gateway/ },
  { name: 'MODELHOOKS_MODELMESH_NAMESPACE', value: 'Not_A_Namespace', message: /MODELHOOKS_MODELMESH_NAMESPACE: a namespace name/ },
  { name: 'MODELHOOKS_LOGGER_TLS_SKIP_VERIFY', value: 'yes', message: /invalid configuration: MODELHOOKS_LOGGER_TLS_SKIP_VERIFY/ },
  { name: 'MODELHOOKS_NAMESPACE_SELECTOR', value: 'team in (a,b', message: /invalid configuration: MODELHOOKS_NAMESPACE_SELECTOR: .*unbalanced parentheses/ },
  { name: 'MODELHOOKS_NAMESPACE_SELECTOR', value: 'Bad Key=1', message: /MODELHOOKS_NAMESPACE_SELECTOR: .*not a valid label key/ },
];

describe('loadConfig', () => {
  for (const v of variables) {
    it(`${v.name}: defaults to ${JSON.stringify(v.unset)} and is read when set`, () => {
      expect(v.read(loadConfig({}))).toEqual(v.unset);
      expect(v.read(loadConfig({ ...v.with, [v.name]: v.set }))).toEqual(v.want);
    });
  }
  for (const v of invalid) {
    it(`${v.name}=${v.value} is refused with a message naming the variable`, () => {
      expect(() => loadConfig({ [v.name]: v.value })).toThrow(v.message);
    });
  }
  it('every variable the code reads is in the table above (images: in the image tests below)', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const sources = (dir: string): string[] =>
      readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory()
          ? e.name === 'testing'
            ? []
            : sources(path.join(dir, e.name))
          : e.name.endsWith('.ts')
            ? [readFileSync(path.join(root, dir, e.name), 'utf8')]
            : [],
      );
    const read = new Set(sources('hooks').flatMap((text) => [...text.matchAll(/\bMODELHOOKS_(?!IMAGE_)[A-Z0-9_]+/g)].map((m) => m[0])));
    expect(read.size).toBeGreaterThan(25);
    expect([...read].filter((name) => !variables.some((v) => v.name === name)).sort()).toEqual([]);
  });
  it('refuses with a ConfigError, which the command line tells apart by type, not by text', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ MODELHOOKS_GATEWAY: 'no-slash' })).toThrow(ConfigError);
  });
  it('lists every invalid variable at once, the server and the compositions alike', () => {
    expect(() => loadConfig({ PORT: 'eighty', MODELHOOKS_GATEWAY: 'no-slash' })).toThrow(/PORT: .*; MODELHOOKS_GATEWAY: /);
  });
  it('gives every built-in composition its configuration', () => {
    expect(Object.keys(loadConfig({}).hooks).sort()).toEqual(builtinCompositions.map((c) => c.name).sort());
  });
});

describe('images', () => {
  const byComposition = {
    trustyai: TRUSTYAI_IMAGES,
    tfserv: TFSERV_IMAGES,
    mlmodel: MLMODEL_IMAGES,
    inferenceservice: INFERENCESERVICE_IMAGES,
  } as const;
  for (const [composition, defaults] of Object.entries(byComposition)) {
    for (const [key, image] of Object.entries(defaults)) {
      it(`${composition} ${key}: ${image} unless ${imageVariable(key)} says otherwise`, () => {
        const images = (c: ServerConfig) => (c.hooks[composition as keyof typeof byComposition] as { images: Record<string, string> }).images;
        expect(images(loadConfig({}))[key]).toBe(image);
        expect(images(loadConfig({ [imageVariable(key)]: 'registry.local/x:1' }))[key]).toBe('registry.local/x:1');
        expect(images(loadConfig({ [imageVariable(key)]: '' }))[key]).toBe(image);
      });
    }
  }
  it('one variable sets an image two compositions share', () => {
    const c = loadConfig({ MODELHOOKS_IMAGE_TENSORFLOW_SERVING: 'mirror.local/tfs:1' });
    expect([c.hooks.tfserv.images['tensorflow-serving'], c.hooks.mlmodel.images['tensorflow-serving']]).toEqual(['mirror.local/tfs:1', 'mirror.local/tfs:1']);
  });
});

describe('the configuration tables of docs/configuration.md', () => {
  const readme = readFileSync(new URL('../docs/configuration.md', import.meta.url), 'utf8');
  it('list every variable with its default', () => {
    // One row per variable, or one for two that go together (`MODELHOOKS_TLS_CERT_FILE`, `MODELHOOKS_TLS_KEY_FILE`).
    for (const v of variables) expect(readme, v.name).toMatch(new RegExp(`^\\| [^|]*\`${v.name}\`[^|]* \\| `, 'm'));
  });
  it('list every image with its variable and default', () => {
    const all = { ...TRUSTYAI_IMAGES, ...TFSERV_IMAGES, ...MLMODEL_IMAGES, ...INFERENCESERVICE_IMAGES };
    for (const [key, image] of Object.entries(all)) expect(readme).toContain(`| \`${key}\` | \`${imageVariable(key)}\` | \`${image}\` |`);
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
    const c = loadConfig({
      MODELHOOKS_TLS_CERT_FILE: '/t/tls.crt',
      MODELHOOKS_TLS_KEY_FILE: '/t/tls.key',
      MODELHOOKS_CLIENT_CA_FILE: '/t/ca.crt',
      MODELHOOKS_METRICS_PORT: '9090',
      MODELHOOKS_TOKEN_FILE: '/t/token',
    });
    expect(c.tls).toEqual({ certFile: '/t/tls.crt', keyFile: '/t/tls.key', clientCaFile: '/t/ca.crt' });
    expect([c.tokenFile, c.metricsPort]).toEqual(['/t/token', 9090]);
  });
  it('refuses combinations that cannot work, naming the variables', () => {
    expect(() => loadConfig({ MODELHOOKS_TLS_CERT_FILE: '/t/tls.crt' })).toThrow(/MODELHOOKS_TLS_CERT_FILE and MODELHOOKS_TLS_KEY_FILE go together/);
    expect(() => loadConfig({ MODELHOOKS_CLIENT_CA_FILE: '/t/ca.crt', MODELHOOKS_METRICS_PORT: '9090' })).toThrow(
      /MODELHOOKS_CLIENT_CA_FILE needs MODELHOOKS_TLS_CERT_FILE/,
    );
    expect(() => loadConfig({ MODELHOOKS_TLS_CERT_FILE: 'c', MODELHOOKS_TLS_KEY_FILE: 'k', MODELHOOKS_CLIENT_CA_FILE: 'ca' })).toThrow(
      /MODELHOOKS_CLIENT_CA_FILE needs MODELHOOKS_METRICS_PORT/,
    );
    expect(() => loadConfig({ MODELHOOKS_METRICS_PORT: '8080' })).toThrow(/MODELHOOKS_METRICS_PORT must differ from PORT/);
    expect(() => loadConfig({ MODELHOOKS_WEBHOOK_PORT: '9443' })).toThrow(/MODELHOOKS_WEBHOOK_PORT needs MODELHOOKS_TLS_CERT_FILE/);
    expect(() => loadConfig({ MODELHOOKS_TLS_CERT_FILE: 'c', MODELHOOKS_TLS_KEY_FILE: 'k', MODELHOOKS_WEBHOOK_PORT: '8080' })).toThrow(
      /MODELHOOKS_WEBHOOK_PORT must differ from PORT/,
    );
    expect(() => loadConfig({ MODELHOOKS_HEADERS_TIMEOUT_SECONDS: '60' })).toThrow(/MODELHOOKS_HEADERS_TIMEOUT_SECONDS must not exceed/);
    expect(() => loadConfig({ MODELHOOKS_CACHE_BYTES: 'lots' })).toThrow(/MODELHOOKS_CACHE_BYTES/);
    expect(() => loadConfig({ MODELHOOKS_MAX_CONNECTIONS: '0' })).toThrow(/MODELHOOKS_MAX_CONNECTIONS/);
    expect(loadConfig({ MODELHOOKS_MAX_CONNECTIONS: '16' }).maxPendingConnections).toBe(16);
    expect(() => loadConfig({ MODELHOOKS_INFLIGHT_BYTES: '8mb' })).toThrow(/MODELHOOKS_INFLIGHT_BYTES must be at least MODELHOOKS_BODY_LIMIT/);
  });
  it('MODELHOOKS_INFLIGHT_BYTES=0 derives the budget from the heap limit: an eighth, at least one body at the limit', () => {
    const MiB = 1024 * 1024;
    // The Deployment's --max-old-space-size=384: V8's heap_size_limit is a little above 384 MiB.
    expect(inflightBytes('0', 16 * MiB, 400 * MiB)).toBe(50 * MiB);
    expect(inflightBytes('0', 16 * MiB, 64 * MiB)).toBe(16 * MiB);
    expect(inflightBytes('20mb', 16 * MiB, 400 * MiB)).toBe(20 * MiB);
  });
});

describe('docs/configuration.md', () => {
  it('documents every variable hooks/server/config.ts reads', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const source = readFileSync(path.join(root, 'hooks/server/config.ts'), 'utf8');
    const configuration = readFileSync(path.join(root, 'docs/configuration.md'), 'utf8');
    const names = [...source.matchAll(/^\s+(PORT|MODELHOOKS_[A-Z0-9_]+): z\s*\./gm)].map((m) => m[1] as string);
    expect(names).toContain('MODELHOOKS_TOKEN_FILE');
    for (const name of names) expect(configuration, name).toContain(`\`${name}\``);
  });
});

describe('compositions of your own', () => {
  const greeting = z.looseObject({ ECHO_GREETING: z.string().min(1).default('hi') }).transform((e) => ({ greeting: e.ECHO_GREETING }));
  const mine = { name: 'echo', config: greeting };
  it('read their settings from the same environment, beside the server settings', () => {
    expect(loadConfig({}, [mine]).hooks.echo).toEqual({ greeting: 'hi' });
    expect(loadConfig({ ECHO_GREETING: 'hello' }, [mine]).hooks.echo).toEqual({ greeting: 'hello' });
  });
  it('stop the start with a message naming their variable', () => {
    expect(() => loadConfig({ ECHO_GREETING: '' }, [mine])).toThrow(/invalid configuration: ECHO_GREETING: /);
  });
  it('are the only ones configured when the built-in compositions are not served', () => {
    expect(Object.keys(loadConfig({}, [mine]).hooks)).toEqual(['echo']);
  });
});
