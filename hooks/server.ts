import { createHash } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { pino, type Logger } from 'pino';
import { AnswerCache } from './cache.js';
import type { ServerConfig } from './config.js';
import type { AnyComposition } from './kit/composition.js';
import { runHook } from './kit/protocol.js';
import { HOOK_NAMES, parseHookRequest, RequestShapeError, type HookName } from './kit/request.js';
import { createMetrics, type HookMetrics, type Outcome } from './metrics.js';

export interface AppOptions {
  compositions: AnyComposition<ServerConfig['hooks']>[];
  config: ServerConfig;
  logger?: Logger;
  metrics?: HookMetrics;
  /** The clock, injected so tests are repeatable; RFC 3339 to the second. */
  now?: () => string;
  /** Shared with the entry point: while draining, /readyz fails so no new work arrives. */
  state?: { draining: boolean };
}

interface CachedAnswer {
  body: string;
  etag: string;
}

const rfc3339Now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

export function createApp(options: AppOptions): express.Express {
  const { compositions, config } = options;
  const logger = options.logger ?? pino({ level: config.logLevel });
  const metrics = options.metrics ?? createMetrics();
  const now = options.now ?? rfc3339Now;
  const state = options.state ?? { draining: false };
  const byName = new Map(compositions.map((c) => [c.name, c]));
  const cache = new AnswerCache<CachedAnswer>(config.cacheEntries);

  const app = express();
  app.disable('x-powered-by');
  // We compute our own ETag from the answer; express's would hash the body a second time.
  app.set('etag', false);
  if (logger.isLevelEnabled('debug')) {
    app.use((req, res, next) => {
      if (req.path !== '/healthz' && req.path !== '/readyz' && req.path !== '/metrics') {
        res.on('finish', () => logger.debug({ method: req.method, path: req.path, status: res.statusCode }, 'request'));
      }
      next();
    });
  }

  app.get('/healthz', (_req, res) => void res.type('text/plain').send('ok'));
  app.get('/readyz', (_req, res) => void res.status(state.draining ? 503 : 200).type('text/plain').send(state.draining ? 'draining' : 'ok'));
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  const hookPath = '/hooks/:composition/:hook';
  app.post(hookPath, (req, res, next) => {
    const { composition, hook } = req.params as { composition: string; hook: string };
    if (!byName.has(composition)) return notFound(res, `unknown composition "${composition}"; known: ${[...byName.keys()].join(', ')}`);
    if (!HOOK_NAMES.includes(hook as HookName)) return notFound(res, `unknown hook "${hook}"; hooks are ${HOOK_NAMES.join(', ')}`);
    res.locals.start = process.hrtime.bigint();
    next();
  });
  app.post(hookPath, express.raw({ type: () => true, limit: config.bodyLimit }), (req: Request, res: Response) => {
    const name = req.params.composition as string;
    const hook = req.params.hook as HookName;
    const done = (outcome: Outcome) => observe(metrics, res, name, hook, outcome);
    const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const key = `${name}/${hook}/${sha256(raw)}`;
    const cached = cache.get(key);
    if (cached) return done(send(req, res, cached) ? 'not_modified' : 'cached');

    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch (err) {
      return done(badRequest(res, `body: malformed JSON (${(err as Error).message})`));
    }
    let request;
    try {
      request = parseHookRequest(body);
    } catch (err) {
      if (err instanceof RequestShapeError) return done(badRequest(res, err.message));
      throw err;
    }
    let answer: Record<string, unknown>;
    try {
      answer = runHook(byName.get(name) as AnyComposition<ServerConfig['hooks']>, hook, request, { now: now(), config: config.hooks });
    } catch (err) {
      const { namespace, name: parentName } = request.parent.metadata;
      logger.error({ err, composition: name, hook, parent: `${namespace ?? 'default'}/${parentName}` }, 'hook failed');
      res.status(500).type('text/plain').send('internal error in the hook; see the server log');
      return done('error');
    }
    const text = JSON.stringify(answer);
    const entry = { body: text, etag: `"${sha256(text).slice(0, 32)}"` };
    cache.set(key, entry);
    done(send(req, res, entry) ? 'not_modified' : 'ok');
  });

  app.use((_req: Request, res: Response) => notFound(res, 'not found'));
  app.use((err: Error & { type?: string; status?: number }, req: Request, res: Response, _next: NextFunction) => {
    const { composition = 'unknown', hook = 'unknown' } = (req.params ?? {}) as Record<string, string>;
    if (err.type === 'entity.too.large') {
      res.status(413).type('text/plain').send(`body: larger than the limit of ${config.bodyLimit} (MODELHOOKS_BODY_LIMIT)`);
      return observe(metrics, res, composition, hook, 'too_large');
    }
    if (err.status && err.status >= 400 && err.status < 500) {
      res.status(err.status).type('text/plain').send(`body: ${err.message}`);
      return observe(metrics, res, composition, hook, 'bad_request');
    }
    logger.error({ err, path: req.path }, 'request failed');
    res.status(500).type('text/plain').send('internal error; see the server log');
    observe(metrics, res, composition, hook, 'error');
  });

  return app;
}

/** Writes the answer, or 304 when the caller already holds it. Returns whether it was a 304. */
function send(req: Request, res: Response, answer: CachedAnswer): boolean {
  res.setHeader('ETag', answer.etag);
  const match = req.headers['if-none-match'];
  if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === answer.etag)) {
    res.status(304).end();
    return true;
  }
  res.status(200).type('application/json').send(answer.body);
  return false;
}

function badRequest(res: Response, message: string): Outcome {
  res.status(400).type('text/plain').send(message);
  return 'bad_request';
}

function notFound(res: Response, message: string): void {
  res.status(404).type('text/plain').send(message);
}

function observe(metrics: HookMetrics, res: Response, composition: string, hook: string, outcome: Outcome): void {
  const labels = { composition, hook, outcome };
  metrics.requests.inc(labels);
  const start = res.locals.start as bigint | undefined;
  if (start !== undefined) metrics.duration.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
}
