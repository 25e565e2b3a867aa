import { childName, isRecord, labelValue, MANAGED_BY, type KubeObject, type Parent } from '../kit/index.js';

export const COMPONENT = 'trustyai-service';
export const MODEL_SERVING_CONFIG = 'model-serving-config';
/** The service's plain HTTP port, and the HTTPS port it serves with the `<n>-internal` certificate. */
export const HTTP_PORT = 8080;
export const HTTPS_PORT = 4443;
/** kube-rbac-proxy's port, and where it forwards authorised requests (deployment.tmpl.yaml@11c335b). */
export const PROXY_PORT = 8443;
export const PROXY_UPSTREAM_PORT = 8081;
/** The operator release whose objects these are (controllers/constants/version.go@11c335b). */
export const OPERATOR_VERSION = '1.39.0';
/** `componentName` of controllers/tas/constants.go@11c335b: every child's part-of. */
export const PART_OF = 'trustyai';

type AnyParent = Parent<unknown>;

/** Child names as the operator gives them: the parent's name, `-tls`, `-pvc`, `-internal`… */
export const deploymentName = (p: AnyParent) => childName([p.metadata.name]);
export const serviceName = (p: AnyParent) => childName([p.metadata.name], { dns1035: true });
export const tlsServiceName = (p: AnyParent) => childName([p.metadata.name, 'tls'], { dns1035: true });
export const pvcName = (p: AnyParent) => childName([p.metadata.name, 'pvc']);
export const proxyServiceAccountName = (p: AnyParent) => childName([p.metadata.name, 'proxy']);
export const proxyConfigName = (p: AnyParent) => childName([p.metadata.name, 'kube-rbac-proxy-config']);
/** Secrets: the internal serving certificate, the proxy's, and the database CA the user may provide. */
export const internalCertName = (p: AnyParent) => `${p.metadata.name}-internal`;
export const tlsCertName = (p: AnyParent) => `${p.metadata.name}-tls`;
export const dbCaName = (p: AnyParent) => `${p.metadata.name}-db-ca`;
/**
 * The pod's volumes of those two Secrets. A volume name is a DNS-1123 label (≤63, no dots),
 * which `<n>-internal` is not for a long or dotted parent name: the API server would refuse
 * the Deployment. The same name when it is valid, shortened and hashed otherwise.
 */
export const internalCertVolume = (p: AnyParent) => childName([p.metadata.name, 'internal']);
export const tlsCertVolume = (p: AnyParent) => childName([p.metadata.name, 'tls']);

/**
 * The operator's selector labels (deployment.tmpl.yaml@11c335b): app, instance and name are the
 * parent's name, part-of `trustyai`, version the operator's. All five are the Deployment's
 * immutable selector, so `version` is the one an existing operator-made Deployment carries.
 */
export function selectorFor(p: AnyParent, version: string = OPERATOR_VERSION): Record<string, string> {
  const name = labelValue(p.metadata.name);
  return {
    app: name,
    'app.kubernetes.io/instance': name,
    'app.kubernetes.io/name': name,
    'app.kubernetes.io/part-of': PART_OF,
    'app.kubernetes.io/version': version,
  };
}

/** Labels of every child: the operator's five, and ours saying who manages it. */
export function labelsFor(p: AnyParent, version: string = OPERATOR_VERSION): Record<string, string> {
  // selectorFor's five, written out (same keys, same order): no object built only to be spread.
  const name = labelValue(p.metadata.name);
  return {
    app: name,
    'app.kubernetes.io/instance': name,
    'app.kubernetes.io/name': name,
    'app.kubernetes.io/part-of': PART_OF,
    'app.kubernetes.io/version': version,
    'app.kubernetes.io/component': COMPONENT,
    'app.kubernetes.io/managed-by': MANAGED_BY,
  };
}

/**
 * The `version` of an observed Deployment's selector when it is the operator's selector for this
 * parent (any operator release); otherwise ours. Keeping it lets the hook adopt a Deployment the
 * operator created: same selector, no refusal, no new ReplicaSet for the selector.
 */
export function selectorVersion(p: AnyParent, deployment: KubeObject | undefined): string {
  const spec = deployment && isRecord(deployment.spec) ? deployment.spec : {};
  const selector = isRecord(spec.selector) && isRecord(spec.selector.matchLabels) ? spec.selector.matchLabels : undefined;
  const version = selector?.['app.kubernetes.io/version'];
  if (!selector || typeof version !== 'string') return OPERATOR_VERSION;
  const wanted = selectorFor(p, version);
  const same = Object.keys(selector).length === Object.keys(wanted).length && Object.entries(wanted).every(([k, v]) => selector[k] === v);
  return same ? version : OPERATOR_VERSION;
}

/** The URL ModelMesh posts payloads to: the in-cluster address of the Service. */
export function payloadProcessorUrl(name: string, namespace: string): string {
  return `http://${childName([name], { dns1035: true })}.${namespace}.svc.cluster.local/consumer/kserve/v2`;
}
