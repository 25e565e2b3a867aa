import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted, so that equal content always hashes equally
 * whatever order a client or a builder put the keys in.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }
    return v;
  });
}

/** Hex SHA-256 of a string or of the canonical JSON of a value. */
export function contentHash(value: unknown): string {
  const text = typeof value === 'string' ? value : canonicalJson(value);
  return createHash('sha256').update(text).digest('hex');
}

/** The first `length` hex characters of the content hash: for names and annotations. */
export function shortHash(value: unknown, length = 8): string {
  return contentHash(value).slice(0, length);
}
