/**
 * One request as the log line and the metrics see it: started when it arrives (on either
 * path: express's or the direct hook route), filled in while it is handled, recorded once
 * its response is finished.
 */
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { HOOK_NAMES, type HookName } from './kit/request.js';
import type { BoundHookMetrics, Outcome } from './metrics.js';

export interface Exchange {
  start: bigint;
  /** The path as it arrived, without the query (express rewrites req.path inside mounted middleware). */
  path: string;
  /** Metric labels: only known compositions and hooks, `unknown` otherwise (bounded cardinality). */
  composition: string;
  hook: string;
  parent?: string;
  outcome?: Outcome;
  reason?: string;
}

const HOOK_ROUTE = /^\/hooks\/([^/]+)\/([^/]+)\/?$/;

/** Labels come from the path itself: express has no params yet when a body error (413) is handled. */
export function startExchange(path: string, known: ReadonlyMap<string, unknown>): Exchange {
  const route = HOOK_ROUTE.exec(path);
  const composition = route && known.has(route[1] as string) ? (route[1] as string) : 'unknown';
  const hook = route && HOOK_NAMES.includes(route[2] as HookName) ? (route[2] as string) : 'unknown';
  return { start: process.hrtime.bigint(), path, composition, hook };
}

/** Starts the exchange of a request and records it when its response finishes. */
export function recordExchange(res: ServerResponse, path: string, known: ReadonlyMap<string, unknown>, metrics: BoundHookMetrics, logger: Logger): Exchange {
  const exchange = startExchange(path, known);
  res.on('finish', () => finish(res.statusCode, exchange, metrics, logger));
  return exchange;
}

/** One metric sample per hook request; one info line per answer that is not a success, or is an InvalidSpec. */
function finish(status: number, exchange: Exchange, metrics: BoundHookMetrics, logger: Logger): void {
  const seconds = Number(process.hrtime.bigint() - exchange.start) / 1e9;
  const isHookPath = exchange.path.startsWith('/hooks/');
  const outcome = exchange.outcome ?? outcomeOf(status);
  if (isHookPath) metrics.record(exchange.composition, exchange.hook, outcome, seconds);
  if (status >= 400 || outcome === 'invalid_spec') {
    logger.info(
      {
        ...(isHookPath ? { composition: exchange.composition, hook: exchange.hook } : { path: exchange.path }),
        ...(exchange.parent ? { parent: exchange.parent } : {}),
        outcome,
        reason: exchange.reason,
        status,
        durationMs: Math.round(seconds * 1e6) / 1e3,
      },
      outcome === 'invalid_spec' ? 'invalid spec' : 'request refused',
    );
  } else if (isHookPath && logger.isLevelEnabled('debug')) {
    logger.debug({ composition: exchange.composition, hook: exchange.hook, parent: exchange.parent, outcome, status }, 'request');
  }
}

export function outcomeOf(status: number): Outcome {
  if (status === 401) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 413) return 'too_large';
  if (status >= 500) return 'error';
  return status >= 400 ? 'bad_request' : 'ok';
}
