import type { V1Service } from '@kubernetes/client-node';
import { childMeta, type Parent } from '../kit/index.js';
import { HTTP_PORT, HTTPS_PORT, internalCertName, labelsFor, PROXY_PORT, selectorFor, serviceName, tlsCertName, tlsServiceName } from './names.js';

/** OpenShift's service CA writes a serving certificate into the Secret this annotation names. */
export const SERVING_CERT_ANNOTATION = 'service.beta.openshift.io/serving-cert-secret-name';

/**
 * The in-cluster Service `<n>` (service-internal.tmpl.yaml@11c335b): HTTP 80→8080 for the
 * ModelMesh payload processor and the ServiceMonitor, HTTPS 443→4443 for KServe's loggers.
 */
export function serviceFor(parent: Parent<unknown>, opts: { version: string; serviceCA: boolean; selector?: Record<string, string> }): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMeta(parent, serviceName(parent), labelsFor(parent, opts.version), {
      'prometheus.io/path': '/q/metrics',
      'prometheus.io/scheme': 'http',
      'prometheus.io/scrape': 'true',
      ...(opts.serviceCA ? { [SERVING_CERT_ANNOTATION]: internalCertName(parent) } : {}),
    }),
    spec: {
      type: 'ClusterIP',
      selector: opts.selector ?? selectorFor(parent, opts.version),
      ports: [
        { name: 'http', protocol: 'TCP', port: 80, targetPort: HTTP_PORT },
        { name: 'https', protocol: 'TCP', port: 443, targetPort: HTTPS_PORT },
      ],
    },
  };
}

/** `<n>-tls` (service-tls.tmpl.yaml@11c335b): kube-rbac-proxy's port, behind the Route. */
export function tlsServiceFor(parent: Parent<unknown>, opts: { version: string }): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMeta(
      parent,
      tlsServiceName(parent),
      { ...labelsFor(parent, opts.version), 'trustyai-service-name': selectorFor(parent).app as string },
      { [SERVING_CERT_ANNOTATION]: tlsCertName(parent) },
    ),
    spec: {
      selector: { app: selectorFor(parent).app as string },
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: PROXY_PORT }],
    },
  };
}
