import { isRecord, type KubeObject, type Parent, type RelatedRule, type SyncInput } from '../kit/index.js';
import { logsToTrustyAI } from '../inferenceservice/pod/trustyai-logger.js';
import { serviceName } from './names.js';

const TRUSTYAI = { apiVersion: 'trustyai.opendatahub.io/v1', kind: 'TrustyAIService' };

export const INFERENCE_SERVICE = { apiVersion: 'serving.kserve.io/v1beta1', kind: 'InferenceService', resource: 'inferenceservices' };

/** Every InferenceService of the parent's namespace (and only of it). */
export const inferenceServicesRule = (namespace: string): RelatedRule => ({
  apiVersion: INFERENCE_SERVICE.apiVersion,
  resource: INFERENCE_SERVICE.resource,
  namespace,
});

/**
 * Whether an InferenceService's predictor logs to this TrustyAIService: its logger URL's host is
 * the Service `<n>` by any in-cluster spelling (`<n>`, `<n>.<ns>`, `<n>.<ns>.svc`,
 * `<n>.<ns>.svc.cluster.local`), over http or https — the operator's URLs are the last one
 * (controllers/utils/utils.go@11c335b GenerateKServeLoggerURL / GenerateHTTPSKServeLoggerURL).
 */
export function logsTo(parent: Parent<unknown>, isvc: KubeObject): boolean {
  const spec = isRecord(isvc.spec) ? isvc.spec : {};
  const predictor = isRecord(spec.predictor) ? spec.predictor : {};
  const logger = isRecord(predictor.logger) ? predictor.logger : {};
  if (typeof logger.url !== 'string') return false;
  let url: URL;
  try {
    url = new URL(logger.url);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const svc = serviceName(parent);
  const ns = parent.metadata.namespace;
  const namespace = isvc.metadata.namespace ?? ns;
  const hosts = [`${svc}.${ns}`, `${svc}.${ns}.svc`, `${svc}.${ns}.svc.cluster.local`, ...(namespace === ns ? [svc] : [])];
  return hosts.includes(url.hostname.replace(/\.$/, ''));
}

/**
 * How many InferenceServices there are in the namespace, and how many log to this service: by
 * their own logger URL, or — with none of their own — by the InferenceService composition's
 * wiring to this namespace's TrustyAIService (logsToTrustyAI, the rule its hook applies).
 */
export function inferenceServiceCounts(input: SyncInput<unknown>): { total: number; loggingHere: number } {
  const { parent, related } = input;
  const all = related.list(INFERENCE_SERVICE.apiVersion, INFERENCE_SERVICE.kind).filter((i) => !i.metadata.deletionTimestamp);
  const listed = related.list(TRUSTYAI.apiVersion, TRUSTYAI.kind);
  const services = listed.some((t) => t.metadata.name === parent.metadata.name) ? listed : [...listed, { ...parent }];
  const here = (i: KubeObject) => logsTo(parent, i) || logsToTrustyAI(i, parent.metadata.name, services);
  return { total: all.length, loggingHere: all.filter(here).length };
}
