/**
 * A hook request body in, the answer out (hooks/server/hook-route.ts reads the request),
 * written with plain node:http calls. Per request: one SHA-256 of the body (the
 * cache key: the cache never holds a request body, which would cost more memory than the
 * digest costs CPU), and on a cache miss one JSON.parse (of the text less its managedFields
 * arrays: kit/request-json.ts), one JSON.stringify of the answer (less children it wrote before:
 * kit/answer-json.ts), one Buffer of it and one
 * SHA-256 of that Buffer (the ETag, so an answer that changes gets another one, the same on
 * every replica). The headers of an answer are built once, when it is stored.
 */
import { hash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { AnswerCache } from './cache.js';
import type { ServerConfig } from './config.js';
import type { Exchange } from './exchange.js';
import type { AnyComposition } from '../kit/composition.js';
import { setMemoBytes } from '../kit/memo-budget.js';
import { computeAnswer, type Computed } from '../engine/compute.js';
import type { HookName } from '../engine/request.js';
import type { HookMetrics, Outcome } from './metrics.js';

export interface CachedAnswer {
  /** The answer's JSON as bytes: written as it is, no conversion per request. */
  body: Buffer;
  etag: string;
  /**
   * The headers of the 200 (ETag, Content-Type, Content-Length) and of the 304 (ETag), as writeHead takes them: built
   * with the entry, so a hit builds no header object (part of the answer cache's figures below, not measured on its own).
   */
  headers: string[];
  notModifiedHeaders: string[];
  /** `namespace/name` of the parent, for the log. */
  parent: string;
  /** The Ready message of an InvalidSpec answer. */
  invalidSpec: string | undefined;
}

export interface HookAnswerer {
  /** `namespace`: the parent's, as the queue read it from the bytes (server/admission.ts); the parsed one must be the same. */
  answer(
    res: ServerResponse,
    exchange: Exchange,
    composition: AnyComposition,
    hook: HookName,
    raw: Buffer,
    ifNoneMatch: string | undefined,
    namespace?: string,
  ): void;
  /** Answers from the cache and returns undefined, or returns the request's cache key (a miss, nothing written). */
  lookup(
    res: ServerResponse,
    exchange: Exchange,
    composition: AnyComposition,
    hook: HookName,
    raw: Buffer,
    ifNoneMatch: string | undefined,
  ): string | undefined;
  /** The time a hook sees (RFC 3339), for a compute done elsewhere. */
  now(): string;
  /** Writes what a worker computed for the request of cache key `key` (hook-route.ts). */
  answerComputed(res: ServerResponse, exchange: Exchange, key: string, computed: Computed, ifNoneMatch: string | undefined): void;
  readonly cache: AnswerCache<CachedAnswer>;
}

const TEXT = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/** The cache key of a request body: its SHA-256 (a one-shot hash, no Hash object left for the collector). */
export const digestOf = (raw: Buffer): string => hash('sha256', raw, 'base64');

export function hookAnswerer(o: {
  config: ServerConfig;
  metrics: HookMetrics;
  logger: Logger;
  now: () => string;
  /** Sees each answer computed (not those from the cache, seen when computed): the pod webhook's registry (app.ts). */
  computed?: (text: string) => void;
}): HookAnswerer {
  // Pays where the kit's memos do not (npm run bench, 4 runs: canary computed 1,248–1,730 µs/request, cached 186–289; memos held:
  // ~130–240 either way) and at the live tier's steady state (1,297 of 1,449 syncs answered from it: README "System figures").
  const cache = new AnswerCache<CachedAnswer>(o.config.cacheEntries, o.config.cacheBytes, answerBytes);
  // The memos are the kit's (module-level, shared by every app in the process): the server's setting bounds them.
  setMemoBytes(o.config.memoBytes);
  const hooksConfig = o.config.hooks;
  return {
    cache,
    now: o.now,
    lookup,
    answer(res, exchange, composition, hook, raw, ifNoneMatch, namespace) {
      const key = lookup(res, exchange, composition, hook, raw, ifNoneMatch);
      if (key === undefined) return;

      const computed = computeAnswer(composition, hook, raw, { now: o.now(), config: hooksConfig, namespaceSelector: o.config.namespaceSelector }, namespace);
      answerComputed(res, exchange, key, computed, ifNoneMatch);
    },
    answerComputed,
  };

  function lookup(res: ServerResponse, exchange: Exchange, composition: AnyComposition, hook: HookName, raw: Buffer, ifNoneMatch: string | undefined) {
    const key = `${composition.name}/${hook}/${digestOf(raw)}`;
    const cached = cache.get(key);
    if (cached === undefined) return key;
    writeAnswer(res, exchange, cached, ifNoneMatch, 'cached');
    return undefined;
  }

  /** Writes what was computed (here or in a worker: server/admission.ts ComputePool) and keeps an answer in the cache. */
  function answerComputed(res: ServerResponse, exchange: Exchange, key: string, computed: Computed, ifNoneMatch: string | undefined): void {
    if (computed.kind === 'refused') return writeText(res, exchange, 400, 'bad_request', computed.message);
    exchange.parent = computed.parent;
    if (computed.kind === 'error') {
      o.logger.error({ err: computed.error, composition: exchange.composition, hook: exchange.hook, parent: computed.parent }, 'hook failed');
      return writeText(res, exchange, 500, 'error', 'internal error in the hook; see the server log');
    }
    const { text, parent, invalidSpec } = computed;
    o.computed?.(text);
    // Its own memory, exactly its size: a small Buffer.from would share (and keep) an 8 KiB pool slab.
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
    bytes.write(text);
    const etag = `"${hash('sha256', bytes, 'hex').slice(0, 32)}"`;
    const entry: CachedAnswer = {
      body: bytes,
      etag,
      headers: ['ETag', etag, 'Content-Type', JSON_TYPE, 'Content-Length', String(bytes.length)],
      notModifiedHeaders: ['ETag', etag],
      parent,
      invalidSpec,
    };
    cache.set(key, entry);
    o.metrics.cacheBytes.set(cache.bytes);
    o.metrics.cacheEntries.set(cache.size);
    writeAnswer(res, exchange, entry, ifNoneMatch, 'ok');
  }
}

/** A plain-text refusal; records its outcome and reason. */
export function writeText(res: ServerResponse, exchange: Exchange, status: number, outcome: Outcome, message: string): void {
  exchange.outcome = outcome;
  exchange.reason = message;
  sendText(res, status, message);
}

/** A plain-text answer: Content-Type, Content-Length and the text (none for HEAD: node leaves it out). */
export function sendText(res: ServerResponse, status: number, message: string, type = TEXT): void {
  res.statusCode = status;
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', String(Buffer.byteLength(message)));
  res.end(message);
}

/** Writes the answer, or 304 when the caller already holds it. */
function writeAnswer(res: ServerResponse, exchange: Exchange, entry: CachedAnswer, match: string | undefined, fresh: 'ok' | 'cached'): void {
  const notModified = match !== undefined && match !== '' && matchesEtag(match, entry.etag);
  exchange.outcome = entry.invalidSpec !== undefined ? 'invalid_spec' : notModified ? (fresh === 'cached' ? 'not_modified' : 'computed_not_modified') : fresh;
  if (entry.invalidSpec !== undefined) exchange.reason = entry.invalidSpec;
  exchange.parent = entry.parent;
  // writeHead with the stored list: no header object per request (headers set before, such
  // as Connection: close while draining, come first, as they did with setHeader).
  if (notModified) {
    res.writeHead(304, entry.notModifiedHeaders);
    res.end();
    return;
  }
  res.writeHead(200, entry.headers);
  res.end(entry.body);
}

/** Whether an If-None-Match list (`"a", W/"b"`) holds the ETag; weak tags match too. */
export function matchesEtag(match: string, etag: string): boolean {
  if (match === etag) return true;
  for (const part of match.split(',')) {
    const tag = part.trim();
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}

/**
 * Bytes an entry holds: the answer's bytes, and its strings at
 * one byte per character (two if any is beyond Latin-1; the header lists count their ETag
 * and Content-Length again).
 */
export function answerBytes(key: string, entry: CachedAnswer): number {
  const chars = (s: string) => (/[^\u0000-\u00ff]/.test(s) ? 2 : 1) * s.length;
  const strings = chars(key) + 3 * entry.etag.length + 16 + chars(entry.parent) + (entry.invalidSpec ? chars(entry.invalidSpec) : 0);
  return entry.body.length + strings + 256;
}
