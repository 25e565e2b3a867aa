import { childMeta, type KubeObject, type Parent } from '../kit/index.js';
import { labelsFor, selectorFor, serviceName } from './names.js';
import type { TrustyAISpec } from './spec.js';

const DEFAULT_INTERVAL = '4s';
const DEFAULT_METRICS = ['trustyai_spd', 'trustyai_dir'];

/** Prometheus Operator scrape of the service's fairness metrics (only trustyai_* is kept). */
export function serviceMonitorFor(parent: Parent<TrustyAISpec>): KubeObject {
  const overrides = parent.spec.serviceMonitoring;
  const metrics = overrides?.metrics ?? DEFAULT_METRICS;
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: childMeta(parent, serviceName(parent), labelsFor(parent)),
    spec: {
      endpoints: [
        {
          port: 'http',
          path: '/q/metrics',
          scheme: 'http',
          interval: overrides?.interval ?? DEFAULT_INTERVAL,
          params: { 'match[]': metrics.map((m) => `{__name__= "${m}"}`) },
          metricRelabelings: [{ action: 'keep', regex: 'trustyai_.*', sourceLabels: ['__name__'] }],
        },
      ],
      selector: { matchLabels: selectorFor(parent) },
    },
  };
}
