/**
 * The two hook routes (`POST /hooks/<composition>/<sync|customize|finalize>`) answered with
 * plain node:http, before express's router: no prototype swap, no routing, no body-parser
 * stream. It takes only the common request — a known composition and hook on a plain path,
 * the bearer token right (when one is set), a Content-Length within the body limit and no
 * Content-Encoding — and hands everything else to express, which answers it as it always
 * did (401, 404, 413, chunked or compressed bodies). Whatever it takes it answers exactly as
 * express's route would: the same hooks/hook-answer.ts writes both.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { bearerMatches, type TokenSource } from './auth.js';
import { recordExchange } from './exchange.js';
import { type HookAnswerer, writeText } from './hook-answer.js';
import type { AnyComposition } from './kit/composition.js';
import type { HookName } from './kit/request.js';
import type { BoundHookMetrics } from './metrics.js';
import type { ServerState } from './server.js';

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
    const declared = headers['content-length'];
    if (declared === undefined) return false;
    const length = Number(declared);
    if (!(length <= o.limit)) return false;
    if (o.token && !bearerMatches(headers.authorization, o.token.current())) return false;

    if (o.state.draining) res.setHeader('Connection', 'close');
    const query = url.indexOf('?');
    const exchange = recordExchange(res, query < 0 ? url : url.slice(0, query), o.byName, o.metrics, o.logger);
    const hook = route[2] as HookName;
    const ifNoneMatch = headers['if-none-match'];
    readBody(req, length, (raw, problem) => {
      if (raw === undefined) return writeText(res, exchange, 400, 'bad_request', `body: ${problem}`);
      try {
        o.answerer.answer(res, exchange, composition, hook, raw, ifNoneMatch);
      } catch (err) {
        // What express's error handler does with an error thrown by a route.
        o.logger.error({ err, path: exchange.path }, 'request failed');
        if (!res.headersSent) writeText(res, exchange, 500, 'error', 'internal error; see the server log');
      }
    });
    return true;
  };
}

/** The body of a request with a Content-Length: one Buffer, copied once only if it came in several chunks. */
function readBody(req: IncomingMessage, length: number, done: (raw: Buffer | undefined, problem?: string) => void): void {
  const chunks: Buffer[] = [];
  let received = 0;
  let finished = false;
  const end = (raw: Buffer | undefined, problem?: string) => {
    if (finished) return;
    finished = true;
    done(raw, problem);
  };
  req.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    received += chunk.length;
  });
  req.on('end', () => {
    // Node's parser never delivers more than Content-Length; fewer only if the client went away.
    if (received !== length) return end(undefined, 'request size did not match content length');
    end(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received));
  });
  req.on('aborted', () => end(undefined, 'request aborted'));
  req.on('error', () => end(undefined, 'request aborted'));
}
