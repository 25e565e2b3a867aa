import type { V1Service } from '@kubernetes/client-node';
import { childMeta, type Parent } from '../kit/index.js';
import { annotationsFor } from './metadata.js';
import { labelsFor, ROUTER_PORT, selectorFor, serviceName, SERVICE_PORT } from './names.js';

/**
 * Service `<n>`: port 80 to the router's 8080 (service_reconciler.go createDefaultSvc: a
 * container without ports gets CommonDefaultHttpPort → InferenceServiceDefaultHttpPort).
 * The port is named after the Service, as KServe names it (componentMeta.Name, the graph's
 * name; serviceName makes a name with a dot a DNS-1035 label, where KServe's would be refused).
 */
export function serviceFor(parent: Parent<unknown>): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMeta(parent, serviceName(parent), labelsFor(parent, 'router'), annotationsFor(parent)),
    spec: {
      selector: selectorFor(parent),
      ports: [{ name: serviceName(parent), port: SERVICE_PORT, targetPort: ROUTER_PORT, protocol: 'TCP' }],
    },
  };
}
