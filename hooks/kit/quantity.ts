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
