import { z } from 'zod';

/** The Kubernetes quantity syntax: `500m`, `1Gi`, `1e9`, `0.5`. */
export const QUANTITY_PATTERN = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+|[numkMGTPE]|[KMGTPE]i)?$/;

/**
 * A quantity as users write it, a string or a bare number, always handed to builders as a
 * string (the form every Kubernetes API accepts). In a CRD it is x-kubernetes-int-or-string.
 * A default goes before the transform, where the CRD generator can see it.
 */
export function quantity(example = '1Gi', fallback?: string) {
  const value = z.union([z.string().regex(QUANTITY_PATTERN, `a quantity such as ${example}`), z.number().nonnegative()]);
  return (fallback === undefined ? value : value.default(fallback)).transform(String);
}

const SUFFIXES: Record<string, number> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** The value of a quantity (`1Gi` → 1073741824), to compare two; undefined when it is not one. */
export function quantityValue(q: string): number | undefined {
  const m = QUANTITY_PATTERN.exec(q.trim());
  if (!m) return undefined;
  const base = Number(m[1]);
  const suffix = m[3] ?? '';
  if (/^[eE]/.test(suffix)) return base * 10 ** Number(suffix.slice(1));
  const factor = SUFFIXES[suffix];
  return factor === undefined ? undefined : base * factor;
}

const DECIMAL_EXPONENT: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_EXPONENT: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** A quantity as an exact fraction (numerator, denominator), or undefined when it is not one. */
function exactQuantity(q: string): [bigint, bigint] | undefined {
  const m = QUANTITY_PATTERN.exec(q);
  if (!m) return undefined;
  const [whole = '', fraction = ''] = (m[1] as string).split('.');
  let num = BigInt(`${whole}${fraction}` || '0');
  let den = 10n ** BigInt(fraction.length);
  const suffix = m[3] ?? '';
  // An exponent the API server could not hold is left alone (no comparison): bounded work.
  const e = /^[eE]/.test(suffix) ? Number(suffix.slice(1)) : (DECIMAL_EXPONENT[suffix] ?? 0);
  if (Math.abs(e) > 100) return undefined;
  if (e >= 0) num *= 10n ** BigInt(e);
  else den *= 10n ** BigInt(-e);
  const b = BINARY_EXPONENT[suffix];
  if (b !== undefined) num *= 2n ** BigInt(b);
  return [num, den];
}

/**
 * -1, 0 or 1 as quantity `a` is below, equal to or above `b`, compared exactly (`1Gi` equals
 * `1073741824`, `100m` equals `0.1`), as resource.Quantity.Cmp does; undefined when either is
 * not a quantity.
 */
export function compareQuantities(a: string, b: string): -1 | 0 | 1 | undefined {
  const x = exactQuantity(a);
  const y = exactQuantity(b);
  if (!x || !y) return undefined;
  const l = x[0] * y[1];
  const r = y[0] * x[1];
  return l < r ? -1 : l > r ? 1 : 0;
}

/** Whether a quantity is a whole number (`2`, `1k`, `1Gi`; not `100m`), as IsIntegerResourceName's resources must be. */
export function isWholeQuantity(q: string): boolean {
  const x = exactQuantity(q);
  return x !== undefined && x[0] % x[1] === 0n;
}

/** Whether quantity `q` is a positive whole multiple of quantity `unit` (`4Mi` of `2Mi`: a huge page size). */
export function isMultipleOf(q: string, unit: string): boolean {
  const x = exactQuantity(q);
  const u = exactQuantity(unit);
  if (!x || !u || x[0] === 0n || u[0] === 0n) return false;
  return (x[0] * u[1]) % (u[0] * x[1]) === 0n;
}
