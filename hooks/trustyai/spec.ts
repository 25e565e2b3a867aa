import { z } from 'zod';
import { conditionsSchema, containerProblems, quantity, type SpecProblem } from '../kit/index.js';

const resourceQuantity = quantity('500m or 1Gi');

const storage = z
  .object({
    format: z.enum(['PVC', 'DATABASE']).describe('Where the service keeps its data: PVC or DATABASE.'),
    folder: z
      .string()
      .optional()
      .describe('Mount path of the PVC (PVC mode, default /inputs); in DATABASE mode, with data.filename, the folder to migrate from.'),
    size: quantity('1Gi', '1Gi').describe('Size of the PVC (PVC mode).'),
    pv: z.string().optional().describe('Bind the PVC to this existing PersistentVolume (PVC mode).'),
    databaseConfigurations: z.string().optional().describe('Name of the Secret with the database connection keys (DATABASE mode).'),
  })
  .describe('Storage of the inference data.');

const metrics = z
  .object({
    schedule: z.string().describe('How often metrics are computed, e.g. 5s.'),
    batchSize: z.number().int().min(1).default(5000).describe('Number of latest inferences used per metric.'),
  })
  .describe('Metrics computation.');

/** Ours: the operator sets none, which makes the pod BestEffort (first to be evicted). */
export const DEFAULT_RESOURCES = { requests: { cpu: '100m', memory: '512Mi' }, limits: { memory: '1Gi' } };

const DURATION = /^[0-9]+(ms|s|m|h|d)$/;

export const trustyaiSpec = z
  .object({
    storage,
    data: z
      .object({
        filename: z.string().optional().describe('File the inference data is written to, e.g. data.csv.'),
        format: z.string().optional().describe('Format of the data file, e.g. CSV.'),
      })
      .optional(),
    metrics: metrics.optional().describe('Metrics computation (upstream spelling).'),
    trustyaiMetrics: metrics.optional().describe('Metrics computation (the design proposal spelling; same as metrics).'),
    replicas: z.number().int().min(0).max(2147483647).default(1).describe('Number of service replicas.'),
    resources: z
      .object({
        requests: z.record(z.string(), resourceQuantity).optional(),
        limits: z.record(z.string(), resourceQuantity).optional(),
      })
      .default(DEFAULT_RESOURCES)
      .describe('Resources of the trustyai-service container (the operator sets none; see the README).'),
    serviceMonitoring: z
      .object({
        interval: z.string().default('4s').describe('Scrape interval.'),
        metrics: z.array(z.string()).default(['trustyai_spd', 'trustyai_dir']).describe('Metric names the ServiceMonitor asks for.'),
      })
      .optional()
      .describe('ServiceMonitor overrides (only used where ServiceMonitors are declared).'),
  })
  .superRefine((spec, ctx) => {
    if (spec.storage.format === 'DATABASE' && !spec.storage.databaseConfigurations) {
      ctx.addIssue({
        code: 'custom',
        path: ['storage', 'databaseConfigurations'],
        message: 'required when storage.format is DATABASE (the name of the Secret with the connection keys)',
      });
    }
    const m = spec.metrics ?? spec.trustyaiMetrics;
    if (!m) ctx.addIssue({ code: 'custom', path: ['metrics', 'schedule'], message: 'required (metrics.schedule or trustyaiMetrics.schedule)' });
    else if (!DURATION.test(m.schedule)) {
      ctx.addIssue({
        code: 'custom',
        path: [spec.metrics ? 'metrics' : 'trustyaiMetrics', 'schedule'],
        message: `"${m.schedule}" is not a duration such as 5s or 1m`,
      });
    }
  });

export type TrustyAISpec = z.infer<typeof trustyaiSpec>;

/** The metrics settings, whichever spelling the user chose (upstream's wins if both are given). */
export function metricsOf(spec: TrustyAISpec): { schedule: string; batchSize: number } {
  return (spec.metrics ?? spec.trustyaiMetrics) as { schedule: string; batchSize: number };
}

export const DEFAULT_FOLDER = '/inputs';

/** The PVC mount path (PVC mode) or the folder to migrate from (DATABASE mode). */
export const folderOf = (spec: TrustyAISpec): string => spec.storage.folder ?? DEFAULT_FOLDER;

/** The operator's IsMigration (api/tas/v1/trustyaiservice_types.go@11c335b): DATABASE with a folder and a file to read. */
export const isMigration = (spec: TrustyAISpec): boolean =>
  spec.storage.format === 'DATABASE' && spec.storage.folder !== undefined && spec.storage.folder !== '' && !!spec.data?.filename;

/** PVC storage, or a migration from it: the service keeps its data in a claim (the PVC child, its volume, PVCAvailable). */
export const usesClaim = (spec: TrustyAISpec): boolean => spec.storage.format === 'PVC' || isMigration(spec);

export const trustyaiStatus = z.object({
  phase: z.string().optional().describe('Ready or Not Ready.'),
  replicas: z.number().int().optional(),
  ready: z.string().optional().describe('"True" when the service is ready.'),
  conditions: conditionsSchema.optional(),
  observedGeneration: z.number().int().optional(),
  servesHttps: z
    .boolean()
    .optional()
    .describe(
      "Whether the service's pod serves HTTPS on 4443 (behind the Service's 443): where OpenShift's service CA or cert-manager issues its serving certificate. InferenceServices of the namespace log payloads to https://<name>.<ns>.svc.cluster.local then, else to http:// (port 80 → 8080).",
    ),
});

/** The service container's resources as the API server validates them (validateResourceRequirements: each request at most its limit). */
export const podFieldProblems = (spec: TrustyAISpec): SpecProblem[] => containerProblems({ resources: spec.resources }, 'spec');
