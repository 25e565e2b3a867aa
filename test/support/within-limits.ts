import { compareQuantities, isWholeQuantity } from '../../hooks/kit/quantity.js';

/** Resources the API server accepts: every request at most its limit (validateResourceRequirements), extended resources in whole units (ValidateResourceQuantityValue). */
export const requestsWithinLimits = (r: { requests?: Record<string, unknown>; limits?: Record<string, unknown> }): boolean =>
  [...Object.entries(r.requests ?? {}), ...Object.entries(r.limits ?? {})].every(([name, q]) => !name.includes('/') || isWholeQuantity(String(q))) &&
  Object.entries(r.requests ?? {}).every(([name, q]) => r.limits?.[name] === undefined || (compareQuantities(String(q), String(r.limits[name])) ?? 0) <= 0);
