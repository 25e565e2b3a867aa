import { getHeapStatistics } from 'node:v8';
import { z } from 'zod';
import { builtinCompositions } from '../compositions.js';
import { ConfigError } from './errors.js';
import { type ConfigSchema, type ConfigVariable, configProblems, configsFrom, configVariablesOf, type Env } from '../kit/config.js';
import { type NamespaceSelector, parseNamespaceSelector, SelectorError } from '../engine/namespace-selector.js';
import type { InferenceServiceConfig } from '../inferenceservice/config.js';
import type { MLModelConfig } from '../mlmodel/config.js';
import type { TfservConfig } from '../tfserv/config.js';
import type { TrustyAIConfig } from '../trustyai/config.js';

const SIZE = /^\d+(b|kb|mb|gb)?$/i;

/** The server's own settings. Each composition declares its own (its `config.ts`). */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8080).describe('the port of the hooks (`serve --port` wins)'),
  MODELHOOKS_HOST: z.string().default('').meta({ description: 'the address to listen on, e.g. 127.0.0.1 for a local run', unset: '(every interface)' }),
  MODELHOOKS_BODY_LIMIT: z.string().regex(SIZE, 'a size such as 16mb').default('16mb').describe('the largest request body; larger ones get 413'),
  MODELHOOKS_LOG_LEVEL: z
    .enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
    .default('info')
    .describe('trace, debug (a JSON line per request), info, warn, error, fatal or silent'),
  MODELHOOKS_CACHE_ENTRIES: z.coerce
    .number()
    .int()
    .min(0)
    .default(65536)
    .describe('answers kept for identical requests at most (0: no answer cache); MODELHOOKS_CACHE_BYTES binds first'),
  MODELHOOKS_SHUTDOWN_TIMEOUT_SECONDS: z.coerce
    .number()
    .min(0)
    .default(25)
    .describe('after the drain, how long requests in flight may take before their connections close'),
  // Server operation and safety (README, Configuration).
  MODELHOOKS_CACHE_BYTES: z.string().regex(SIZE, 'a size such as 64mb').default('64mb').describe('bytes the answer cache may hold (answers, keys and ETags)'),
  MODELHOOKS_MEMO_BYTES: z
    .string()
    .regex(SIZE, 'a size such as 48mb')
    .default('48mb')
    .describe('bytes all memos together may hold (specs, runtimes, settled plans, parsed texts)'),
  MODELHOOKS_DRAIN_SECONDS: z.coerce.number().min(0).default(10).describe('after SIGTERM, how long /readyz fails while everything is still served'),
  MODELHOOKS_REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().default(30).describe('the longest time to receive a whole request'),
  MODELHOOKS_HEADERS_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .default(10)
    .describe("the longest time to receive a request's headers (at most the request timeout)"),
  MODELHOOKS_KEEPALIVE_TIMEOUT_SECONDS: z.coerce.number().positive().default(95).describe("idle keep-alive connections close after this (above Go's 90 s)"),
  MODELHOOKS_MAX_CONNECTIONS: z.coerce
    .number()
    .int()
    .positive()
    .default(256)
    .describe('connections open at once; beyond it, pending ones and then idle ones are closed to make room'),
  MODELHOOKS_MAX_PENDING_CONNECTIONS: z.coerce
    .number()
    .int()
    .positive()
    .default(64)
    .describe('of those, connections that have not finished a TLS handshake or sent a first request; the oldest is closed beyond this'),
  MODELHOOKS_INFLIGHT_BYTES: z
    .string()
    .regex(/^(0|\d+(b|kb|mb|gb)?)$/i, 'a size such as 48mb, or 0')
    .default('0')
    .meta({
      description:
        'bytes the bodies of requests in flight may hold in all, reserved from Content-Length before reading; beyond it 503 with Retry-After at once',
      unset: '(0: an eighth of the heap limit, at least MODELHOOKS_BODY_LIMIT)',
    }),
  MODELHOOKS_MIN_DATA_RATE: z
    .string()
    .regex(SIZE, 'a size per second such as 64kb')
    .default('64kb')
    .describe('bytes a second a request body must arrive at on average, after its first 2 s; a slower one is closed (408)'),
  MODELHOOKS_NAMESPACE_QUEUE: z.coerce
    .number()
    .int()
    .positive()
    .default(32)
    .describe("requests of one namespace waiting for their turn (namespaces take turns); beyond it that namespace's get 503 at once"),
  MODELHOOKS_COMPUTE_WORKERS: z.coerce
    .number()
    .int()
    .min(0)
    .max(64)
    .default(1)
    .describe(
      'worker threads that parse and compute requests of 256 KiB or more of the built-in compositions off the event loop, so it keeps accepting connections (0: none)',
    ),
  MODELHOOKS_HANDSHAKE_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .default(5)
    .describe('a TLS handshake must finish within this (a plain socket: its first headers, MODELHOOKS_HEADERS_TIMEOUT_SECONDS)'),
  MODELHOOKS_TLS_CERT_FILE: z
    .string()
    .default('')
    .meta({ description: 'HTTPS on PORT with this PEM certificate (and the key below); re-read every 5 s', unset: '(plain HTTP)' }),
  MODELHOOKS_TLS_KEY_FILE: z.string().default('').meta({ description: "the certificate's PEM private key", unset: '(plain HTTP)' }),
  MODELHOOKS_CLIENT_CA_FILE: z
    .string()
    .default('')
    .meta({ description: 'require client certificates this PEM CA signed (needs TLS and MODELHOOKS_METRICS_PORT)', unset: '(none)' }),
  MODELHOOKS_TOKEN_FILE: z
    .string()
    .default('')
    .meta({ description: "require `Authorization: Bearer <the file's content>` on /hooks/*; re-read every 5 s", unset: '(none)' }),
  MODELHOOKS_METRICS_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .default(0)
    .meta({ description: 'also serve only /metrics, /healthz and /readyz in plain HTTP on this port', unset: '(none)' }),
  MODELHOOKS_WEBHOOK_PORT: z.coerce.number().int().min(0).max(65535).default(0).meta({
    description:
      'also serve only the pod webhook (POST /mutate-pods, MODELHOOKS_POD_INJECTION=webhook) on this port: HTTPS with the same certificate, no client certificate asked (the API server presents none)',
    unset: '(/mutate-pods on PORT only)',
  }),
  // Compositions of your own (docs/your-composition.md): read by every command before this schema (cli/load-compositions.ts).
  MODELHOOKS_COMPOSITIONS_DIR: z.string().default('').meta({
    description: 'serve the compositions every .js module at the top of this directory exports, too (the image sets /compositions)',
    unset: '(the built-in compositions and --composition modules only)',
  }),
  // Multi-tenancy (README, Running modelhooks for many teams): the namespaces served.
  MODELHOOKS_NAMESPACE_SELECTOR: z
    .string()
    .default('')
    .meta({ description: "a label selector a parent's Namespace must match to be served", unset: '(every namespace)' }),
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
  /** Bytes of request bodies in flight at most (server/admission.ts). */
  inflightBytes: number;
  /** Bytes a second a body must arrive at, on average after its first 2 s. */
  minDataRate: number;
  /** Requests one namespace may have waiting for their turn. */
  namespaceQueue: number;
  /** Worker threads for large requests (server/admission.ts ComputePool); 0 for none. */
  computeWorkers: number;
  /** HTTPS with this certificate and key; with a client CA, clients must present a certificate it signed. */
  tls?: { certFile: string; keyFile: string; clientCaFile?: string };
  /** A file holding the bearer token required on /hooks/*. */
  tokenFile?: string;
  /** A plain-HTTP port serving only /metrics, /healthz and /readyz; 0 for none. */
  metricsPort: number;
  /** An HTTPS port serving only POST /mutate-pods, without asking for a client certificate; 0 for none. */
  webhookPort: number;
  /** The namespaces whose parents are served (`MODELHOOKS_NAMESPACE_SELECTOR`; empty: every one). */
  namespaceSelector: NamespaceSelector;
  /** Where the served compositions of one's own were loaded from (`MODELHOOKS_COMPOSITIONS_DIR`, read by the CLI before the rest); empty: none. */
  compositionsDir: string;
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
    inflightBytes: inflightBytes(e.MODELHOOKS_INFLIGHT_BYTES, sizeInBytes(e.MODELHOOKS_BODY_LIMIT)),
    minDataRate: sizeInBytes(e.MODELHOOKS_MIN_DATA_RATE),
    namespaceQueue: e.MODELHOOKS_NAMESPACE_QUEUE,
    computeWorkers: e.MODELHOOKS_COMPUTE_WORKERS,
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
    webhookPort: e.MODELHOOKS_WEBHOOK_PORT,
    namespaceSelector: parseNamespaceSelector(e.MODELHOOKS_NAMESPACE_SELECTOR),
    compositionsDir: e.MODELHOOKS_COMPOSITIONS_DIR,
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
  if (e.MODELHOOKS_WEBHOOK_PORT !== 0 && !e.MODELHOOKS_TLS_CERT_FILE) {
    problems.push('MODELHOOKS_WEBHOOK_PORT needs MODELHOOKS_TLS_CERT_FILE and MODELHOOKS_TLS_KEY_FILE (the API server calls admission webhooks over HTTPS)');
  }
  if (e.MODELHOOKS_WEBHOOK_PORT !== 0 && (e.MODELHOOKS_WEBHOOK_PORT === e.PORT || e.MODELHOOKS_WEBHOOK_PORT === e.MODELHOOKS_METRICS_PORT)) {
    problems.push('MODELHOOKS_WEBHOOK_PORT must differ from PORT and MODELHOOKS_METRICS_PORT');
  }
  if (e.MODELHOOKS_INFLIGHT_BYTES !== '0' && sizeInBytes(e.MODELHOOKS_INFLIGHT_BYTES) < sizeInBytes(e.MODELHOOKS_BODY_LIMIT)) {
    problems.push('MODELHOOKS_INFLIGHT_BYTES must be at least MODELHOOKS_BODY_LIMIT (else the largest body could never be read)');
  }
  if (e.MODELHOOKS_HEADERS_TIMEOUT_SECONDS > e.MODELHOOKS_REQUEST_TIMEOUT_SECONDS) {
    problems.push('MODELHOOKS_HEADERS_TIMEOUT_SECONDS must not exceed MODELHOOKS_REQUEST_TIMEOUT_SECONDS');
  }
  return problems;
}

/**
 * MODELHOOKS_INFLIGHT_BYTES in bytes; `0` derives it from the heap limit (`--max-old-space-size`,
 * V8's heap_size_limit): an eighth of it, and never less than one body at the limit. A body is
 * held as a Buffer outside the heap, then parsed into the heap at 2-5 times its size, one
 * request at a time (server/admission.ts FairQueue): with the Deployment's 384 MB heap, 48 MiB
 * of bodies and the one being parsed stay well inside its 512 Mi limit (docs/operations.md).
 */
export function inflightBytes(setting: string, bodyLimit: number, heapLimit = getHeapStatistics().heap_size_limit): number {
  if (setting !== '0') return sizeInBytes(setting);
  return Math.max(bodyLimit, Math.floor(heapLimit / 8));
}

/** `16mb` → 16777216 (powers of 1024): MODELHOOKS_BODY_LIMIT in bytes. */
export function sizeInBytes(size: string): number {
  const [, digits, unit] = /^(\d+)([a-z]*)$/i.exec(size) as RegExpExecArray;
  const power = ['b', 'kb', 'mb', 'gb'].indexOf((unit || 'b').toLowerCase());
  return Number(digits) * 1024 ** power;
}

/**
 * Every variable the server and `compositions` read, with its default and meaning, from their
 * schemas (for `serve --help` and the Helm chart's values): the server's first, then each
 * composition's, a variable two compositions share once.
 */
export function configVariables(compositions: ReadonlyArray<{ config?: ConfigSchema<unknown> }> = builtinCompositions): ConfigVariable[] {
  const seen = new Set<string>();
  return [envSchema, ...compositions.flatMap((c) => (c.config ? [c.config] : []))]
    .flatMap((schema) => configVariablesOf(schema))
    .filter((v) => !seen.has(v.name) && seen.add(v.name));
}

/** Every built-in composition's configuration with its defaults: for tests, `render` and examples. */
export const defaultHookConfig = (): HookConfig => loadConfig({}).hooks;
