/**
 * The hook metrics are recorded into plain per-series numbers (hooks/server/metrics.ts) and written
 * at scrape time; what /metrics shows must be what prom-client's own Counter and Histogram
 * show for the same samples, line for line.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Counter, Histogram, Registry } from 'prom-client';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import { versionOrUnknown } from '../../hooks/server/build-info.js';
import { bindHookMetrics, createMetrics, type Outcome } from '../../hooks/server/metrics.js';
import { createApp, createLogger } from '../../hooks/server/app.js';

const SAMPLES: Array<[string, string, Outcome, number]> = [
  ['trustyai', 'sync', 'ok', 0.0123],
  ['trustyai', 'sync', 'cached', 0.0004],
  ['trustyai', 'sync', 'ok', 0.0005],
  ['inferenceservice', 'customize', 'ok', 3.5],
  ['trustyai', 'sync', 'not_modified', 0.001],
  ['trustyai', 'sync', 'ok', 0.3],
  ['unknown', 'unknown', 'not_found', 0.00002],
  ['trustyai', 'sync', 'cached', 0.0026],
];

/** What the metrics were before: prom-client's Counter and Histogram with a label object per sample. */
function reference(samples: typeof SAMPLES) {
  const registry = new Registry();
  const labelNames = ['composition', 'hook', 'outcome'] as const;
  const requests = new Counter({
    name: 'modelhooks_hook_requests_total',
    help: 'Hook requests by composition, hook and outcome.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'modelhooks_hook_request_duration_seconds',
    help: 'Time to answer a hook request, from the first byte read to the last byte written.',
    labelNames,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  for (const [composition, hook, outcome, seconds] of samples) {
    requests.inc({ composition, hook, outcome });
    duration.observe({ composition, hook, outcome }, seconds);
  }
  return registry;
}

const text = async (registry: Registry, name: string) => registry.getSingleMetricAsString(name);

describe('hook metrics', () => {
  it('are written as prom-client writes the same samples, across two scrapes and two bindings', async () => {
    const metrics = createMetrics();
    const [a, b] = [bindHookMetrics(metrics), bindHookMetrics(metrics)];
    SAMPLES.slice(0, 5).forEach(([c, h, o, s], i) => (i % 2 ? a : b).record(c, h, o, s));
    const early = reference(SAMPLES.slice(0, 5));
    for (const name of ['modelhooks_hook_requests_total', 'modelhooks_hook_request_duration_seconds']) {
      expect(await text(metrics.registry, name), name).toBe(await text(early, name));
    }
    SAMPLES.slice(5).forEach(([c, h, o, s]) => a.record(c, h, o, s));
    const all = reference(SAMPLES);
    for (const name of ['modelhooks_hook_requests_total', 'modelhooks_hook_request_duration_seconds']) {
      const ours = await text(metrics.registry, name);
      expect(ours, name).toBe(await text(all, name));
      expect(ours.split('\n').length).toBeGreaterThan(5);
    }
    // And in the whole exposition, with the process metrics.
    const whole = await metrics.registry.metrics();
    expect(whole).toContain('modelhooks_hook_request_duration_seconds_bucket{le="0.0025",composition="trustyai",hook="sync",outcome="cached"} 1');
    expect(whole).toContain('modelhooks_hook_request_duration_seconds_count{composition="trustyai",hook="sync",outcome="ok"} 3');
    expect(whole).toContain('process_cpu_user_seconds_total');
  });

  it('show no series before its first sample', async () => {
    const metrics = createMetrics();
    bindHookMetrics(metrics);
    expect(await text(metrics.registry, 'modelhooks_hook_request_duration_seconds')).not.toContain('_bucket');
    expect(await text(metrics.registry, 'modelhooks_hook_requests_total')).not.toContain('{');
  });
});

describe('modelhooks_build_info', () => {
  const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };

  it('/metrics says which modelhooks and which Node the server runs: one series, value 1', async () => {
    const app = createApp({ compositions: builtinCompositions, config: loadConfig({}), logger: createLogger('silent') });
    const text = (await request(app).get('/metrics').expect(200)).text;
    const lines = text.split('\n').filter((l) => l.startsWith('modelhooks_build_info'));
    expect(lines).toEqual([`modelhooks_build_info{version="${pkg.version}",node_version="${process.version}"} 1`]);
    expect(text).toContain('# TYPE modelhooks_build_info gauge');
  });

  it('says version="unknown" where the package.json cannot be read (bundled code), rather than failing', () => {
    expect(
      versionOrUnknown(() => {
        throw new Error('package.json of modelhooks not found');
      }),
    ).toBe('unknown');
    expect(versionOrUnknown(() => '9.9.9')).toBe('9.9.9');
  });

  it('each registry gets its own (two apps in one process do not clash)', async () => {
    const [a, b] = [createMetrics(), createMetrics()];
    for (const m of [a, b]) expect(await m.registry.getSingleMetricAsString('modelhooks_build_info')).toContain(`version="${pkg.version}"`);
  });
});
