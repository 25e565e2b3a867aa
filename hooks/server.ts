import { createHash } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { pino, type DestinationStream, type Logger } from 'pino';
import { bearerMatches, type TokenSource, watchedToken } from './auth.js';
import { AnswerCache } from './cache.js';
import type { ServerConfig } from './config.js';
import type { AnyComposition } from './kit/composition.js';
import { INVALID_SPEC, runHook } from './kit/protocol.js';
import { HOOK_NAMES, parseHookRequest, RequestShapeError, type HookName } from './kit/request.js';
import { isRecord } from './kit/types.js';
import { createMetrics, type HookMetrics, type Outcome } from './metrics.js';

export interface ServerState {
  /** Set on SIGTERM: /readyz fails and every answer carries `Connection: close`. */
  draining: boolean;
}

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

interface CachedAnswer {
  body: string;
  etag: string;
  /** `namespace/name` of the parent, for the log. */
  parent: string;
  /** The Ready message of an InvalidSpec answer. */
  invalidSpec: string | undefined;
}

/** What the request log line and the metrics say about one request, filled in as it is handled. */
interface Exchange {
  start: bigint;
  /** The path as it arrived (express rewrites req.path inside mounted middleware). */
  path: string;
  /** Metric labels: only known compositions and hooks, `unknown` otherwise (bounded cardinality). */
  composition: string;
  hook: string;
  parent?: string;
  outcome?: Outcome;
  reason?: string;
}

const rfc3339Now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const HOOK_ROUTE = /^\/hooks\/([^/]+)\/([^/]+)\/?$/;

/** A logger as the server uses it: JSON lines with ISO-8601 times. */
export const createLogger = (level: string, destination?: DestinationStream): Logger =>
  pino({ level, timestamp: pino.stdTimeFunctions.isoTime }, destination);

export function createApp(options: AppOptions): express.Express {
  const { compositions, config } = options;
  const logger = options.logger ?? createLogger(config.logLevel);
  const metrics = options.metrics ?? createMetrics();
  const now = options.now ?? rfc3339Now;
  const state = options.state ?? { draining: false };
  const token = options.token ?? (config.tokenFile ? watchedToken(config.tokenFile, logger) : undefined);
  const byName = new Map(compositions.map((c) => [c.name, c]));
  const cache = new AnswerCache<CachedAnswer>(config.cacheEntries, config.cacheBytes, answerBytes);

  const app = express();
  app.disable('x-powered-by');
  // We compute our own ETag from the answer; express's would hash the body a second time.
  app.set('etag', false);
  app.use(drainingCloses(state));
  app.use((req, res, next) => {
    const exchange = startExchange(req, byName);
    res.locals.exchange = exchange;
    res.on('finish', () => finish(res, exchange, metrics, logger));
    next();
  });
  healthRoutes(app, metrics, state);

  const hookPath = '/hooks/:composition/:hook';
  if (token) {
    app.use('/hooks', (req, res, next) => {
      if (bearerMatches(req.headers.authorization, token.current())) return next();
      res.setHeader('WWW-Authenticate', 'Bearer');
      reply(res, 401, 'unauthorized', 'a bearer token is required (MODELHOOKS_TOKEN_FILE)');
    });
  }
  app.post(hookPath, (req, res, next) => {
    const { composition, hook } = req.params as { composition: string; hook: string };
    if (!byName.has(composition)) return reply(res, 404, 'not_found', `unknown composition "${composition}"; known: ${[...byName.keys()].join(', ')}`);
    if (!HOOK_NAMES.includes(hook as HookName)) return reply(res, 404, 'not_found', `unknown hook "${hook}"; hooks are ${HOOK_NAMES.join(', ')}`);
    next();
  });
  app.post(hookPath, express.raw({ type: () => true, limit: config.bodyLimit }), (req: Request, res: Response) => {
    const exchange = res.locals.exchange as Exchange;
    const name = req.params.composition as string;
    const hook = req.params.hook as HookName;
    const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    // The key is a digest: the cache never holds a request body.
    const key = `${name}/${hook}/${sha256(raw)}`;
    const cached = cache.get(key);
    if (cached) return answer(req, res, cached, 'cached');

    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch (err) {
      return reply(res, 400, 'bad_request', `body: malformed JSON (${(err as Error).message})`);
    }
    let request;
    try {
      request = parseHookRequest(body);
    } catch (err) {
      if (err instanceof RequestShapeError) return reply(res, 400, 'bad_request', err.message);
      throw err;
    }
    exchange.parent = `${request.parent.metadata.namespace}/${request.parent.metadata.name}`;
    let result: Record<string, unknown>;
    try {
      result = runHook(byName.get(name) as AnyComposition, hook, request, { now: now(), config: config.hooks });
    } catch (err) {
      logger.error({ err, composition: name, hook, parent: exchange.parent }, 'hook failed');
      return reply(res, 500, 'error', 'internal error in the hook; see the server log');
    }
    const text = JSON.stringify(result);
    const entry = { body: text, etag: `"${sha256(text).slice(0, 32)}"`, parent: exchange.parent, invalidSpec: invalidSpecMessage(result) };
    cache.set(key, entry);
    metrics.cacheBytes.set(cache.bytes);
    metrics.cacheEntries.set(cache.size);
    answer(req, res, entry, 'ok');
  });

  app.use((_req: Request, res: Response) => reply(res, 404, 'not_found', 'not found'));
  app.use((err: Error & { type?: string; status?: number }, req: Request, res: Response, _next: NextFunction) => {
    if (err.type === 'entity.too.large') {
      return reply(res, 413, 'too_large', `body: larger than the limit of ${config.bodyLimit} (MODELHOOKS_BODY_LIMIT)`);
    }
    if (err.status && err.status >= 400 && err.status < 500) return reply(res, err.status, 'bad_request', `body: ${err.message}`);
    logger.error({ err, path: req.path }, 'request failed');
    reply(res, 500, 'error', 'internal error; see the server log');
  });

  return app;
}

/**
 * The routes the kubelet and Prometheus call, on their own: for MODELHOOKS_METRICS_PORT,
 * which stays plain HTTP without a client certificate or token when the hooks need them.
 */
export function createHealthApp(metrics: HookMetrics, state: ServerState): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(drainingCloses(state));
  healthRoutes(app, metrics, state);
  app.use((_req: Request, res: Response) => void res.status(404).type('text/plain').send('not found'));
  return app;
}

function healthRoutes(app: express.Express, metrics: HookMetrics, state: ServerState): void {
  app.get('/healthz', (_req, res) => void res.type('text/plain').send('ok'));
  app.get('/readyz', (_req, res) => void res.status(state.draining ? 503 : 200).type('text/plain').send(state.draining ? 'draining' : 'ok'));
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

/** While draining, every answer closes its connection, so keep-alive clients reconnect elsewhere. */
function drainingCloses(state: ServerState) {
  return (_req: Request, res: Response, next: NextFunction) => {
    if (state.draining) res.setHeader('Connection', 'close');
    next();
  };
}

/** Labels come from the path itself: express has no params yet when a body error (413) is handled. */
function startExchange(req: Request, byName: Map<string, unknown>): Exchange {
  const route = HOOK_ROUTE.exec(req.path);
  const composition = route && byName.has(route[1] as string) ? (route[1] as string) : 'unknown';
  const hook = route && HOOK_NAMES.includes(route[2] as HookName) ? (route[2] as string) : 'unknown';
  return { start: process.hrtime.bigint(), path: req.path, composition, hook };
}

/** One metric sample per hook request; one info line per answer that is not a success, or is an InvalidSpec. */
function finish(res: Response, exchange: Exchange, metrics: HookMetrics, logger: Logger): void {
  const seconds = Number(process.hrtime.bigint() - exchange.start) / 1e9;
  const isHookPath = exchange.path.startsWith('/hooks/');
  const outcome = exchange.outcome ?? outcomeOf(res.statusCode);
  if (isHookPath) {
    const labels = { composition: exchange.composition, hook: exchange.hook, outcome };
    metrics.requests.inc(labels);
    metrics.duration.observe(labels, seconds);
  }
  if (res.statusCode >= 400 || outcome === 'invalid_spec') {
    logger.info(
      {
        ...(isHookPath ? { composition: exchange.composition, hook: exchange.hook } : { path: exchange.path }),
        ...(exchange.parent ? { parent: exchange.parent } : {}),
        outcome,
        reason: exchange.reason,
        status: res.statusCode,
        durationMs: Math.round(seconds * 1e6) / 1e3,
      },
      outcome === 'invalid_spec' ? 'invalid spec' : 'request refused',
    );
  } else if (logger.isLevelEnabled('debug') && isHookPath) {
    logger.debug({ composition: exchange.composition, hook: exchange.hook, parent: exchange.parent, outcome, status: res.statusCode }, 'request');
  }
}

function outcomeOf(status: number): Outcome {
  if (status === 401) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 413) return 'too_large';
  if (status >= 500) return 'error';
  return status >= 400 ? 'bad_request' : 'ok';
}

/** Sends a plain-text refusal and records its outcome and reason. */
function reply(res: Response, status: number, outcome: Outcome, message: string): void {
  const exchange = res.locals.exchange as Exchange | undefined;
  if (exchange) Object.assign(exchange, { outcome, reason: message });
  res.status(status).type('text/plain').send(message);
}

/** Writes the answer, or 304 when the caller already holds it. */
function answer(req: Request, res: Response, entry: CachedAnswer, fresh: 'ok' | 'cached'): void {
  const exchange = res.locals.exchange as Exchange;
  res.setHeader('ETag', entry.etag);
  const match = req.headers['if-none-match'];
  const notModified = Boolean(match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === entry.etag));
  exchange.outcome = entry.invalidSpec !== undefined ? 'invalid_spec' : notModified ? 'not_modified' : fresh;
  if (entry.invalidSpec !== undefined) exchange.reason = entry.invalidSpec;
  exchange.parent = entry.parent;
  if (notModified) {
    res.status(304).end();
    return;
  }
  res.status(200).type('application/json').send(entry.body);
}

/** The message of `Ready=False/InvalidSpec`, if the answer's status carries it. */
function invalidSpecMessage(result: Record<string, unknown>): string | undefined {
  const status = result.status;
  if (!isRecord(status) || !Array.isArray(status.conditions)) return undefined;
  const ready = status.conditions.find((c) => isRecord(c) && c.type === 'Ready');
  return isRecord(ready) && ready.reason === INVALID_SPEC ? String(ready.message ?? '') : undefined;
}

/** Bytes an entry holds: V8 keeps a string in one byte per character, two if any is beyond Latin-1. */
function answerBytes(key: string, entry: CachedAnswer): number {
  const chars = (s: string) => (/[^\u0000-\u00ff]/.test(s) ? 2 : 1) * s.length;
  return chars(key) + chars(entry.body) + entry.etag.length + chars(entry.parent) + (entry.invalidSpec ? chars(entry.invalidSpec) : 0) + 128;
}
