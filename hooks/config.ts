import { z } from 'zod';
import { builtinCompositions } from './compositions.js';
import { ConfigError } from './errors.js';
import { type ConfigSchema, configProblems, configsFrom, type Env } from './kit/config.js';
import { type NamespaceSelector, parseNamespaceSelector, SelectorError } from './kit/namespace-selector.js';
import type { InferenceServiceConfig } from './inferenceservice/config.js';
import type { MLModelConfig } from './mlmodel/config.js';
import type { TfservConfig } from './tfserv/config.js';
import type { TrustyAIConfig } from './trustyai/config.js';

const SIZE = /^\d+(b|kb|mb|gb)?$/i;

/** The server's own settings. Each composition declares its own (its `config.ts`). */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  MODELHOOKS_HOST: z.string().default(''),
  MODELHOOKS_BODY_LIMIT: z.string().regex(SIZE, 'a size such as 16mb').default('16mb'),
  MODELHOOKS_LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  MODELHOOKS_CACHE_ENTRIES: z.coerce.number().int().min(0).default(65536),
  MODELHOOKS_SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(0).default(25),
  // Server operation and safety (README, Configuration).
  MODELHOOKS_CACHE_BYTES: z.string().regex(SIZE, 'a size such as 64mb').default('64mb'),
  MODELHOOKS_MEMO_BYTES: z.string().regex(SIZE, 'a size such as 48mb').default('48mb'),
  MODELHOOKS_DRAIN_SECONDS: z.coerce.number().min(0).default(10),
  MODELHOOKS_REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().default(30),
  MODELHOOKS_HEADERS_TIMEOUT_SECONDS: z.coerce.number().positive().default(10),
  MODELHOOKS_KEEPALIVE_TIMEOUT_SECONDS: z.coerce.number().positive().default(95),
  MODELHOOKS_MAX_CONNECTIONS: z.coerce.number().int().positive().default(256),
  MODELHOOKS_MAX_PENDING_CONNECTIONS: z.coerce.number().int().positive().default(64),
  MODELHOOKS_HANDSHAKE_TIMEOUT_SECONDS: z.coerce.number().positive().default(5),
  MODELHOOKS_TLS_CERT_FILE: z.string().default(''),
  MODELHOOKS_TLS_KEY_FILE: z.string().default(''),
  MODELHOOKS_CLIENT_CA_FILE: z.string().default(''),
  MODELHOOKS_TOKEN_FILE: z.string().default(''),
  MODELHOOKS_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  // Multi-tenancy (README, Running modelhooks for many teams): the namespaces served.
  MODELHOOKS_NAMESPACE_SELECTOR: z.string().default(''),
});

/** The built-in compositions' configurations, by composition name, as the server assembles them. */
export interface HookConfig {
  trustyai: TrustyAIConfig;
  tfserv: TfservConfig;
  mlmodel: MLModelConfig;
  inferenceservice: InferenceServiceConfig;
  [composition: string]: unknown;
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
  /** Bytes the hooks' memos may hold in all (kit/memo-budget.ts). */
  memoBytes: number;
  /** After SIGTERM: seconds of serving with /readyz failing and `Connection: close`. */
  drainSeconds: number;
  requestTimeoutSeconds: number;
  headersTimeoutSeconds: number;
  keepAliveTimeoutSeconds: number;
  maxConnections: number;
  /** Sockets without a finished TLS handshake (or, plain, without a first request) at a time; the oldest goes first. */
  maxPendingConnections: number;
  handshakeTimeoutSeconds: number;
  /** HTTPS with this certificate and key; with a client CA, clients must present a certificate it signed. */
  tls?: { certFile: string; keyFile: string; clientCaFile?: string };
  /** A file holding the bearer token required on /hooks/*. */
  tokenFile?: string;
  /** A plain-HTTP port serving only /metrics, /healthz and /readyz; 0 for none. */
  metricsPort: number;
  /** The namespaces whose parents are served (`MODELHOOKS_NAMESPACE_SELECTOR`; empty: every one). */
  namespaceSelector: NamespaceSelector;
  hooks: HookConfig;
}

/**
 * Reads the configuration once, at the entry point; an invalid value names its variable.
 * `compositions` are the ones served (the built-in ones unless told otherwise): each reads
 * its own settings through its `config` schema.
 */
export function loadConfig(env: Env, compositions: ReadonlyArray<{ name: string; config?: ConfigSchema<unknown> }> = builtinCompositions): ServerConfig {
  const parsed = envSchema.safeParse(env);
  const hooks = configsFrom(compositions, env);
  const problems = [...(parsed.success ? serverProblems(parsed.data) : configProblems(parsed.error)), ...hooks.problems];
  if (!parsed.success || problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.MODELHOOKS_HOST,
    bodyLimit: e.MODELHOOKS_BODY_LIMIT,
    logLevel: e.MODELHOOKS_LOG_LEVEL,
    cacheEntries: e.MODELHOOKS_CACHE_ENTRIES,
    shutdownTimeoutSeconds: e.MODELHOOKS_SHUTDOWN_TIMEOUT_SECONDS,
    cacheBytes: sizeInBytes(e.MODELHOOKS_CACHE_BYTES),
    memoBytes: sizeInBytes(e.MODELHOOKS_MEMO_BYTES),
    drainSeconds: e.MODELHOOKS_DRAIN_SECONDS,
    requestTimeoutSeconds: e.MODELHOOKS_REQUEST_TIMEOUT_SECONDS,
    headersTimeoutSeconds: e.MODELHOOKS_HEADERS_TIMEOUT_SECONDS,
    keepAliveTimeoutSeconds: e.MODELHOOKS_KEEPALIVE_TIMEOUT_SECONDS,
    maxConnections: e.MODELHOOKS_MAX_CONNECTIONS,
    maxPendingConnections: Math.min(e.MODELHOOKS_MAX_PENDING_CONNECTIONS, e.MODELHOOKS_MAX_CONNECTIONS),
    handshakeTimeoutSeconds: e.MODELHOOKS_HANDSHAKE_TIMEOUT_SECONDS,
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
    namespaceSelector: parseNamespaceSelector(e.MODELHOOKS_NAMESPACE_SELECTOR),
    hooks: hooks.configs as HookConfig,
  };
}

/** Combinations of server settings that cannot work, each naming its variables. */
function serverProblems(e: z.infer<typeof envSchema>): string[] {
  const problems: string[] = [];
  try {
    parseNamespaceSelector(e.MODELHOOKS_NAMESPACE_SELECTOR);
  } catch (err) {
    if (!(err instanceof SelectorError)) throw err;
    problems.push(`MODELHOOKS_NAMESPACE_SELECTOR: ${err.message}`);
  }
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

/** Every built-in composition's configuration with its defaults: for tests, `render` and examples. */
export const defaultHookConfig = (): HookConfig => loadConfig({}).hooks;
