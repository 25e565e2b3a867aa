import { z } from 'zod';

/**
 * The schema of `status.conditions` for a CRD: what kubectl explain shows and what the
 * API server keeps. Written once here so that every composition's CRD says the same.
 */
export const conditionSchema = z.object({
  type: z.string(),
  status: z.enum(['True', 'False', 'Unknown']),
  reason: z.string().optional(),
  message: z.string().optional(),
  lastTransitionTime: z.string().optional(),
  observedGeneration: z.number().int().optional(),
});

/** The zod schema of a status's `conditions`, for a composition's status schema. */
export const conditionsSchema = z.array(conditionSchema).describe('Kubernetes-style conditions; Ready summarises the others.');
