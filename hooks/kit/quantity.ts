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
