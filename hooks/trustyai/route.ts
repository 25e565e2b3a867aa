import { childMeta, labelValue, type KubeObject, type Parent } from '../kit/index.js';
import { labelsFor, serviceName, tlsServiceName } from './names.js';

/**
 * The OpenShift Route (route.tmpl.yaml@11c335b): re-encrypted to kube-rbac-proxy on `<n>-tls`,
 * which lets through only callers allowed to `get` this service; plain HTTP is redirected.
 */
export function routeFor(parent: Parent<unknown>): KubeObject {
  return {
    apiVersion: 'route.openshift.io/v1',
    kind: 'Route',
    metadata: childMeta(parent, serviceName(parent), { ...labelsFor(parent), 'trustyai-service-name': labelValue(parent.metadata.name) }),
    spec: {
      to: { kind: 'Service', name: tlsServiceName(parent), weight: 100 },
      port: { targetPort: 'https' },
      tls: { termination: 'reencrypt', insecureEdgeTerminationPolicy: 'Redirect' },
    },
  };
}
