import { z } from 'zod';
import { ConfigError } from './errors.js';

/**
 * Images every composition may use, by key. Each can be overridden with an environment
 * variable `MODELHOOKS_IMAGE_<KEY>` (key upper-cased, `-` → `_`), e.g.
 * `MODELHOOKS_IMAGE_TRUSTYAI_SERVICE=quay.io/trustyai/trustyai-service:v0.20.0`.
 */
export const IMAGE_DEFAULTS = {
  'trustyai-service': 'quay.io/trustyai/trustyai-service:latest',
  'tensorflow-serving': 'tensorflow/serving:2.18.0',
  // Needs sh, curl (which checks TLS certificates), tar and unzip.
  'model-downloader': 'curlimages/curl:8.11.1',
  // KServe v0.20.0's cluster serving runtimes (config/runtimes/kustomization.yaml, charts' runtime tags).
  'storage-initializer': 'kserve/storage-initializer:v0.20.0',
  sklearnserver: 'kserve/sklearnserver:v0.20.0',
  xgbserver: 'kserve/xgbserver:v0.20.0',
  lgbserver: 'kserve/lgbserver:v0.20.0',
  'kserve-tensorflow-serving': 'tensorflow/serving:2.6.2',
  torchserve: 'pytorch/torchserve-kfs:0.9.0',
  tritonserver: 'nvcr.io/nvidia/tritonserver:23.05-py3',
  huggingfaceserver: 'kserve/huggingfaceserver:v0.20.0',
} as const satisfies Record<string, string>;

export type ImageKey = keyof typeof IMAGE_DEFAULTS;

const SIZE = /^\d+(b|kb|mb|gb)?$/i;

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  MODELHOOKS_HOST: z.string().default(''),
  MODELHOOKS_BODY_LIMIT: z.string().regex(/^\d+(b|kb|mb|gb)?$/i, 'a size such as 16mb').default('16mb'),
  MODELHOOKS_LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  MODELHOOKS_CACHE_ENTRIES: z.coerce.number().int().min(0).default(512),
  MODELHOOKS_SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(0).default(25),
  // Server operation and safety (README, Configuration).
  MODELHOOKS_CACHE_BYTES: z.string().regex(SIZE, 'a size such as 64mb').default('64mb'),
  MODELHOOKS_DRAIN_SECONDS: z.coerce.number().min(0).default(10),
  MODELHOOKS_REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().default(30),
  MODELHOOKS_HEADERS_TIMEOUT_SECONDS: z.coerce.number().positive().default(10),
  MODELHOOKS_KEEPALIVE_TIMEOUT_SECONDS: z.coerce.number().positive().default(95),
  MODELHOOKS_MAX_CONNECTIONS: z.coerce.number().int().positive().default(256),
  MODELHOOKS_TLS_CERT_FILE: z.string().default(''),
  MODELHOOKS_TLS_KEY_FILE: z.string().default(''),
  MODELHOOKS_CLIENT_CA_FILE: z.string().default(''),
  MODELHOOKS_TOKEN_FILE: z.string().default(''),
  MODELHOOKS_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  MODELHOOKS_INGRESS_DOMAIN: z.string().default('example.com'),
  MODELHOOKS_INGRESS_CLASS: z.string().default(''),
  MODELHOOKS_DOMAIN_TEMPLATE: z.string().default('{{name}}-{{namespace}}.{{domain}}'),
  MODELHOOKS_URL_SCHEME: z.enum(['http', 'https']).default('http'),
  MODELHOOKS_GATEWAY: z
    .string()
    .regex(/^[a-z0-9-]+\/[a-z0-9-]+$/, 'namespace/name of a Gateway')
    .default('kserve/kserve-ingress-gateway'),
});

export interface HookConfig {
  images: Record<ImageKey, string>;
  ingress: { domain: string; className: string; domainTemplate: string; urlScheme: 'http' | 'https' };
  gateway: { namespace: string; name: string };
}

export interface ServerConfig {
  port: number;
  /** Address to listen on; empty means every interface (what a pod needs). */
  host: string;
  bodyLimit: string;
  logLevel: z.infer<typeof envSchema>['MODELHOOKS_LOG_LEVEL'];
  cacheEntries: number;
  shutdownTimeoutSeconds: number;
  /** Bytes the answer cache may hold (answers, keys and ETags). */
  cacheBytes: number;
  /** After SIGTERM: seconds of serving with /readyz failing and `Connection: close`. */
  drainSeconds: number;
  requestTimeoutSeconds: number;
  headersTimeoutSeconds: number;
  keepAliveTimeoutSeconds: number;
  maxConnections: number;
  /** HTTPS with this certificate and key; with a client CA, clients must present a certificate it signed. */
  tls?: { certFile: string; keyFile: string; clientCaFile?: string };
  /** A file holding the bearer token required on /hooks/*. */
  tokenFile?: string;
  /** A plain-HTTP port serving only /metrics, /healthz and /readyz; 0 for none. */
  metricsPort: number;
  hooks: HookConfig;
}

/** Reads the configuration once, at the entry point; an invalid value names its variable. */
export function loadConfig(env: Record<string, string | undefined>): ServerConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const problems = serverProblems(e);
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  const [gatewayNamespace, gatewayName] = e.MODELHOOKS_GATEWAY.split('/') as [string, string];
  return {
    port: e.PORT,
    host: e.MODELHOOKS_HOST,
    bodyLimit: e.MODELHOOKS_BODY_LIMIT,
    logLevel: e.MODELHOOKS_LOG_LEVEL,
    cacheEntries: e.MODELHOOKS_CACHE_ENTRIES,
    shutdownTimeoutSeconds: e.MODELHOOKS_SHUTDOWN_TIMEOUT_SECONDS,
    cacheBytes: sizeInBytes(e.MODELHOOKS_CACHE_BYTES),
    drainSeconds: e.MODELHOOKS_DRAIN_SECONDS,
    requestTimeoutSeconds: e.MODELHOOKS_REQUEST_TIMEOUT_SECONDS,
    headersTimeoutSeconds: e.MODELHOOKS_HEADERS_TIMEOUT_SECONDS,
    keepAliveTimeoutSeconds: e.MODELHOOKS_KEEPALIVE_TIMEOUT_SECONDS,
    maxConnections: e.MODELHOOKS_MAX_CONNECTIONS,
    ...(e.MODELHOOKS_TLS_CERT_FILE
      ? {
          tls: {
            certFile: e.MODELHOOKS_TLS_CERT_FILE,
            keyFile: e.MODELHOOKS_TLS_KEY_FILE,
            ...(e.MODELHOOKS_CLIENT_CA_FILE ? { clientCaFile: e.MODELHOOKS_CLIENT_CA_FILE } : {}),
          },
        }
      : {}),
    ...(e.MODELHOOKS_TOKEN_FILE ? { tokenFile: e.MODELHOOKS_TOKEN_FILE } : {}),
    metricsPort: e.MODELHOOKS_METRICS_PORT,
    hooks: {
      images: imagesFrom(env),
      ingress: {
        domain: e.MODELHOOKS_INGRESS_DOMAIN,
        className: e.MODELHOOKS_INGRESS_CLASS,
        domainTemplate: e.MODELHOOKS_DOMAIN_TEMPLATE,
        urlScheme: e.MODELHOOKS_URL_SCHEME,
      },
      gateway: { namespace: gatewayNamespace, name: gatewayName },
    },
  };
}

/** Combinations of server settings that cannot work, each naming its variables. */
function serverProblems(e: z.infer<typeof envSchema>): string[] {
  const problems: string[] = [];
  if (Boolean(e.MODELHOOKS_TLS_CERT_FILE) !== Boolean(e.MODELHOOKS_TLS_KEY_FILE)) {
    problems.push('MODELHOOKS_TLS_CERT_FILE and MODELHOOKS_TLS_KEY_FILE go together');
  }
  if (e.MODELHOOKS_CLIENT_CA_FILE && !e.MODELHOOKS_TLS_CERT_FILE) {
    problems.push('MODELHOOKS_CLIENT_CA_FILE needs MODELHOOKS_TLS_CERT_FILE and MODELHOOKS_TLS_KEY_FILE');
  }
  // The kubelet's probes and Prometheus present no client certificate.
  if (e.MODELHOOKS_CLIENT_CA_FILE && e.MODELHOOKS_METRICS_PORT === 0) {
    problems.push('MODELHOOKS_CLIENT_CA_FILE needs MODELHOOKS_METRICS_PORT, where probes and Prometheus connect without a client certificate');
  }
  if (e.MODELHOOKS_METRICS_PORT !== 0 && e.MODELHOOKS_METRICS_PORT === e.PORT) {
    problems.push('MODELHOOKS_METRICS_PORT must differ from PORT');
  }
  if (e.MODELHOOKS_HEADERS_TIMEOUT_SECONDS > e.MODELHOOKS_REQUEST_TIMEOUT_SECONDS) {
    problems.push('MODELHOOKS_HEADERS_TIMEOUT_SECONDS must not exceed MODELHOOKS_REQUEST_TIMEOUT_SECONDS');
  }
  return problems;
}

/** `16mb` → 16777216 (powers of 1024, as express reads MODELHOOKS_BODY_LIMIT). */
export function sizeInBytes(size: string): number {
  const [, digits, unit] = /^(\d+)([a-z]*)$/i.exec(size) as RegExpExecArray;
  const power = ['b', 'kb', 'mb', 'gb'].indexOf((unit || 'b').toLowerCase());
  return Number(digits) * 1024 ** power;
}

function imagesFrom(env: Record<string, string | undefined>): Record<ImageKey, string> {
  const images = { ...IMAGE_DEFAULTS } as Record<ImageKey, string>;
  for (const key of Object.keys(images) as ImageKey[]) {
    const override = env[`MODELHOOKS_IMAGE_${key.toUpperCase().replace(/-/g, '_')}`];
    if (override) images[key] = override;
  }
  return images;
}

/** The configuration with every default: for tests, `render` and examples. */
export const defaultHookConfig = (): HookConfig => loadConfig({}).hooks;
