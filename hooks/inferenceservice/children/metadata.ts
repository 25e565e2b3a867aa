import type { Parent } from '../../kit/index.js';
import { labelsFor, selectorFor, type Role } from '../names.js';
import type { ComponentSpec } from '../spec.js';

/*
 * Labels and annotations of a component's children, as KServe v0.20 builds them
 * (components/predictor.go buildObjectMeta, transformer.go, explainer.go): the
 * InferenceService's labels and annotations, then the component's over them; annotations
 * minus KServe's disallowed list. The same metadata goes on the Deployment, its pod
 * template, the Service and the HPA (deployment_reconciler.go createRawDefaultDeployment,
 * service_reconciler.go createDefaultSvc, hpa_reconciler.go createHPA all take componentMeta).
 */

/**
 * constants.ServiceAnnotationDisallowedList (pkg/constants/constants.go): Knative's
 * min-scale and max-scale (knative.dev/serving v0.48 autoscaling keys), KServe's internal
 * storage URI annotation, kubectl's last-applied-configuration and `modelFormat`.
 */
export const ANNOTATION_DISALLOWED_LIST: readonly string[] = [
  'autoscaling.knative.dev/min-scale',
  'autoscaling.knative.dev/max-scale',
  'internal.serving.kserve.io/storage-initializer-sourceuri',
  'kubectl.kubernetes.io/last-applied-configuration',
  'modelFormat',
];

/** pkg/constants/constants.go: the pod annotations KServe's pod webhook reads and writes. */
export const PROMETHEUS_SCRAPING_ANNOTATION = 'serving.kserve.io/enable-prometheus-scraping';
const KSERVE_PROMETHEUS_PORT = 'prometheus.kserve.io/port';
const KSERVE_PROMETHEUS_PATH = 'prometheus.kserve.io/path';
const PROMETHEUS_PORT = 'prometheus.io/port';
const PROMETHEUS_PATH = 'prometheus.io/path';
/** metrics_aggregate_injector.go defaultKserveContainerPrometheusPort; constants.DefaultPrometheusPath. */
const DEFAULT_METRICS_PORT = '8080';
const DEFAULT_METRICS_PATH = '/metrics';

const allowed = (a: Record<string, string> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(a ?? {}).filter(([k]) => !ANNOTATION_DISALLOWED_LIST.includes(k)));

const EMPTY: Readonly<Record<string, string>> = Object.freeze({});
/** `allowed(a)` to spread from: `a` itself when it holds no disallowed key (most do not), so nothing is copied twice. */
function allowedToSpread(a: Record<string, string> | undefined): Readonly<Record<string, string>> {
  if (a === undefined) return EMPTY;
  for (const k in a) if (ANNOTATION_DISALLOWED_LIST.includes(k)) return allowed(a);
  return a;
}

export interface ComponentMeta {
  /** Deployment, pod template, Service and HPA. */
  labels: Record<string, string>;
  /** Deployment, Service and HPA. */
  annotations: Record<string, string>;
  /** The pod template's: the annotations plus what KServe's pod webhook adds. */
  podAnnotations: Record<string, string>;
}

/** Our descriptive labels a user label may override; the rest (managed-by, KServe's, the selector) always win. */
const DESCRIPTIVE = ['app.kubernetes.io/name', 'app.kubernetes.io/instance', 'app.kubernetes.io/component', 'app.kubernetes.io/part-of'];

/**
 * KServe's precedence, low to high: the runtime's annotations, the InferenceService's, the
 * component's; for labels our descriptive labels, the runtime's, the InferenceService's, the component's,
 * then KServe's own (`serving.kserve.io/inferenceservice`, `component`) and the selector —
 * a user label can never change what a Service or Deployment selects.
 */
export function componentMeta(
  parent: Parent<unknown>,
  role: Role,
  spec: ComponentSpec,
  runtime?: { labels?: Record<string, string>; annotations?: Record<string, string> },
): ComponentMeta {
  const ours = labelsFor(parent, role);
  const fixed = Object.fromEntries(Object.entries(ours).filter(([k]) => !DESCRIPTIVE.includes(k)));
  // The selected serving runtime's spec.labels and spec.annotations are the lowest (components/predictor.go buildObjectMeta).
  const labels = { ...ours, ...(runtime?.labels ?? {}), ...(parent.metadata.labels ?? {}), ...(spec.labels ?? {}), ...fixed, ...selectorFor(parent, role) };
  const merged = { ...allowedToSpread(runtime?.annotations), ...allowedToSpread(parent.metadata.annotations), ...allowedToSpread(spec.annotations) };
  return { labels, annotations: merged, podAnnotations: { ...merged, ...prometheusAnnotations(merged) } };
}

/**
 * metrics_aggregate_injector.go InjectMetricsAggregator: with `enable-prometheus-scraping:
 * "true"` the pod gets `prometheus.io/port` and `prometheus.io/path`, over the user's. KServe
 * points the port at queue-proxy (9091, or 9088 when aggregating), which a raw deployment
 * does not run: here it is the model server's own metrics port (`prometheus.kserve.io/port`,
 * the runtime's, default 8080) and path, which is what queue-proxy would have scraped.
 */
export function prometheusAnnotations(annotations: Record<string, string>): Record<string, string> {
  if (annotations[PROMETHEUS_SCRAPING_ANNOTATION] !== 'true') return {};
  return {
    [PROMETHEUS_PORT]: annotations[KSERVE_PROMETHEUS_PORT] ?? DEFAULT_METRICS_PORT,
    [PROMETHEUS_PATH]: annotations[KSERVE_PROMETHEUS_PATH] ?? DEFAULT_METRICS_PATH,
  };
}

/**
 * The Ingress: KServe copies the InferenceService's annotations (kube_ingress_reconciler.go
 * createRawIngress: `Annotations: isvc.Annotations`), so cert-manager and ingress-controller
 * annotations reach it. Here the disallowed list applies too: kubectl's last-applied
 * configuration describes the InferenceService, not the Ingress.
 */
export const ingressAnnotations = (parent: Parent<unknown>): Record<string, string> => allowed(parent.metadata.annotations);

/** constants.RevisionTemplateLabelDisallowedList, the default ServiceLabelDisallowedList. */
export const LABEL_DISALLOWED_LIST: readonly string[] = ['networking.kserve.io/visibility'];

/**
 * An HTTPRoute: KServe gives each one the InferenceService's labels and annotations, each
 * minus its disallowed list (httproute_reconciler.go create*HTTPRoute). Our labels `ours`
 * (managed-by, serving.kserve.io/inferenceservice) win over a user's, descriptive ones not.
 */
export function routeMeta(parent: Parent<unknown>, ours: Record<string, string>): ComponentMeta {
  const user = Object.fromEntries(Object.entries(parent.metadata.labels ?? {}).filter(([k]) => !LABEL_DISALLOWED_LIST.includes(k)));
  const fixed = Object.fromEntries(Object.entries(ours).filter(([k]) => !DESCRIPTIVE.includes(k)));
  const annotations = allowed(parent.metadata.annotations);
  return { labels: { ...ours, ...user, ...fixed }, annotations, podAnnotations: annotations };
}
