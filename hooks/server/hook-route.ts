/**
 * Every request under `/hooks/`, on plain node:http: the bearer token (401), the route
 * `POST /hooks/<composition>/<sync|customize|finalize>` with an optional `/` and query (404),
 * a JSON Content-Type or none (415), the body within MODELHOOKS_BODY_LIMIT (413; chunked,
 * gzip, deflate and br bodies are read too), then hooks/server/hook-answer.ts answers it.
 * Paths are matched as sent: lower-case, escapes not decoded (a composition name needs none).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Logger } from 'pino';
import { bearerMatches, type TokenSource } from './auth.js';
import { type Exchange, recordExchange } from './exchange.js';
import { type HookAnswerer, writeText } from './hook-answer.js';
import type { AnyComposition } from '../kit/composition.js';
import { HOOK_NAMES, type HookName } from '../engine/request.js';
import { parentIdentityOf, parentNamespaceOf } from '../engine/request-json.js';
import { ByteBudget, type ComputePool, FairQueue, type QueuedJob } from './admission.js';
import { builtinCompositions } from '../compositions.js';
import { authenticated } from './connections.js';
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
  /** The bytes of bodies in flight (MODELHOOKS_INFLIGHT_BYTES); absent: unbounded. */
  budget?: ByteBudget;
  /** Where read requests wait for their namespace's turn; absent: one without a bound per namespace. */
  queue?: FairQueue;
  /** Bytes a second a body must arrive at, on average after its first SLOW_GRACE_MS (MODELHOOKS_MIN_DATA_RATE); absent: no minimum. */
  minDataRate?: number;
  /** Worker threads for large requests of the built-in compositions (MODELHOOKS_COMPUTE_WORKERS); absent: all on the event loop. */
  pool?: ComputePool;
}

/** A request body from this size on is computed in the pool, when there is one: below it, posting it costs more than it saves. */
export const POOL_MIN_BYTES = 256 * 1024;
const BUILTIN = new Set<AnyComposition>(builtinCompositions);

/** A route's options with what its requests share: the budget, the queue, the bodies being read. */
interface Route extends HookRouteOptions {
  budget: ByteBudget;
  queue: FairQueue;
  minDataRate: number;
  /** Bodies being read, checked against the minimum rate once a second while there are any. */
  reading: Set<Reading>;
  timer: NodeJS.Timeout | undefined;
}

/**
 * The first bytes of a body refused for its size that are kept to name its parent in the log
 * line and metric (engine/request-json.ts parentIdentityOf): the controller, then the parent's
 * metadata, whose annotations may hold 256 KiB. Reserved in the budget; when it has no room, the
 * parent is not named.
 */
export const PREFIX_BYTES = 512 * 1024;

/** A body's first seconds are not held to the minimum rate (a connection's slow start, a client's pause). */
const SLOW_GRACE_MS = 2000;

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

export function hookRoute(options: HookRouteOptions): HookRoute {
  const o: Route = {
    ...options,
    budget: options.budget ?? new ByteBudget(Number.POSITIVE_INFINITY),
    queue: options.queue ?? new FairQueue(Number.POSITIVE_INFINITY),
    minDataRate: options.minDataRate ?? 0,
    reading: new Set(),
    timer: undefined,
  };
  // One queue: a pooled request waits in its namespace's queue until a worker is idle.
  const pool = o.pool;
  if (pool !== undefined) {
    o.queue.usePool(pool);
    pool.onIdle = () => o.queue.wake();
  }
  const known = [...o.byName.keys()].join(', ');
  return (req, res, path) => {
    const route = ROUTE.exec(path);
    const composition = route === null ? undefined : o.byName.get(route[1] as string);
    const hook = route !== null && HOOK_NAMES.includes(route[2] as HookName) ? (route[2] as HookName) : undefined;
    // Metric labels: only known compositions and hooks, `unknown` otherwise (bounded cardinality).
    const exchange = recordExchange(res, path, composition?.name ?? 'unknown', hook ?? 'unknown', o.metrics, o.logger);
    const headers = req.headers;
    if (o.token && bearerMatches(headers.authorization, o.token.current())) authenticated.add(req);
    else if (o.token) {
      // Refused before its body is read: the connection closes, so a client without the token cannot keep it busy sending one.
      if (headers['content-length'] !== undefined ? headers['content-length'] !== '0' : headers['transfer-encoding'] !== undefined) res.shouldKeepAlive = false;
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
  o: Route;
  res: ServerResponse;
  exchange: Exchange;
  composition: AnyComposition;
  hook: HookName;
  ifNoneMatch: string | undefined;
}

/**
 * A body being read, then waiting for its namespace's turn (it is the queue's job). With a
 * Content-Length (as Metacontroller sends) it goes straight into one Buffer of that size (a
 * body that arrives in one piece, as most do, is kept as node delivered it: no copy); without
 * one (chunked, or decompressed) into a list of chunks. The listeners are shared by every
 * request (no closures per request); they find it on the stream.
 */
class Reading implements QueuedJob {
  /** Bytes reserved in the budget: the Content-Length at once, or the bytes read so far. */
  bytes = 0;
  body: Buffer | undefined = undefined;
  chunks: Buffer[] | undefined;
  received = 0;
  /** Past the limit: the rest is read and dropped, then 413. */
  tooLarge = false;
  /** Past the limit: its first bytes (PREFIX_BYTES at most), to name its parent. */
  prefix: Buffer | undefined = undefined;
  prefixLength = 0;
  /** The body is read (or refused): no more data is taken. */
  finished = false;
  /** The whole body, while it waits for its turn. */
  raw: Buffer | undefined = undefined;
  /** The parent's namespace as the bytes say (engine/request-json.ts parentNamespaceOf). */
  namespace: string | undefined = undefined;
  /** Computed in the pool: it waits in the queue for an idle worker (admission.ts). */
  pooled = false;
  readonly started = performance.now();
  constructor(
    readonly target: Target,
    /** The Content-Length of an uncompressed body; undefined when unknown until the end. */
    readonly length: number | undefined,
  ) {
    this.chunks = length === undefined ? [] : undefined;
  }

  /** Its turn: answered, unless its client has gone meanwhile. */
  run(): void {
    const raw = this.raw;
    this.raw = undefined;
    const { o, res, exchange } = this.target;
    if (raw === undefined || res.destroyed || res.req.socket.destroyed) return release(this);
    exchange.bytes = raw.length;
    const { composition, hook, ifNoneMatch } = this.target;
    // The queue gives a pooled request its turn when a worker is idle.
    if (this.pooled && o.pool?.idle()) {
      const key = o.answerer.lookup(res, exchange, composition, hook, raw, ifNoneMatch);
      if (key === undefined) return;
      o.pool.run({
        composition: composition.name,
        hook,
        raw,
        now: o.answerer.now(),
        namespace: this.namespace,
        done: (computed) => {
          if (!res.destroyed && !res.headersSent) o.answerer.answerComputed(res, exchange, key, computed, ifNoneMatch);
        },
      });
      return;
    }
    try {
      o.answerer.answer(res, exchange, this.target.composition, this.target.hook, raw, this.target.ifNoneMatch, this.namespace);
    } catch (err) {
      o.logger.error({ err, path: exchange.path }, 'request failed');
      if (!res.headersSent) writeText(res, exchange, 500, 'error', 'internal error; see the server log');
    }
  }

  /** Shed from its queue to make room in the budget. */
  shed(): void {
    this.raw = undefined;
    overloaded(this, `the bytes in flight are at MODELHOOKS_INFLIGHT_BYTES and namespace ${this.namespace ?? '(unknown)'} holds the most of them; retry`);
  }
}
const READING = Symbol('modelhooks.reading');
type Read = Readable & { [READING]?: Reading };
type Answered = ServerResponse & { [READING]?: Reading };

const DECOMPRESSORS: Record<string, () => Readable & NodeJS.WritableStream> = { gzip: createGunzip, deflate: createInflate, br: createBrotliDecompress };

function read(req: IncomingMessage, target: Target): void {
  const { o, res } = target;
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  const declared = req.headers['content-length'];
  const length = encoding === 'identity' && declared !== undefined ? Number(declared) : undefined;
  const r = new Reading(target, length);
  (res as Answered)[READING] = r;
  res.once('close', onClosed);
  if (length !== undefined && length > o.limit) {
    r.tooLarge = true;
    if (encoding === 'identity') keepPrefix(r, undefined);
  }
  // Reserved before a byte is read: what does not fit is refused at once (a shed queued request may make room).
  else if (length !== undefined && length > 0 && !take(r, length)) {
    return overloaded(r, `${length} bytes would pass MODELHOOKS_INFLIGHT_BYTES (${o.budget.capacity} bytes of bodies in flight, ${o.budget.used} held); retry`);
  }
  (req as Read)[READING] = r;
  req.on('aborted', onAborted);
  req.on('error', onAborted);
  // A body over the limit is read to its end (then 413): held to the same rate.
  if (o.minDataRate > 0) watch(r);
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

/** Reserves `bytes` more for `r`, shedding queued requests of the heaviest namespace if that makes room. */
function take(r: Reading, bytes: number): boolean {
  const { budget, queue } = r.target.o;
  if (!budget.reserve(bytes) && !(queue.makeRoom(budget, bytes) && budget.reserve(bytes))) return false;
  r.bytes += bytes;
  return true;
}

function release(r: Reading): void {
  r.target.o.budget.release(r.bytes);
  r.bytes = 0;
  r.target.o.reading.delete(r);
}

function onClosed(this: Answered): void {
  const r = this[READING];
  if (r === undefined) return;
  r.raw = undefined;
  release(r);
}

/** 503 with Retry-After, at once; the connection closes (its body, if any, is not read). */
function overloaded(r: Reading, message: string): void {
  if (r.finished) return;
  r.finished = true;
  release(r);
  r.body = undefined;
  r.chunks = undefined;
  const { res, exchange } = r.target;
  if (res.headersSent) return;
  res.setHeader('Retry-After', '1');
  res.shouldKeepAlive = false;
  writeText(res, exchange, 503, 'overloaded', `body: ${message}`);
}

function watch(r: Reading): void {
  const o = r.target.o;
  o.reading.add(r);
  if (o.timer === undefined) o.timer = setInterval(checkRates, 1000, o).unref();
}

/** Closes each body that arrives slower than the minimum rate on average, after its grace. */
function checkRates(o: Route): void {
  const now = performance.now();
  for (const r of o.reading) {
    const late = now - r.started - SLOW_GRACE_MS;
    if (late > 0 && r.received < (o.minDataRate * late) / 1000) tooSlow(r);
  }
  if (o.reading.size === 0) {
    clearInterval(o.timer);
    o.timer = undefined;
  }
}

/** 408, and the connection closed: what the client still sends is not read. */
function tooSlow(r: Reading): void {
  r.finished = true;
  release(r);
  r.body = undefined;
  r.chunks = undefined;
  const { res, exchange, o } = r.target;
  res.shouldKeepAlive = false;
  res.once('finish', destroySocket);
  writeText(res, exchange, 408, 'bad_request', `body: arrived slower than ${o.minDataRate} bytes a second on average (MODELHOOKS_MIN_DATA_RATE)`);
}

function destroySocket(this: ServerResponse): void {
  this.req.socket.destroy();
}

function onData(this: Read, chunk: Buffer): void {
  const r = this[READING] as Reading;
  if (r.finished) return;
  const received = r.received + chunk.length;
  r.received = received;
  if (r.tooLarge) {
    if (r.prefix !== undefined) appendPrefix(r, chunk);
    return;
  }
  if (received > r.target.o.limit) return tooLarge(this, r, chunk);
  if (r.chunks !== undefined) {
    if (!take(r, chunk.length))
      return overloaded(r, `the bytes in flight reached MODELHOOKS_INFLIGHT_BYTES (${r.target.o.budget.capacity}) while this body was read; retry`);
    return void r.chunks.push(chunk);
  }
  const length = r.length as number;
  // Node's parser never delivers more than Content-Length; checked anyway, as a copy past the end would throw.
  if (received > length) return;
  if (received === chunk.length && chunk.length === length) r.body = chunk;
  else {
    if (r.body === undefined) r.body = Buffer.allocUnsafeSlow(length);
    chunk.copy(r.body, received - chunk.length);
  }
}

/**
 * Drops what was kept but its first bytes (to name the parent); a decompressed body stops
 * decompressing and the request is read to its end, then 413.
 */
function tooLarge(stream: Read, r: Reading, chunk: Buffer): void {
  r.tooLarge = true;
  const before = r.received - chunk.length;
  const held = r.chunks !== undefined ? Buffer.concat(r.chunks, Math.min(before, PREFIX_BYTES)) : r.body?.subarray(0, Math.min(before, PREFIX_BYTES));
  r.body = undefined;
  r.chunks = undefined;
  release(r);
  keepPrefix(r, held);
  if (r.prefix !== undefined) appendPrefix(r, chunk);
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

/** Starts keeping the first bytes of a body refused for its size, if the budget has room for them. */
function keepPrefix(r: Reading, held: Buffer | undefined): void {
  if (!r.target.o.budget.reserve(PREFIX_BYTES)) return;
  r.bytes += PREFIX_BYTES;
  r.prefix = Buffer.allocUnsafeSlow(PREFIX_BYTES);
  r.prefixLength = 0;
  if (held !== undefined) appendPrefix(r, held);
}

function appendPrefix(r: Reading, chunk: Buffer): void {
  const prefix = r.prefix as Buffer;
  if (r.prefixLength < PREFIX_BYTES) r.prefixLength += chunk.copy(prefix, r.prefixLength, 0, Math.min(chunk.length, PREFIX_BYTES - r.prefixLength));
}

/** A body refused for its size: its parent, as its first bytes name it, in the log line and the metric. */
function refusedForSize(r: Reading): void {
  const { namespace, name } = r.prefix === undefined ? { namespace: undefined, name: undefined } : parentIdentityOf(r.prefix.subarray(0, r.prefixLength));
  r.prefix = undefined;
  if (namespace !== undefined || name !== undefined) r.target.exchange.parent = `${namespace ?? '(unknown)'}/${name ?? '(unknown)'}`;
  r.target.o.metrics.tooLarge(namespace);
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

/** The body read (or refused): it waits for its namespace's turn (server/admission.ts FairQueue). */
function done(r: Reading, raw: Buffer | undefined, status?: number, problem?: string): void {
  if (r.finished) return;
  r.finished = true;
  const { o, res, exchange } = r.target;
  o.reading.delete(r);
  r.body = undefined;
  r.chunks = undefined;
  if (raw === undefined) {
    if (status === 413) refusedForSize(r);
    release(r);
    return writeText(res, exchange, status as number, status === 413 ? 'too_large' : 'bad_request', `body: ${problem}`);
  }
  r.raw = raw;
  r.namespace = parentNamespaceOf(raw);
  r.pooled = o.pool !== undefined && raw.length >= POOL_MIN_BYTES && BUILTIN.has(r.target.composition);
  if (!o.queue.submit(r.namespace ?? '', r)) {
    r.raw = undefined;
    r.finished = false;
    overloaded(
      r,
      `namespace ${r.namespace ?? '(unknown)'} has its share of requests waiting already (MODELHOOKS_NAMESPACE_QUEUE, or a quarter of MODELHOOKS_INFLIGHT_BYTES); retry`,
    );
  }
}
