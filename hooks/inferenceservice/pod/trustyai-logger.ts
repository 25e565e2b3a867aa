import type { KubeObject, ObjectIndex, RelatedRule } from '../../kit/index.js';
import type { LoggerSpec } from '../spec.js';

/*
 * TrustyAI payload logging as a pure function of related objects. The TrustyAI operator
 * (trustyai-service-operator v1.38.0, controllers/tas/inference_services.go patchKServe) writes
 * `spec.predictor.logger = {mode: all, url}` into every InferenceService of its namespace; for
 * raw deployments the URL is utils.GenerateHTTPSKServeLoggerURL: https://<name>.<ns>.svc.cluster.local
 * (controllers/utils/utils.go), which the TrustyAIService's `<name>` Service serves on 443 →
 * 4443 — because the operator always mounts the service CA's `<name>-internal` certificate
 * (templates/service/deployment.tmpl.yaml), on OpenShift. Its other URL,
 * GenerateKServeLoggerURL (http://<name>.<ns>.svc.cluster.local, port 80 → 8080), is the one
 * its pod serves without a certificate. Here the pod serves HTTPS only in the installs that
 * issue one (trustyai/index.ts servesHttps: the openshift and cert-manager variants), and the
 * TrustyAIService's status says so (`status.servesHttps`): the logger uses that scheme, and
 * http while the status does not say (the pod always serves 8080). KServe's agent posts
 * CloudEvents to the URL as given (pkg/logger/worker.go), over TLS for https. The
 * InferenceService reads the TrustyAIServices of its namespace, and its predictor logs to one
 * as if the operator had patched it; nothing is written to the parent.
 */

export const TRUSTYAI_API_VERSION = 'trustyai.opendatahub.io/v1';
export const TRUSTYAI_KIND = 'TrustyAIService';

/** The customize rule: the TrustyAIServices of the parent's namespace (the kit checks the namespace). */
export const trustyaiRule = (namespace: string | undefined): RelatedRule => ({
  apiVersion: TRUSTYAI_API_VERSION,
  resource: 'trustyaiservices',
  ...(namespace ? { namespace } : {}),
});

/**
 * The TrustyAIService the predictor logs to: the first by name among those not being deleted
 * (the operator's finalizer removes its logger on deletion; several in one namespace would
 * overwrite each other's patch, so one is chosen the same way every time).
 */
export function trustyaiServiceFor(related: ObjectIndex, namespace: string | undefined): KubeObject | undefined {
  return chosenTrustyAIService(related.list(TRUSTYAI_API_VERSION, TRUSTYAI_KIND), namespace);
}

/** The choice among TrustyAIServices of one namespace (others are never considered). */
export function chosenTrustyAIService(services: KubeObject[], namespace: string | undefined): KubeObject | undefined {
  return services
    .filter((t) => (t.metadata.namespace ?? namespace) === namespace && !t.metadata.deletionTimestamp)
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0))[0];
}

/**
 * Whether an InferenceService's predictor logs to the TrustyAIService named `tas`, given the
 * TrustyAIServices of its namespace: the same rule its own hook applies (for the
 * TrustyAIService side, e.g. InferenceServicesPresent). ModelMesh ones are not served here.
 */
export function logsToTrustyAI(isvc: KubeObject, tas: string, services: KubeObject[]): boolean {
  const spec = isvc.spec as { predictor?: { logger?: unknown } } | undefined;
  if (spec?.predictor?.logger !== undefined) return false;
  if (isvc.metadata.annotations?.['serving.kserve.io/deploymentMode'] === 'ModelMesh') return false;
  return chosenTrustyAIService(services, isvc.metadata.namespace)?.metadata.name === tas;
}

/** The logger the operator's patch would set: mode all, the TrustyAIService's URL in the scheme its pod serves. */
export function trustyaiLoggerFor(tas: KubeObject | undefined, namespace: string | undefined): LoggerSpec | undefined {
  if (!tas || !namespace) return undefined;
  const https = (tas.status as { servesHttps?: unknown } | undefined)?.servesHttps === true;
  return { mode: 'all', url: `${https ? 'https' : 'http'}://${tas.metadata.name}.${namespace}.svc.cluster.local` };
}
