import type { Schema } from './install.js';

export interface DefaultCheck {
  path: string;
  expected: unknown;
  actual: unknown;
}

/**
 * Every default the schema declares at a place the sent object reaches but leaves unset,
 * paired with what the API server stored there. The server defaults a field only when
 * its enclosing object exists, and then recurses into what it defaulted; so do we.
 */
export function defaultsToCheck(schema: Schema | undefined, sent: unknown, stored: unknown, path = ''): DefaultCheck[] {
  if (!schema) return [];
  if (schema.items && Array.isArray(stored)) {
    return stored.flatMap((item, i) => defaultsToCheck(schema.items, Array.isArray(sent) ? sent[i] : undefined, item, `${path}[${i}]`));
  }
  if (!schema.properties || !isObject(stored)) return [];
  const sentObj = isObject(sent) ? sent : {};
  return Object.entries(schema.properties).flatMap(([key, prop]) => {
    const here = `${path}.${key}`;
    const own = prop.default !== undefined && sentObj[key] === undefined ? [{ path: here, expected: prop.default, actual: stored[key] }] : [];
    return [...own, ...defaultsToCheck(prop, sentObj[key], stored[key], here)];
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
