import { childMeta, type KubeObject, type Parent } from '../kit/index.js';
import { labelsFor, PART_OF, serviceName } from './names.js';
import type { TrustyAISpec } from './spec.js';

const DEFAULT_INTERVAL = '4s';
const DEFAULT_METRICS = ['trustyai_spd', 'trustyai_dir'];

/**
 * The operator's local ServiceMonitor (service-monitor-local.tmpl.yaml@11c335b): every
 * TrustyAI Service of the namespace (part-of trustyai), fairness metrics only, honorLabels so
 * the service's own `model`/`namespace` labels survive. The central `trustyai-metrics` one
 * lives in the operator's namespace and selects every namespace: not ours to make (README).
 */
export function serviceMonitorFor(parent: Parent<TrustyAISpec>): KubeObject {
  const overrides = parent.spec.serviceMonitoring;
  const metrics = overrides?.metrics ?? DEFAULT_METRICS;
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: childMeta(parent, serviceName(parent), { ...labelsFor(parent), 'modelmesh-service': 'modelmesh-serving' }),
    spec: {
      endpoints: [
        {
          bearerTokenSecret: { key: '' },
          honorLabels: true,
          interval: overrides?.interval ?? DEFAULT_INTERVAL,
          metricRelabelings: [{ action: 'keep', regex: 'trustyai_.*', sourceLabels: ['__name__'] }],
          params: { 'match[]': metrics.map((m) => `{__name__= "${m}"}`) },
          path: '/q/metrics',
          port: 'http',
          scheme: 'http',
        },
      ],
      namespaceSelector: { matchNames: [parent.metadata.namespace] },
      selector: { matchLabels: { 'app.kubernetes.io/part-of': PART_OF } },
    },
  };
}
