/**
 * One request as the log line and the metrics see it: started when it arrives, filled in
 * while it is handled, recorded once its response is finished. Per request it is one object and one 'finish' listener shared by
 * every response (no closure), with the time as a plain number (no BigInt).
 */
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { BoundHookMetrics, Outcome } from './metrics.js';

export interface Exchange {
  /** performance.now() when it arrived, in milliseconds. */
  start: number;
  /** The path as it arrived, without the query. */
  path: string;
  /** Metric labels: only known compositions and hooks, `unknown` otherwise (bounded cardinality). */
  composition: string;
  hook: string;
  parent: string | undefined;
  /** The request body's bytes, once read (the debug line says them: how much a sync carries). */
  bytes: number | undefined;
  outcome: Outcome | undefined;
  reason: string | undefined;
  /** Where it is recorded when its response finishes. */
  metrics: BoundHookMetrics;
  logger: Logger;
}

/** The exchange of a response, for the shared 'finish' listener. */
const EXCHANGE = Symbol('modelhooks.exchange');
type Recorded = ServerResponse & { [EXCHANGE]?: Exchange };

/** Starts the exchange of a request, its metric labels given, and records it when its response finishes. */
export function recordExchange(res: ServerResponse, path: string, composition: string, hook: string, metrics: BoundHookMetrics, logger: Logger): Exchange {
  const exchange: Exchange = {
    start: performance.now(),
    path,
    composition,
    hook,
    parent: undefined,
    bytes: undefined,
    outcome: undefined,
    reason: undefined,
    metrics,
    logger,
  };
  (res as Recorded)[EXCHANGE] = exchange;
  res.on('finish', onFinish);
  return exchange;
}

function onFinish(this: Recorded): void {
  const exchange = this[EXCHANGE];
  if (exchange !== undefined) finish(this.statusCode, exchange);
}

/** One metric sample per hook request; one info line per answer that is not a success, or is an InvalidSpec. */
function finish(status: number, exchange: Exchange): void {
  const { metrics, logger } = exchange;
  const seconds = (performance.now() - exchange.start) / 1e3;
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
    logger.debug({ composition: exchange.composition, hook: exchange.hook, parent: exchange.parent, bytes: exchange.bytes, outcome, status }, 'request');
  }
}

export function outcomeOf(status: number): Outcome {
  if (status === 401) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 413) return 'too_large';
  if (status === 503) return 'overloaded';
  if (status >= 500) return 'error';
  return status >= 400 ? 'bad_request' : 'ok';
}
