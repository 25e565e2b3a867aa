import { hash } from 'node:crypto';

/**
 * JSON with object keys sorted, so that equal content always hashes equally
 * whatever order a client or a builder put the keys in. The same text as
 * `JSON.stringify` with a key-sorting replacer, written in one pass: no sorted copy
 * of every object, no replacer call per value (a third of a hook's time went there).
 */
export function canonicalJson(value: unknown): string {
  return canonical(value, '') as string;
}

/** The canonical text of `value`, or undefined where JSON.stringify leaves the value out. */
function canonical(value: unknown, key: string): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') return canonical(toJSON.call(value, key), key);
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          out += canonical(value[i], String(i)) ?? 'null';
        }
        return `${out}]`;
      }
      const keys = sortedKeys(value);
      let out = '{';
      let first = true;
      for (const k of keys) {
        const v = (value as Record<string, unknown>)[k];
        const text = typeof v === 'string' ? quote(v) : canonical(v, k);
        if (text === undefined) continue;
        out += first ? `${quote(k)}:${text}` : `,${quote(k)}:${text}`;
        first = false;
      }
      return `${out}}`;
    }
    case 'bigint':
      // JSON.stringify's own TypeError.
      return JSON.stringify(value);
    default:
      // undefined, functions and symbols: left out of objects, null in arrays.
      return undefined;
  }
}

/**
 * Keys in the order the sorted copy of the replacer would iterate them: array-index keys
 * first in numeric order (JavaScript objects always list them so), then the rest sorted.
 */
function sortedKeys(value: object): string[] {
  const keys = Object.keys(value);
  let indices = 0;
  while (indices < keys.length && isArrayIndex(keys[indices] as string)) indices++;
  if (indices === 0) return keys.sort();
  return [...keys.slice(0, indices), ...keys.slice(indices).sort()];
}

const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;
function isArrayIndex(key: string): boolean {
  const c = key.charCodeAt(0);
  return c >= 48 && c <= 57 && ARRAY_INDEX.test(key) && Number(key) < 4294967295;
}

/** What JSON.stringify escapes in a string: quotes, backslashes, control characters, lone surrogates. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string as JSON: most need no escaping, and quoting them by hand skips JSON.stringify's call. */
function quote(s: string): string {
  return ESCAPED.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/** Hex SHA-256 of a string or of the canonical JSON of a value. */
export function contentHash(value: unknown): string {
  const text = typeof value === 'string' ? value : canonicalJson(value);
  return hash('sha256', text, 'hex');
}

/** The first `length` hex characters of the content hash: for names and annotations. */
export function shortHash(value: unknown, length = 8): string {
  return contentHash(value).slice(0, length);
}
