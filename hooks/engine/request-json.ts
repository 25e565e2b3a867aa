/**
 * A Metacontroller request body parsed without `metadata.managedFields`. Metacontroller sends
 * every object as its informer holds it, server-side apply's bookkeeping included: a quarter
 * of a typical sync request's bytes and, being objects with a different set of keys each
 * (`f:metadata`, `f:labels`, …), about half of what JSON.parse spends on it. No hook reads
 * them (Metacontroller itself puts a child's own back whatever the answer says:
 * pkg/controller/common/manage_children.go, objectMetaSystemFields), so, as controller-runtime's
 * cache.TransformStripManagedFields does for its informers, they are dropped before any hook
 * sees the request.
 *
 * Dropped without parsing them: each `"managedFields": [...]` in the text is checked to be a
 * well-formed JSON array and stands as a short string in the text JSON.parse reads. Exactly the
 * `metadata.managedFields` of the objects a request carries (the controller, the parent, each
 * child and related object) go: they read undefined. Should a placeholder land anywhere else
 * (a CRD field of that name), the whole text is parsed again as it came. A malformed body
 * throws JSON.parse's own error for the text as it came.
 */
import { randomUUID } from 'node:crypto';
import { isRecord } from '../kit/types.js';

/** A `managedFields` key, as bytes. */
const NAME = Buffer.from('"managedFields"');
/**
 * What an array stands as in the text JSON.parse reads: a string no client can send, as it
 * holds a random UUID drawn when the process starts, which never leaves it (each one is
 * undefined before any hook runs). A value a client could send (say, `0`) would let a forged
 * metadata.managedFields make up the count for an array cut from another field.
 */
const PLACEHOLDER = `managedFields cut ${randomUUID()}`;
const PLACEHOLDER_JSON = Buffer.from(JSON.stringify(PLACEHOLDER));

/**
 * The body as JSON.parse reads it, with no object's metadata.managedFields. Worked on the
 * bytes: the only string made is the one JSON.parse reads (a request of a few hundred KB
 * makes its strings in the old generation, where each one more costs a full collection sooner).
 */
export function parseRequestJson(raw: Buffer): unknown {
  const arrays = managedFieldsArrays(raw);
  if (arrays.length > 0) {
    let body: unknown;
    try {
      body = JSON.parse(withPlaceholders(raw, arrays));
    } catch {
      // Malformed elsewhere: the text as it came says where.
      body = undefined;
    }
    if (body !== undefined && dropManagedFields(body) === arrays.length / 2) return body;
  }
  const body: unknown = JSON.parse(raw.toString('utf8'));
  dropManagedFields(body);
  return body;
}

/** parseRequestJson of a text. */
export function parseRequestText(text: string): unknown {
  return parseRequestJson(Buffer.from(text));
}

/**
 * Sets metadata.managedFields of the controller, the parent and every child and related
 * object to undefined (read, spread or serialised, it is as if absent; a `delete` would turn
 * each metadata object into a slower dictionary); returns how many of them held the placeholder.
 */
function dropManagedFields(body: unknown): number {
  if (!isRecord(body)) return 0;
  let placeholders = dropFrom(body.controller) + dropFrom(body.parent);
  for (const map of [body.children, body.related]) {
    if (!isRecord(map)) continue;
    for (const type of Object.keys(map)) {
      const group = map[type];
      if (!isRecord(group)) continue;
      for (const key of Object.keys(group)) placeholders += dropFrom(group[key]);
    }
  }
  return placeholders;
}

function dropFrom(obj: unknown): number {
  if (!isRecord(obj) || !isRecord(obj.metadata) || obj.metadata.managedFields === undefined) return 0;
  const held = obj.metadata.managedFields === PLACEHOLDER ? 1 : 0;
  obj.metadata.managedFields = undefined;
  return held;
}

/** The text with each array (start and end offsets, in pairs) replaced by the placeholder: one copy of the bytes, one string. */
function withPlaceholders(raw: Buffer, arrays: number[]): string {
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < arrays.length; i += 2) {
    parts.push(raw.subarray(from, arrays[i]), PLACEHOLDER_JSON);
    from = arrays[i + 1] as number;
  }
  parts.push(raw.subarray(from));
  return Buffer.concat(parts).toString('utf8');
}

/**
 * Start and end offsets (in pairs) of the value of every `"managedFields":` key whose value is
 * an array, in order; none at all when one of them is not well-formed JSON. A match is a key
 * only where its quote follows `{` or `,`: inside a string a quote is escaped, so in a valid
 * body that never happens elsewhere (and an invalid one is parsed whole, which says so).
 */
export function managedFieldsArrays(raw: Buffer): number[] {
  const found: number[] = [];
  for (let p = raw.indexOf(NAME); p >= 0; p = raw.indexOf(NAME, p + 1)) {
    let before = p - 1;
    while (before >= 0 && isSpace(raw[before] as number)) before--;
    if (raw[before] !== LBRACE && raw[before] !== COMMA) continue;
    let i = skipSpace(raw, p + NAME.length);
    if (raw[i] !== COLON) continue;
    i = skipSpace(raw, i + 1);
    if (raw[i] !== LBRACKET) continue;
    const end = knownArrayEnd(raw, i) ?? checkedArrayEnd(raw, i);
    if (end < 0) return [];
    found.push(i, end);
    p = end - 1;
  }
  return found;
}

/**
 * Arrays found well-formed before, by their first bytes: a parent's, a child's or the
 * controller's managedFields come again, byte for byte, in sync after sync until that object
 * is written. A well-formed array ends where its own bytes say, whatever follows it, so where
 * the bytes at `i` begin with exactly those of an array checked before (compared whole, never
 * by a hash), that array is well-formed and ends as far on: checking it again in JS cost
 * ~2.5 ns a byte, comparing it costs a memcmp. Bounded: KNOWN_BYTES in all, each array
 * counted with its prefix key and ENTRY_OVERHEAD (so many tiny arrays, `[]` in a thousand
 * contexts, are bounded too; then it starts over), at most KNOWN_PER_PREFIX arrays per prefix
 * (many begin alike: the same manager, the same operation), none longer than KNOWN_BYTES / 64.
 */
const known = new Map<string, Buffer[]>();
let knownBytes = 0;
const PREFIX = 128;
const KNOWN_PER_PREFIX = 16;
const KNOWN_BYTES = 4 * 1024 * 1024;
/** What the Map entry, the Buffer object and the list around an array's bytes cost, roughly. */
const ENTRY_OVERHEAD = 128;
const costOf = (length: number) => length + PREFIX + ENTRY_OVERHEAD;

const prefixAt = (b: Buffer, i: number) => b.toString('latin1', i, Math.min(i + PREFIX, b.length));

/** Where the array at `i` ends, if its bytes are exactly those of one checked before. */
function knownArrayEnd(b: Buffer, i: number): number | undefined {
  const candidates = known.get(prefixAt(b, i));
  if (candidates === undefined) return undefined;
  for (const c of candidates) if (i + c.length <= b.length && b.compare(c, 0, c.length, i, i + c.length) === 0) return i + c.length;
  return undefined;
}

/** valueEnd, remembering a well-formed array's bytes (a copy: the request's own go with the request). */
function checkedArrayEnd(b: Buffer, i: number): number {
  const end = valueEnd(b, i);
  const length = end - i;
  if (end < 0 || length > KNOWN_BYTES / 64) return end;
  if (knownBytes + costOf(length) > KNOWN_BYTES) {
    known.clear();
    knownBytes = 0;
  }
  const prefix = prefixAt(b, i);
  let candidates = known.get(prefix);
  if (candidates === undefined) known.set(prefix, (candidates = []));
  if (candidates.length >= KNOWN_PER_PREFIX) {
    for (const c of candidates) knownBytes -= costOf(c.length);
    candidates.length = 0;
  }
  // Its own memory, exactly its size: a small Buffer.from would share (and keep) an 8 KiB pool slab.
  const copy = Buffer.allocUnsafeSlow(length);
  b.copy(copy, 0, i, end);
  candidates.push(copy);
  knownBytes += costOf(length);
  return end;
}

function skipSpace(b: Buffer, i: number): number {
  while (i < b.length && isSpace(b[i] as number)) i++;
  return i;
}

// Bytes.
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const PLUS = 0x2b;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const COLON = 0x3a;
const E_UPPER = 0x45;
const LBRACKET = 0x5b;
const BACKSLASH = 0x5c;
const RBRACKET = 0x5d;
const E_LOWER = 0x65;
const U = 0x75;
const LBRACE = 0x7b;
const RBRACE = 0x7d;

/** Nesting deeper than this is left to JSON.parse (managedFields nest a dozen levels). */
const MAX_DEPTH = 128;

// What may come next inside valueEnd.
const VALUE = 0;
const VALUE_OR_CLOSE = 1;
const KEY = 2;
const KEY_OR_CLOSE = 3;
const COLON_NEXT = 4;
const COMMA_OR_CLOSE = 5;

/**
 * The offset just past the JSON array or object at `i`, or -1 if it is not well-formed JSON
 * (or nests deeper than MAX_DEPTH). One loop over the bytes with a stack of open brackets:
 * managedFields are mostly short keys and empty objects, so a call per token would cost
 * more than the bytes.
 */
function valueEnd(b: Buffer, i: number): number {
  const n = b.length;
  const open: number[] = [];
  let next = VALUE;
  while (i < n) {
    const c = b[i] as number;
    if (c === SPACE || c === LF || c === CR || c === TAB) {
      i++;
      continue;
    }
    if (next === COLON_NEXT) {
      if (c !== COLON) return -1;
      next = VALUE;
      i++;
      continue;
    }
    if (next === COMMA_OR_CLOSE || next === VALUE_OR_CLOSE || next === KEY_OR_CLOSE) {
      const top = open[open.length - 1];
      if ((c === RBRACKET && top === LBRACKET && next !== KEY_OR_CLOSE) || (c === RBRACE && top === LBRACE && next !== VALUE_OR_CLOSE)) {
        open.pop();
        i++;
        if (open.length === 0) return i;
        next = COMMA_OR_CLOSE;
        continue;
      }
      if (next === COMMA_OR_CLOSE) {
        if (c !== COMMA) return -1;
        next = top === LBRACE ? KEY : VALUE;
        i++;
        continue;
      }
      next = next === KEY_OR_CLOSE ? KEY : VALUE;
    }
    if (next === KEY) {
      if (c !== QUOTE) return -1;
      i = stringEnd(b, i);
      if (i < 0) return -1;
      next = COLON_NEXT;
      continue;
    }
    // A value.
    if (c === LBRACKET || c === LBRACE) {
      if (open.length >= MAX_DEPTH) return -1;
      open.push(c);
      next = c === LBRACKET ? VALUE_OR_CLOSE : KEY_OR_CLOSE;
      i++;
      continue;
    }
    if (open.length === 0) return -1;
    if (c === QUOTE) i = stringEnd(b, i);
    else if (c === MINUS || (c >= ZERO && c <= NINE)) i = numberEnd(b, i);
    else i = wordEnd(b, i);
    if (i < 0) return -1;
    next = COMMA_OR_CLOSE;
  }
  return -1;
}

const WORDS = ['true', 'false', 'null'].map((w) => Buffer.from(w));

/** Past `true`, `false` or `null` at `i`; -1 if none is there. */
function wordEnd(b: Buffer, i: number): number {
  for (const w of WORDS) if (i + w.length <= b.length && b.compare(w, 0, w.length, i, i + w.length) === 0) return i + w.length;
  return -1;
}

/** Past the closing quote; -1 for a control character, a bad escape or no end. */
function stringEnd(b: Buffer, i: number): number {
  const n = b.length;
  for (i++; i < n; i++) {
    const c = b[i] as number;
    if (c === QUOTE) return i + 1;
    if (c < SPACE) return -1;
    if (c !== BACKSLASH) continue;
    const e = b[++i];
    if (e === U) {
      for (let k = 1; k <= 4; k++) if (!isHex(b[i + k])) return -1;
      i += 4;
    } else if (e === undefined || !ESCAPES.has(e)) return -1;
  }
  return -1;
}

/** `"`, `\`, `/`, b, f, n, r, t. */
const ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

// Past the end is undefined, which is neither.
const isHex = (c: number | undefined) => c !== undefined && ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));
const isDigit = (c: number | undefined) => c !== undefined && c >= ZERO && c <= NINE;

/** JSON's number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
function numberEnd(b: Buffer, i: number): number {
  if (b[i] === MINUS) i++;
  if (b[i] === ZERO) i++;
  else if (isDigit(b[i])) while (isDigit(b[i])) i++;
  else return -1;
  if (b[i] === DOT) {
    if (!isDigit(b[++i])) return -1;
    while (isDigit(b[i])) i++;
  }
  const e = b[i];
  if (e === E_LOWER || e === E_UPPER) {
    i++;
    const sign = b[i];
    if (sign === PLUS || sign === MINUS) i++;
    if (!isDigit(b[i])) return -1;
    while (isDigit(b[i])) i++;
  }
  return i;
}

const isSpace = (c: number) => c === SPACE || c === LF || c === CR || c === TAB;

const PARENT_METADATA = ['parent', 'metadata'].map((k) => Buffer.from(`"${k}"`));
const NAME_KEY = Buffer.from('"name"');
const NAMESPACE_KEY = Buffer.from('"namespace"');

/** The parent's `metadata.namespace` and `metadata.name` as a body's bytes give them (either may be missing). */
export interface ParentIdentity {
  namespace: string | undefined;
  name: string | undefined;
}

/**
 * The parent's `metadata.namespace` and `metadata.name` read from the bytes, before any parse:
 * the queue a request waits in (server/admission.ts), and the parent a body refused for its size
 * is logged and counted under (its first bytes: server/hook-route.ts). Metacontroller's encoder
 * writes `controller` then `parent`, whose `metadata` comes third and whose `name` and
 * `namespace` follow its annotations, labels and managedFields (encoding/json sorts an
 * unstructured object's keys), so this reads little more than the controller and the parent's
 * metadata; strings are skipped with indexOf. It follows the structure, without recursion (a key
 * matches only at its own depth, inside the object matched before it, and only where a colon
 * follows it: an annotation or label named `namespace`, or a value "parent", is a level too deep
 * or not a key), and takes the first of duplicate keys where JSON.parse takes the last (the
 * caller checks the parsed namespace against it). A key or value written with escapes is not
 * recognised: a value must be a DNS-1123 label or subdomain as written (a namespace, a name), or
 * it is not given. Bytes that end early (a prefix) give what they hold.
 */
export function parentIdentityOf(raw: Buffer): ParentIdentity {
  const found: ParentIdentity = { namespace: undefined, name: undefined };
  const n = raw.length;
  let depth = 0;
  /** How many of PARENT_METADATA's keys have matched: the object of the last one is at depth `matched + 1`. */
  let matched = 0;
  let i = 0;
  while (i < n) {
    const c = raw[i] as number;
    if (c === QUOTE) {
      const end = quotedEnd(raw, i);
      if (end < 0) return found;
      if (depth === matched + 1) {
        const j = skipSpace(raw, end);
        if (raw[j] === COLON) {
          const v = skipSpace(raw, j + 1);
          if (matched < 2) {
            const key = PARENT_METADATA[matched] as Buffer;
            if (end - i === key.length && raw.compare(key, 0, key.length, i, end) === 0) {
              // parent or parent.metadata that is not an object: there is nothing to find.
              if (raw[v] !== LBRACE) return found;
              matched++;
              depth++;
              i = v + 1;
              continue;
            }
          } else {
            const which = isKey(raw, i, end, NAMESPACE_KEY) ? 'namespace' : isKey(raw, i, end, NAME_KEY) ? 'name' : undefined;
            if (which !== undefined && found[which] === undefined) {
              found[which] = plainValue(raw, v);
              if (found.namespace !== undefined && found.name !== undefined) return found;
            }
          }
        }
      }
      i = end;
      continue;
    }
    if (c === LBRACE || c === LBRACKET) depth++;
    else if (c === RBRACE || c === RBRACKET) {
      depth--;
      // The object of the last key matched closed: what it held is all there is.
      if (matched > 0 && depth < matched + 1) return found;
    }
    i++;
  }
  return found;
}

/** parentIdentityOf's namespace: the queue a request waits in. */
export function parentNamespaceOf(raw: Buffer): string | undefined {
  return parentIdentityOf(raw).namespace;
}

const isKey = (b: Buffer, i: number, end: number, key: Buffer) => end - i === key.length && b.compare(key, 0, key.length, i, end) === 0;

/** The string at `i` if it is a plain DNS-1123 subdomain (at most 253 of a-z, 0-9, `-` and `.`, no escapes); otherwise undefined. */
function plainValue(b: Buffer, i: number): string | undefined {
  if (b[i] !== QUOTE) return undefined;
  let k = i + 1;
  for (; k < b.length && k - i <= 254; k++) {
    const c = b[k] as number;
    if (c === QUOTE) break;
    if (!((c >= 0x61 && c <= 0x7a) || (c >= ZERO && c <= NINE) || c === MINUS || c === DOT)) return undefined;
  }
  if (b[k] !== QUOTE || k === i + 1) return undefined;
  return b.toString('latin1', i + 1, k);
}

/** Past the closing quote of the string at `i` (found with indexOf; a quote after an odd run of backslashes is escaped); -1 if none. */
function quotedEnd(b: Buffer, i: number): number {
  let q = b.indexOf(QUOTE, i + 1);
  while (q >= 0) {
    let slashes = 0;
    while (b[q - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q + 1;
    q = b.indexOf(QUOTE, q + 1);
  }
  return -1;
}
