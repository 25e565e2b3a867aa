import fc from 'fast-check';

const dns = fc.stringMatching(/^[a-z]([a-z0-9-]{0,20}[a-z0-9])?$/);

/** Valid TrustyAIService specs: either storage mode, either spelling of metrics, optional fields. */
export const trustyaiSpec: fc.Arbitrary<Record<string, unknown>> = fc
  .record(
    {
      format: fc.constantFrom('PVC', 'DATABASE'),
      folder: fc.constantFrom('/inputs', '/data', '/var/trustyai'),
      size: fc.constantFrom('1Gi', '500Mi', '10Gi', 1073741824),
      pv: fc.option(dns, { nil: undefined }),
      secret: dns,
      filename: fc.option(fc.constantFrom('data.csv', 'inputs.json'), { nil: undefined }),
      dataFormat: fc.option(fc.constantFrom('CSV', 'JSON'), { nil: undefined }),
      schedule: fc.constantFrom('5s', '30s', '1m', '500ms', '2h'),
      batchSize: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: undefined }),
      spelling: fc.constantFrom('metrics', 'trustyaiMetrics'),
      replicas: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
      monitoring: fc.option(
        fc.record({
          interval: fc.constantFrom('4s', '30s'),
          metrics: fc.array(fc.constantFrom('trustyai_spd', 'trustyai_dir', 'trustyai_meanshift'), { minLength: 1, maxLength: 3 }),
        }),
        { nil: undefined },
      ),
    },
    { requiredKeys: ['format', 'schedule', 'spelling', 'secret', 'folder', 'size'] },
  )
  .map((r) => {
    const storage: Record<string, unknown> = { format: r.format, folder: r.folder, size: r.size };
    if (r.format === 'PVC' && r.pv) storage.pv = r.pv;
    if (r.format === 'DATABASE') storage.databaseConfigurations = r.secret;
    const spec: Record<string, unknown> = {
      storage,
      [r.spelling]: { schedule: r.schedule, ...(r.batchSize ? { batchSize: r.batchSize } : {}) },
    };
    if (r.filename || r.dataFormat) spec.data = { ...(r.filename ? { filename: r.filename } : {}), ...(r.dataFormat ? { format: r.dataFormat } : {}) };
    if (r.replicas !== undefined) spec.replicas = r.replicas;
    if (r.monitoring) spec.serviceMonitoring = r.monitoring;
    return spec;
  });
