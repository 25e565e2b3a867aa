import http, { type IncomingMessage } from 'node:http';
import express, { type ErrorRequestHandler, type Express, type NextFunction, type Request, type Response } from 'express';
import { pino, type DestinationStream, type Logger } from 'pino';
import { type TokenSource, watchedToken } from './auth.js';
import { type ServerConfig, sizeInBytes } from './config.js';
import { ByteBudget, ComputePool, FairQueue } from './admission.js';
import { recordExchange } from './exchange.js';
import { hookAnswerer, sendText, writeText } from './hook-answer.js';
import { hookRoute } from './hook-route.js';
import { expressObjects, type ServerState } from './listen.js';
import type { AnyComposition } from '../kit/composition.js';
import { bindHookMetrics, createMetrics, type HookMetrics } from './metrics.js';
import { admitPod, InjectionRegistry } from '../inferenceservice/pod/pod-webhook.js';

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
 * The server as an express 5 application: give it to `http.createServer`, `https.createServer`,
 * supertest, or mount it in an express app of your own (`app.use('/hooks-server', createApp(…))`)
 * behind middleware of your own (auth, tracing). It reads each hook request's body itself, once:
 * put no body parser (`express.json()`) in front of it.
 */
export type HookApp = Express;

const rfc3339Now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/**
 * A logger as the server uses it: JSON lines with ISO-8601 times and the level as its name
 * (`"level":"info"`, what log collectors match on, rather than pino's number 30).
 */
export const createLogger = (level: string, destination?: DestinationStream): Logger =>
  pino({ level, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } }, destination);

/**
 * Every request takes one path: express routes it, and only routes it (no body parser, no
 * ETag of its own, no X-Powered-By). `/hooks` and what is under it go to
 * hooks/server/hook-route.ts (token, route, body read once, one parse, the answer cache and its
 * ETags), GET and HEAD of /healthz, /readyz and /metrics to the health routes (unless
 * MODELHOOKS_METRICS_PORT serves them: createHealthApp), anything else is
 * 404. Paths match case-sensitively, as sent, relative to where the app is mounted. While
 * draining every answer closes its connection.
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
  // MODELHOOKS_POD_INJECTION=webhook: what each sync wrote for its pods, for /mutate-pods (inferenceservice/pod/pod-webhook.ts).
  const injections = new InjectionRegistry();
  const answerer = hookAnswerer({ config, metrics, logger, now, computed: (text) => injections.record(text) });
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

  const app = routingOnly();
  // The first layer, matched by its path here rather than by a route's pattern: express's route
  // matching, route dispatch and parameter decoding cost about 5 % of a cached answer (docs/development.md, "express").
  app.use(function hookRoute(req: Request, res: Response, next: NextFunction) {
    const path = pathOf(req);
    if (path !== '/hooks' && !path.startsWith('/hooks/')) return next();
    if (state.draining) res.setHeader('Connection', 'close');
    hooks(req, res, path);
  });
  // Reviews are read by anyone who can reach the port (no token): bounded per request and in all.
  const reviews: ReviewBudget = { limit: Math.min(sizeInBytes(config.bodyLimit), REVIEW_LIMIT), held: 0 };
  app.post('/mutate-pods', (req, res) => podWebhook(req, res, injections, reviews, logger));
  // MODELHOOKS_WEBHOOK_PORT (listen.ts): /mutate-pods alone, for the API server, which presents no client certificate.
  const webhookApp = routingOnly();
  webhookApp.post('/mutate-pods', (req, res) => podWebhook(req, res, injections, reviews, logger));
  webhookApp.use((_req: Request, res: Response) => sendText(res, 404, 'not found'));
  app.locals.podWebhook = webhookApp;
  // With MODELHOOKS_METRICS_PORT set, the probes and /metrics are served there alone: the hook port serves only the hooks.
  if (config.metricsPort === 0) healthRoutes(app, metrics, state, logger);
  app.use((req: Request, res: Response) => {
    if (state.draining) res.setHeader('Connection', 'close');
    const path = pathOf(req);
    // Recorded for its log line (a refusal outside /hooks/ has no metric sample).
    writeText(res, recordExchange(res, path, 'unknown', 'unknown', bound, logger), 404, 'not_found', 'not found');
  });
  app.use(internalError(logger));
  return app;
}

/**
 * The routes the kubelet and Prometheus call, on their own: for MODELHOOKS_METRICS_PORT,
 * which stays plain HTTP without a client certificate or token when the hooks need them.
 */
export function createHealthApp(metrics: HookMetrics, state: ServerState, logger: Logger = createLogger('silent')): HookApp {
  const app = routingOnly();
  healthRoutes(app, metrics, state, logger);
  app.use((_req: Request, res: Response) => {
    if (state.draining) res.setHeader('Connection', 'close');
    sendText(res, 404, 'not found');
  });
  app.use(internalError(logger));
  return app;
}

/**
 * An express app that routes and does nothing else (settings fixed before its router exists),
 * whose `listen` makes its server with {@link expressObjects}.
 */
function routingOnly(): Express {
  const app = express();
  // Its request and response prototypes in their final place before anyone mounts the app or adds to them.
  expressObjects(app);
  app.disable('x-powered-by');
  // The hooks' ETags are the answer cache's (hooks/server/hook-answer.ts); express's would hash each body again.
  app.disable('etag');
  app.set('query parser', false);
  app.enable('case sensitive routing');
  const listen = (port?: number, host?: string, listening?: () => void) => http.createServer(expressObjects(app), app).listen(port, host, listening);
  app.listen = listen as Express['listen'];
  return app;
}

/** The request's path without its query, as sent (below the mount point when mounted). */
function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

function internalError(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    logger.error({ err, path: pathOf(req) }, 'request failed');
    if (res.headersSent) return next(err);
    sendText(res, 500, 'internal error; see the server log');
  };
}

/** An AdmissionReview of a Pod is at most the API server's request limit for one object (3 MiB) and usually some KB. */
const REVIEW_LIMIT = 3 * 1024 * 1024;
/** The bytes all reviews being read may hold at once: past it a review is answered 503 (the API server retries, or applies failurePolicy). */
const REVIEWS_IN_FLIGHT = 4 * REVIEW_LIMIT;

interface ReviewBudget {
  /** Bytes one review may have. */
  limit: number;
  /** Bytes held by the reviews being read. */
  held: number;
}

/**
 * POST /mutate-pods: the pod mutating webhook (deploy/components/pod-webhook), called by the API
 * server, which sends no token: an AdmissionReview in, its answer out (pod-webhook.ts admitPod).
 * Since anyone who reaches the port may send one, a review is bounded (REVIEW_LIMIT) and so are
 * the bytes of all reviews being read (REVIEWS_IN_FLIGHT): a client over either gets its answer
 * at once and its connection closed, and what it sent is let go.
 */
function podWebhook(req: IncomingMessage, res: http.ServerResponse, injections: InjectionRegistry, budget: ReviewBudget, logger: Logger): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  const refuse = (status: number, message: string) => {
    done = true;
    budget.held -= size;
    chunks.length = 0;
    res.setHeader('Connection', 'close');
    sendText(res, status, message);
    req.resume();
  };
  req.on('data', (chunk: Buffer) => {
    if (done) return;
    size += chunk.length;
    budget.held += chunk.length;
    if (size > budget.limit) return refuse(413, `request body too large: an AdmissionReview is at most ${budget.limit} bytes`);
    if (budget.held > REVIEWS_IN_FLIGHT) return refuse(503, 'too many AdmissionReviews being read at once; retry');
    chunks.push(chunk);
  });
  req.on('close', () => {
    if (!done) budget.held -= size;
    done = true;
  });
  req.on('end', () => {
    if (done) return;
    done = true;
    budget.held -= size;
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return sendText(res, 400, 'not JSON');
    }
    const answer = admitPod(body, injections);
    if (!answer.response.allowed) logger.info({ uid: answer.response.uid, status: answer.response.status }, 'pod refused');
    sendText(res, 200, JSON.stringify(answer), 'application/json');
  });
}

/** GET (and so HEAD) /healthz, /readyz and /metrics, with or without a trailing `/`. */
function healthRoutes(app: Express, metrics: HookMetrics, state: ServerState, logger: Logger): void {
  app.get('/healthz', (_req, res) => {
    if (state.draining) res.setHeader('Connection', 'close');
    sendText(res, 200, 'ok');
  });
  app.get('/readyz', (_req, res) => {
    if (state.draining) res.setHeader('Connection', 'close');
    sendText(res, state.draining ? 503 : 200, state.draining ? 'draining' : 'ok');
  });
  app.get('/metrics', (req, res) => {
    if (state.draining) res.setHeader('Connection', 'close');
    metrics.registry.metrics().then(
      (text) => sendText(res, 200, text, metrics.registry.contentType),
      (err: unknown) => {
        logger.error({ err, path: pathOf(req) }, 'request failed');
        sendText(res, 500, 'internal error; see the server log');
      },
    );
  });
}
