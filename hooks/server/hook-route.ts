/**
 * Every request under `/hooks/`, on plain node:http: the bearer token (401), the route
 * `POST /hooks/<composition>/<sync|customize|finalize>` with an optional `/` and query (404),
 * a JSON Content-Type or none (415), the body within MODELHOOKS_BODY_LIMIT (413; chunked,
 * gzip, deflate and br bodies are read too), then hooks/server/hook-answer.ts answers it.
 * Paths are matched as sent: lower-case, escapes not decoded (a composition name needs none).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Logger } from 'pino';
import { bearerMatches, type TokenSource } from './auth.js';
import { type Exchange, recordExchange } from './exchange.js';
import { type HookAnswerer, writeText } from './hook-answer.js';
import type { AnyComposition } from '../kit/composition.js';
import { HOOK_NAMES, type HookName } from '../engine/request.js';
import type { BoundHookMetrics } from './metrics.js';

/** `/hooks/<composition>/<hook>`, an optional trailing `/` (the query is cut off before). */
const ROUTE = /^\/hooks\/([^/]+)\/([^/]+)\/?$/;

export interface HookRouteOptions {
  byName: ReadonlyMap<string, AnyComposition>;
  answerer: HookAnswerer;
  metrics: BoundHookMetrics;
  logger: Logger;
  token: TokenSource | undefined;
  /** The body limit in bytes, and as configured (MODELHOOKS_BODY_LIMIT), for the 413's message. */
  limit: number;
  limitText: string;
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

/**
 * What to do about a form type: `curl -d` sends application/x-www-form-urlencoded unless told
 * otherwise. It stays a 415, never read as JSON: a browser may POST a form type to any origin
 * without a CORS preflight, application/json only after one, so a JSON-only hook cannot be
 * driven by a page a cluster user visits (cross-site request forgery).
 */
function formHint(type: string | undefined): string {
  return type?.toLowerCase().startsWith('application/x-www-form-urlencoded') ? " (curl -d sends a form type: add -H 'Content-Type: application/json')" : '';
}

/** Answers a request whose path (without its query) is `/hooks` or under `/hooks/`. */
export type HookRoute = (req: IncomingMessage, res: ServerResponse, path: string) => void;

export function hookRoute(o: HookRouteOptions): HookRoute {
  const known = [...o.byName.keys()].join(', ');
  return (req, res, path) => {
    const route = ROUTE.exec(path);
    const composition = route === null ? undefined : o.byName.get(route[1] as string);
    const hook = route !== null && HOOK_NAMES.includes(route[2] as HookName) ? (route[2] as HookName) : undefined;
    // Metric labels: only known compositions and hooks, `unknown` otherwise (bounded cardinality).
    const exchange = recordExchange(res, path, composition?.name ?? 'unknown', hook ?? 'unknown', o.metrics, o.logger);
    const headers = req.headers;
    if (o.token && !bearerMatches(headers.authorization, o.token.current())) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return writeText(res, exchange, 401, 'unauthorized', 'a bearer token is required (MODELHOOKS_TOKEN_FILE)');
    }
    if (req.method !== 'POST' || route === null) return writeText(res, exchange, 404, 'not_found', 'not found');
    if (composition === undefined) return writeText(res, exchange, 404, 'not_found', `unknown composition "${route[1]}"; known: ${known}`);
    if (hook === undefined) return writeText(res, exchange, 404, 'not_found', `unknown hook "${route[2]}"; hooks are ${HOOK_NAMES.join(', ')}`);
    const type = headers['content-type'];
    if (!isJsonType(type))
      return writeText(res, exchange, 415, 'bad_request', `body: Content-Type ${type} is not JSON; hooks take application/json${formHint(type)}`);
    read(req, { o, res, exchange, composition, hook, ifNoneMatch: headers['if-none-match'] });
  };
}

/** What answering a request needs once its body is read. */
interface Target {
  o: HookRouteOptions;
  res: ServerResponse;
  exchange: Exchange;
  composition: AnyComposition;
  hook: HookName;
  ifNoneMatch: string | undefined;
}

/**
 * A body being read. With a Content-Length (as Metacontroller sends) it goes straight into
 * one Buffer of that size (a body that arrives in one piece, as most do, is kept as node
 * delivered it: no copy); without one (chunked, or decompressed) into a list of chunks. The
 * listeners are shared by every request (no closures per request); they find it on the stream.
 */
interface Reading {
  target: Target;
  /** The Content-Length of an uncompressed body; undefined when unknown until the end. */
  length: number | undefined;
  body: Buffer | undefined;
  chunks: Buffer[] | undefined;
  received: number;
  /** Past the limit: the rest is read and dropped, then 413. */
  tooLarge: boolean;
  finished: boolean;
}
const READING = Symbol('modelhooks.reading');
type Read = Readable & { [READING]?: Reading };

const DECOMPRESSORS: Record<string, () => Readable & NodeJS.WritableStream> = { gzip: createGunzip, deflate: createInflate, br: createBrotliDecompress };

function read(req: IncomingMessage, target: Target): void {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  const declared = req.headers['content-length'];
  const length = encoding === 'identity' && declared !== undefined ? Number(declared) : undefined;
  const r: Reading = { target, length, body: undefined, chunks: length === undefined ? [] : undefined, received: 0, tooLarge: false, finished: false };
  if (length !== undefined && length > target.o.limit) r.tooLarge = true;
  (req as Read)[READING] = r;
  req.on('aborted', onAborted);
  req.on('error', onAborted);
  if (encoding === 'identity') {
    req.on('data', onData);
    req.on('end', onEnd);
    return;
  }
  const decompressor = DECOMPRESSORS[encoding];
  if (decompressor === undefined) return done(r, undefined, 415, `unsupported content encoding "${encoding}"`);
  const inflated = decompressor() as unknown as Read;
  inflated[READING] = r;
  inflated.on('data', onData);
  inflated.on('end', onEnd);
  inflated.on('error', onInflateError);
  req.pipe(inflated as unknown as NodeJS.WritableStream);
}

function onData(this: Read, chunk: Buffer): void {
  const r = this[READING] as Reading;
  if (r.finished) return;
  const received = r.received + chunk.length;
  r.received = received;
  if (r.tooLarge) return;
  if (received > r.target.o.limit) return tooLarge(this, r);
  if (r.chunks !== undefined) return void r.chunks.push(chunk);
  const length = r.length as number;
  // Node's parser never delivers more than Content-Length; checked anyway, as a copy past the end would throw.
  if (received > length) return;
  if (received === chunk.length && chunk.length === length) r.body = chunk;
  else {
    if (r.body === undefined) r.body = Buffer.allocUnsafeSlow(length);
    chunk.copy(r.body, received - chunk.length);
  }
}

/** Drops what was kept; a decompressed body stops decompressing and the request is read to its end, then 413. */
function tooLarge(stream: Read, r: Reading): void {
  r.tooLarge = true;
  r.body = undefined;
  r.chunks = undefined;
  const req = r.target.res.req as Read;
  if (stream === req) return;
  req.unpipe(stream as unknown as NodeJS.WritableStream);
  stream.destroy();
  if (req.readableEnded) return done(r, undefined, 413, tooLargeMessage(r));
  req.on('end', onEnd);
  req.resume();
}

function onEnd(this: Read): void {
  const r = this[READING] as Reading;
  if (r.tooLarge) return done(r, undefined, 413, tooLargeMessage(r));
  // Fewer bytes than Content-Length only if the client went away.
  if (r.length !== undefined && r.received !== r.length) return done(r, undefined, 400, 'request size did not match content length');
  done(r, r.chunks === undefined ? (r.body ?? EMPTY) : Buffer.concat(r.chunks, r.received));
}

const tooLargeMessage = (r: Reading) => `larger than the limit of ${r.target.o.limitText} (MODELHOOKS_BODY_LIMIT)`;

function onAborted(this: Read): void {
  done(this[READING] as Reading, undefined, 400, 'request aborted');
}

function onInflateError(this: Read, err: Error): void {
  const r = this[READING] as Reading;
  (r.target.res.req as Read).unpipe(this as unknown as NodeJS.WritableStream);
  done(r, undefined, 400, err.message);
}

const EMPTY = Buffer.alloc(0);

function done(r: Reading, raw: Buffer | undefined, status?: number, problem?: string): void {
  if (r.finished) return;
  r.finished = true;
  const { o, res, exchange } = r.target;
  if (raw === undefined) return writeText(res, exchange, status as number, status === 413 ? 'too_large' : 'bad_request', `body: ${problem}`);
  try {
    o.answerer.answer(res, exchange, r.target.composition, r.target.hook, raw, r.target.ifNoneMatch);
  } catch (err) {
    o.logger.error({ err, path: exchange.path }, 'request failed');
    if (!res.headersSent) writeText(res, exchange, 500, 'error', 'internal error; see the server log');
  }
}
