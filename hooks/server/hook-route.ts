/**
 * The two hook routes (`POST /hooks/<composition>/<sync|customize|finalize>`) answered with
 * plain node:http, before express's router: no prototype swap, no routing, no body-parser
 * stream. It takes only the common request — a known composition and hook on a plain path,
 * the bearer token right (when one is set), a Content-Length within the body limit, a JSON
 * Content-Type (or none) and no Content-Encoding — and hands everything else to express, which
 * answers it as it always did (401, 404, 413, 415, chunked or compressed bodies). Whatever it takes it answers exactly as
 * express's route would: the same hooks/server/hook-answer.ts writes both.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { bearerMatches, type TokenSource } from './auth.js';
import { type Exchange, recordHookExchange } from './exchange.js';
import { type HookAnswerer, writeText } from './hook-answer.js';
import type { AnyComposition } from '../kit/composition.js';
import type { HookName } from '../engine/request.js';
import type { BoundHookMetrics } from './metrics.js';
import type { ServerState } from './app.js';

/** A plain path: lower-case `hooks`, a composition name without escapes, a hook, an optional `/` and query. */
const DIRECT = /^\/hooks\/([a-z0-9][a-z0-9.-]*)\/(sync|customize|finalize)\/?(?:\?|$)/;

export interface DirectRouteOptions {
  byName: ReadonlyMap<string, AnyComposition>;
  answerer: HookAnswerer;
  metrics: BoundHookMetrics;
  logger: Logger;
  state: ServerState;
  token: TokenSource | undefined;
  /** The body limit in bytes (MODELHOOKS_BODY_LIMIT). */
  limit: number;
}

/**
 * Whether a request's Content-Type is JSON (`application/json` or `application/<x>+json`, any
 * parameters), as Metacontroller sends (pkg/hooks/webhook.go); a request without one is read
 * as JSON too, as it always was.
 */
export function isJsonType(type: string | undefined): boolean {
  if (type === undefined) return true;
  const media = (type.split(';')[0] as string).trim().toLowerCase();
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'));
}

/** Answers the request and returns true, or returns false and leaves it untouched for express. */
export type DirectRoute = (req: IncomingMessage, res: ServerResponse) => boolean;

export function directHookRoute(o: DirectRouteOptions): DirectRoute {
  return (req, res) => {
    if (req.method !== 'POST') return false;
    const url = req.url ?? '';
    const route = DIRECT.exec(url);
    if (route === null) return false;
    const composition = o.byName.get(route[1] as string);
    if (composition === undefined) return false;
    const headers = req.headers;
    if (headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    if (!isJsonType(headers['content-type'])) return false;
    const declared = headers['content-length'];
    if (declared === undefined) return false;
    const length = Number(declared);
    if (!(length <= o.limit)) return false;
    if (o.token && !bearerMatches(headers.authorization, o.token.current())) return false;

    if (o.state.draining) res.setHeader('Connection', 'close');
    const query = url.indexOf('?');
    const hook = route[2] as HookName;
    const exchange = recordHookExchange(res, query < 0 ? url : url.slice(0, query), composition.name, hook, o.metrics, o.logger);
    const reading: Reading = { o, res, exchange, composition, hook, ifNoneMatch: headers['if-none-match'], length, body: undefined, received: 0, finished: false };
    (req as Read)[READING] = reading;
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', onAborted);
    req.on('error', onAborted);
    return true;
  };
}

/**
 * A request being read: its body goes straight into one Buffer sized from its Content-Length
 * (a body that arrives in one piece, as most do, is kept as node delivered it: no copy). The
 * listeners are shared by every request (no closures per request); they find it on the request.
 */
interface Reading {
  o: DirectRouteOptions;
  res: ServerResponse;
  exchange: Exchange;
  composition: AnyComposition;
  hook: HookName;
  ifNoneMatch: string | undefined;
  length: number;
  body: Buffer | undefined;
  received: number;
  finished: boolean;
}
const READING = Symbol('modelhooks.reading');
type Read = IncomingMessage & { [READING]?: Reading };

function onData(this: Read, chunk: Buffer): void {
  const r = this[READING] as Reading;
  // Node's parser never delivers more than Content-Length; checked anyway, as a copy past the end would throw.
  if (r.finished || r.received + chunk.length > r.length) return void (r.received += chunk.length);
  if (r.received === 0 && chunk.length === r.length) r.body = chunk;
  else {
    if (r.body === undefined) r.body = Buffer.allocUnsafeSlow(r.length);
    chunk.copy(r.body, r.received);
  }
  r.received += chunk.length;
}

function onEnd(this: Read): void {
  const r = this[READING] as Reading;
  // Fewer bytes than Content-Length only if the client went away.
  if (r.received !== r.length) return done(r, undefined, 'request size did not match content length');
  done(r, r.body ?? EMPTY);
}

function onAborted(this: Read): void {
  done(this[READING] as Reading, undefined, 'request aborted');
}

const EMPTY = Buffer.alloc(0);

function done(r: Reading, raw: Buffer | undefined, problem?: string): void {
  if (r.finished) return;
  r.finished = true;
  const { o, res, exchange } = r;
  if (raw === undefined) return writeText(res, exchange, 400, 'bad_request', `body: ${problem}`);
  try {
    o.answerer.answer(res, exchange, r.composition, r.hook, raw, r.ifNoneMatch);
  } catch (err) {
    // What express's error handler does with an error thrown by a route.
    o.logger.error({ err, path: exchange.path }, 'request failed');
    if (!res.headersSent) writeText(res, exchange, 500, 'error', 'internal error; see the server log');
  }
}
