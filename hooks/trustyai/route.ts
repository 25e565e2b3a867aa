import { childMeta, type KubeObject, type Parent } from '../kit/index.js';
import { labelsFor, serviceName } from './names.js';

/** OpenShift Route to the Service, TLS terminated at the router; plain HTTP is redirected. */
export function routeFor(parent: Parent<unknown>): KubeObject {
  return {
    apiVersion: 'route.openshift.io/v1',
    kind: 'Route',
    metadata: childMeta(parent, serviceName(parent), labelsFor(parent)),
    spec: {
      to: { kind: 'Service', name: serviceName(parent), weight: 100 },
      port: { targetPort: 'http' },
      tls: { termination: 'edge', insecureEdgeTerminationPolicy: 'Redirect' },
    },
  };
}
