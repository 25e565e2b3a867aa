import type { Parent } from '../../kit/index.js';
import { DEPLOYMENT_MODE_ANNOTATION, labelsFor, selectorFor, type Role } from '../names.js';
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
export const METRIC_AGGREGATION_ANNOTATION = 'serving.kserve.io/enable-metric-aggregation';
const PROMETHEUS_PORT = 'prometheus.io/port';
const PROMETHEUS_PATH = 'prometheus.io/path';
/** constants.DefaultPodPrometheusPort (queue-proxy's), QueueProxyAggregatePrometheusMetricsPort, DefaultPrometheusPath. */
const DEFAULT_POD_PROMETHEUS_PORT = '9091';
const AGGREGATE_PROMETHEUS_PORT = '9088';
const DEFAULT_METRICS_PATH = '/metrics';
/** The shipped `metricsAggregator` (config/configmap/inferenceservice.yaml): both "false". */
const METRICS_AGGREGATOR_DEFAULT = 'false';

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
  /** Deployment, Service and HPA: KServe's, and modelhooks' descriptive app.kubernetes.io labels. */
  labels: Record<string, string>;
  /** The pod template's: KServe's only, so that a Deployment KServe made is not rolled. */
  podLabels: Record<string, string>;
  /** Deployment, Service and HPA. */
  annotations: Record<string, string>;
  /** The pod template's: the annotations plus what KServe's pod webhook adds to the Pod. */
  podAnnotations: Record<string, string>;
}

/** Our descriptive labels a user label may override; the rest (managed-by, KServe's, the selector) always win. */
const DESCRIPTIVE = ['app.kubernetes.io/name', 'app.kubernetes.io/instance', 'app.kubernetes.io/component', 'app.kubernetes.io/part-of'];
const OURS_ONLY = [...DESCRIPTIVE, 'app.kubernetes.io/managed-by'];

/**
 * KServe's precedence, low to high: the runtime's annotations, the InferenceService's (then the
 * component reconciler's internal ones, `internal`), the component's; for labels our
 * descriptive labels, the runtime's, the InferenceService's, the component's, then KServe's own
 * (`serving.kserve.io/inferenceservice`, `component`) and the selector — a user label can never
 * change what a Service or Deployment selects. The pod template carries KServe's labels only
 * (deployment_reconciler.go createRawDefaultDeployment: podMetadata is componentMeta plus `app`).
 */
export function componentMeta(
  parent: Parent<unknown>,
  role: Role,
  spec: ComponentSpec,
  runtime?: { labels?: Record<string, string>; annotations?: Record<string, string> },
  internal: Record<string, string> = EMPTY,
): ComponentMeta {
  const ours = labelsFor(parent, role);
  const fixed = Object.fromEntries(Object.entries(ours).filter(([k]) => !DESCRIPTIVE.includes(k)));
  // The selected serving runtime's spec.labels and spec.annotations are the lowest (components/predictor.go buildObjectMeta).
  const labels = { ...ours, ...(runtime?.labels ?? {}), ...(parent.metadata.labels ?? {}), ...(spec.labels ?? {}), ...fixed, ...selectorFor(parent, role) };
  const podLabels = Object.fromEntries(Object.entries(labels).filter(([k]) => !OURS_ONLY.includes(k) || isUserLabel(k, parent, spec, runtime)));
  const merged = {
    ...allowedToSpread(runtime?.annotations),
    ...allowedToSpread(parent.metadata.annotations),
    ...internal,
    ...allowedToSpread(spec.annotations),
  };
  return { labels, podLabels, annotations: merged, podAnnotations: { ...merged, ...podWebhookAnnotations(merged) } };
}

/** A key of ours the user (or the runtime) wrote too: then KServe has it on the pods as well. */
const isUserLabel = (k: string, parent: Parent<unknown>, spec: ComponentSpec, runtime?: { labels?: Record<string, string> }) =>
  parent.metadata.labels?.[k] !== undefined || spec.labels?.[k] !== undefined || runtime?.labels?.[k] !== undefined;

/**
 * metrics_aggregate_injector.go InjectMetricsAggregator, as the pod webhook leaves every Pod
 * of an InferenceService: `enable-metric-aggregation` and `enable-prometheus-scraping` as the
 * pod has them, else the shipped metricsAggregator's "false"; with scraping "true",
 * `prometheus.io/port` 9091 (queue-proxy's; 9088 when aggregating) and `prometheus.io/path`
 * /metrics, over the user's. In raw mode nothing listens on 9091 (there is no queue-proxy):
 * to scrape the server, leave scraping off and set `prometheus.io/*` on the InferenceService.
 */
export function podWebhookAnnotations(annotations: Record<string, string>): Record<string, string> {
  const aggregation = annotations[METRIC_AGGREGATION_ANNOTATION] ?? METRICS_AGGREGATOR_DEFAULT;
  const scraping = annotations[PROMETHEUS_SCRAPING_ANNOTATION] ?? METRICS_AGGREGATOR_DEFAULT;
  return {
    [METRIC_AGGREGATION_ANNOTATION]: aggregation,
    [PROMETHEUS_SCRAPING_ANNOTATION]: scraping,
    ...(scraping === 'true'
      ? { [PROMETHEUS_PORT]: aggregation === 'true' ? AGGREGATE_PROMETHEUS_PORT : DEFAULT_POD_PROMETHEUS_PORT, [PROMETHEUS_PATH]: DEFAULT_METRICS_PATH }
      : {}),
  };
}

/**
 * The Ingress: KServe copies the InferenceService's annotations as they are, none filtered
 * (kube_ingress_reconciler.go createRawIngress: `Annotations: isvc.Annotations`), so
 * cert-manager and ingress-controller annotations reach it, and so do the webhook's
 * `modelFormat` and `serving.kserve.io/deploymentMode` (webhookMetadata).
 */
export const ingressAnnotations = (parent: Parent<unknown>): Record<string, string> => ({ ...(parent.metadata.annotations ?? {}) });

/** pkg/constants/constants.go DeploymentMode values: the legacy `RawDeployment` is rewritten to `Standard`. */
const STANDARD = 'Standard';
const LEGACY_RAW = 'RawDeployment';

/**
 * The InferenceService's metadata as KServe's defaulting webhook leaves it
 * (pkg/apis/serving/v1beta1/inference_service_defaults.go DefaultInferenceService):
 * `serving.kserve.io/deploymentMode: Standard` where it is absent (the ConfigMap's
 * defaultDeploymentMode, Standard for raw mode) or the legacy RawDeployment; `modelFormat`
 * naming the predictor's model format where the user did not set it (setPredictorModelDefaults).
 */
export function webhookMetadata<P extends Parent<unknown>>(parent: P, modelFormat: string | undefined): P {
  const annotations = parent.metadata.annotations ?? {};
  const mode = annotations[DEPLOYMENT_MODE_ANNOTATION];
  const needsMode = mode === undefined || mode === LEGACY_RAW;
  const needsFormat = modelFormat !== undefined && modelFormat !== '' && annotations[MODEL_FORMAT_ANNOTATION] === undefined;
  if (!needsMode && !needsFormat) return parent;
  return {
    ...parent,
    metadata: {
      ...parent.metadata,
      annotations: {
        ...annotations,
        ...(needsMode ? { [DEPLOYMENT_MODE_ANNOTATION]: STANDARD } : {}),
        ...(needsFormat ? { [MODEL_FORMAT_ANNOTATION]: modelFormat } : {}),
      },
    },
  };
}

/** The labels SetRuntimeDefaults adds (runtime/predictor.ts isvcLabels) over the InferenceService's, as its children read them. */
export function withRuntimeLabels<P extends Parent<unknown>>(parent: P, isvcLabels: Record<string, string> | undefined): P {
  if (!isvcLabels || Object.keys(isvcLabels).length === 0) return parent;
  return { ...parent, metadata: { ...parent.metadata, labels: { ...(parent.metadata.labels ?? {}), ...isvcLabels } } };
}

/** constants.ModelFormatAnnotationKey. */
const MODEL_FORMAT_ANNOTATION = 'modelFormat';

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
  const labels = { ...ours, ...user, ...fixed };
  return { labels, podLabels: labels, annotations, podAnnotations: annotations };
}
