import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { pino, type DestinationStream, type Logger } from 'pino';
import { bearerMatches, type TokenSource, watchedToken } from './auth.js';
import { type ServerConfig, sizeInBytes } from './config.js';
import { type Exchange, recordExchange } from './exchange.js';
import { hookAnswerer } from './hook-answer.js';
import { directHookRoute, isJsonType } from './hook-route.js';
import type { AnyComposition } from '../kit/composition.js';
import { HOOK_NAMES, type HookName } from '../engine/request.js';
import { bindHookMetrics, createMetrics, type HookMetrics, type Outcome } from './metrics.js';

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
  /**
   * Whether the hook routes' common requests skip express (hooks/server/hook-route.ts); default true.
   * false sends every request through express: the tests compare both paths with it.
   */
  directHookRoute?: boolean;
}

const rfc3339Now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/**
 * A logger as the server uses it: JSON lines with ISO-8601 times and the level as its name
 * (`"level":"info"`, what log collectors match on, rather than pino's number 30).
 */
export const createLogger = (level: string, destination?: DestinationStream): Logger =>
  pino({ level, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } }, destination);

export function createApp(options: AppOptions): express.Express {
  const { compositions, config } = options;
  const logger = options.logger ?? createLogger(config.logLevel);
  const metrics = options.metrics ?? createMetrics();
  const bound = bindHookMetrics(metrics);
  const now = options.now ?? rfc3339Now;
  const state = options.state ?? { draining: false };
  const token = options.token ?? (config.tokenFile ? watchedToken(config.tokenFile, logger) : undefined);
  const byName = new Map(compositions.map((c) => [c.name, c]));
  const answerer = hookAnswerer({ config, metrics, logger, now });

  const app = express();
  app.disable('x-powered-by');
  // We compute our own ETag from the answer; express's would hash the body a second time.
  app.set('etag', false);
  app.use(drainingCloses(state));
  app.use((req, res, next) => {
    res.locals.exchange = recordExchange(res, req.path, byName, bound, logger);
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
    if (!isJsonType(req.headers['content-type'])) {
      return reply(res, 415, 'bad_request', `body: Content-Type ${req.headers['content-type']} is not JSON; hooks take application/json`);
    }
    next();
  });
  app.post(hookPath, express.raw({ type: () => true, limit: config.bodyLimit }), (req: Request, res: Response) => {
    const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const composition = byName.get(req.params.composition as string) as AnyComposition;
    answerer.answer(res, res.locals.exchange as Exchange, composition, req.params.hook as HookName, raw, req.headers['if-none-match']);
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

  // The hook routes' common requests skip express altogether (hooks/server/hook-route.ts); the rest,
  // and every other route, go through express's router as before.
  if (options.directHookRoute !== false) {
    const direct = directHookRoute({ byName, answerer, metrics: bound, logger, state, token, limit: sizeInBytes(config.bodyLimit) });
    // express's app function calls app.handle for every request: wrap it, so app.listen,
    // http.createServer(app) and supertest all take the direct route too.
    const handled = app as unknown as { handle: (req: IncomingMessage, res: ServerResponse, next?: NextFunction) => void };
    const viaExpress = handled.handle.bind(app);
    handled.handle = (req, res, next) => {
      if (!direct(req, res)) viaExpress(req, res, next);
    };
  }
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

/** Sends a plain-text refusal and records its outcome and reason. */
function reply(res: Response, status: number, outcome: Outcome, message: string): void {
  const exchange = res.locals.exchange as Exchange | undefined;
  if (exchange) Object.assign(exchange, { outcome, reason: message });
  res.status(status).type('text/plain').send(message);
}
