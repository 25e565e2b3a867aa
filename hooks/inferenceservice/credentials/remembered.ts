import { isDns1123Subdomain, type Parent } from '../../kit/index.js';

/**
 * The Secret names the ServiceAccounts listed at the last sync, kept in the status.
 * Metacontroller's customize request holds only the parent (v4 customize/api/v1 hooks.go:
 * CustomizeHookRequest{Controller, Parent}), never the related objects: customize cannot read
 * a ServiceAccount's `secrets`. So sync writes their names here and customize asks for them;
 * Metacontroller caches the customize answer per (uid, generation) for 20 minutes
 * (customize/manager.go newResponseCache), so a Secret first listed by a ServiceAccount is
 * asked for after that cache expires, or at once on the next spec change.
 */
export const REMEMBERED_FIELD = 'serviceAccountSecrets';


/** The remembered names, only well-formed Secret names (the status is user-writable). */
export function rememberedSecrets(parent: Parent<unknown>): string[] {
  const list = (parent.status as Record<string, unknown> | undefined)?.[REMEMBERED_FIELD];
  if (!Array.isArray(list)) return [];
  return [...new Set(list.filter((n): n is string => typeof n === 'string' && isDns1123Subdomain(n)))].sort().slice(0, 64);
}
