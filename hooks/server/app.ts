import http, { type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';
import { type TokenSource, watchedToken } from './auth.js';
import { type ServerConfig, sizeInBytes } from './config.js';
import { ByteBudget, ComputePool, FairQueue } from './admission.js';
import { recordExchange } from './exchange.js';
import { hookAnswerer, sendText, writeText } from './hook-answer.js';
import { hookRoute } from './hook-route.js';
import type { ServerState } from './listen.js';
import type { AnyComposition } from '../kit/composition.js';
import { bindHookMetrics, createMetrics, type HookMetrics } from './metrics.js';

export type { ServerState } from './listen.js';

export interface AppOptions {
  compositions: AnyComposition[];
  config: ServerConfig;
  logger?: Logger;
  metrics?: HookMetrics;
  /** The clock, injected so tests are repeatable; RFC 3339 to the second. */
  now?: () => string;
  /** Shared with the entry point: while draining, /readyz fails so no new work arrives. */
  state?: ServerState;
  /** The bearer token /hooks/* require; by default read from MODELHOOKS_TOKEN_FILE, if set. */
  token?: TokenSource;
}

/**
 * The server's requests as one node:http request listener: give it to `http.createServer`,
 * `https.createServer`, supertest or a framework of your own; `listen(port, host, callback)`
 * is short for `http.createServer(app).listen(port, host, callback)`.
 */
export interface HookApp extends RequestListener {
  listen(port?: number, host?: string, listening?: () => void): Server;
}

const rfc3339Now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/**
 * A logger as the server uses it: JSON lines with ISO-8601 times and the level as its name
 * (`"level":"info"`, what log collectors match on, rather than pino's number 30).
 */
export const createLogger = (level: string, destination?: DestinationStream): Logger =>
  pino({ level, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } }, destination);

/**
 * Every request takes one path: `/hooks` and what is under it to hooks/server/hook-route.ts
 * (token, route, body, answer), GET and HEAD of /healthz, /readyz and /metrics to the health
 * routes (unless MODELHOOKS_METRICS_PORT serves them: createHealthApp), anything else 404.
 * While draining every answer closes its connection.
 */
export function createApp(options: AppOptions): HookApp {
  const { compositions, config } = options;
  const logger = options.logger ?? createLogger(config.logLevel);
  const metrics = options.metrics ?? createMetrics();
  const bound = bindHookMetrics(metrics);
  const now = options.now ?? rfc3339Now;
  const state = options.state ?? { draining: false };
  const token = options.token ?? (config.tokenFile ? watchedToken(config.tokenFile, logger) : undefined);
  const byName = new Map(compositions.map((c) => [c.name, c]));
  const answerer = hookAnswerer({ config, metrics, logger, now });
  const hooks = hookRoute({
    byName,
    answerer,
    metrics: bound,
    logger,
    token,
    limit: sizeInBytes(config.bodyLimit),
    limitText: config.bodyLimit,
    budget: new ByteBudget(config.inflightBytes),
    // A namespace's waiting requests may hold a quarter of the bytes in flight (admission.ts).
    queue: new FairQueue(config.namespaceQueue, config.inflightBytes / 4),
    minDataRate: config.minDataRate,
    ...(config.computeWorkers > 0
      ? {
          pool: new ComputePool(config.computeWorkers, {
            hooks: config.hooks,
            namespaceSelector: config.namespaceSelector,
            memoBytes: Math.floor(config.memoBytes / 4),
          }),
        }
      : {}),
  });
  // With MODELHOOKS_METRICS_PORT set, the probes and /metrics are served there alone: the hook port serves only the hooks.
  const health = config.metricsPort === 0 ? healthRoutes(metrics, state, logger) : () => false;

  const app = (req: IncomingMessage, res: ServerResponse) => {
    if (state.draining) res.setHeader('Connection', 'close');
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    try {
      if (path.startsWith('/hooks/') || path === '/hooks') return hooks(req, res, path);
      if (health(req, res, path)) return;
      // Recorded for its log line (a refusal outside /hooks/ has no metric sample).
      writeText(res, recordExchange(res, path, 'unknown', 'unknown', bound, logger), 404, 'not_found', 'not found');
    } catch (err) {
      logger.error({ err, path }, 'request failed');
      if (!res.headersSent) sendText(res, 500, 'internal error; see the server log');
    }
  };
  return withListen(app);
}

/**
 * The routes the kubelet and Prometheus call, on their own: for MODELHOOKS_METRICS_PORT,
 * which stays plain HTTP without a client certificate or token when the hooks need them.
 */
export function createHealthApp(metrics: HookMetrics, state: ServerState, logger: Logger = createLogger('silent')): HookApp {
  const health = healthRoutes(metrics, state, logger);
  return withListen((req, res) => {
    if (state.draining) res.setHeader('Connection', 'close');
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    if (!health(req, res, query < 0 ? url : url.slice(0, query))) sendText(res, 404, 'not found');
  });
}

const withListen = (app: RequestListener): HookApp =>
  Object.assign(app, {
    listen: (port?: number, host?: string, listening?: () => void): Server => http.createServer(app).listen(port, host, listening),
  });

const HEALTH_PATHS = new Set(['/healthz', '/healthz/', '/readyz', '/readyz/', '/metrics', '/metrics/']);

/** GET (or HEAD) /healthz, /readyz and /metrics; returns false, answering nothing, for any other request. */
function healthRoutes(metrics: HookMetrics, state: ServerState, logger: Logger) {
  return (req: IncomingMessage, res: ServerResponse, path: string): boolean => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !HEALTH_PATHS.has(path)) return false;
    if (path.startsWith('/healthz')) sendText(res, 200, 'ok');
    else if (path.startsWith('/readyz')) sendText(res, state.draining ? 503 : 200, state.draining ? 'draining' : 'ok');
    else {
      metrics.registry.metrics().then(
        (text) => sendText(res, 200, text, metrics.registry.contentType),
        (err: unknown) => {
          logger.error({ err, path }, 'request failed');
          sendText(res, 500, 'internal error; see the server log');
        },
      );
    }
    return true;
  };
}
