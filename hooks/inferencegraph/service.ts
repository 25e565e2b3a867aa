import type { V1Service } from '@kubernetes/client-node';
import { childMeta, type Parent } from '../kit/index.js';
import { annotationsFor } from './metadata.js';
import { labelsFor, ROUTER_PORT, selectorFor, serviceName, SERVICE_PORT } from './names.js';

/**
 * Service `<n>`: port 80 to the router's 8080 (service_reconciler.go createDefaultSvc: a
 * container without ports gets CommonDefaultHttpPort → InferenceServiceDefaultHttpPort).
 * KServe names the port after the graph; here it is `http`, as InferenceServices' are, since
 * a graph's name need not be a valid port name.
 */
export function serviceFor(parent: Parent<unknown>): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMeta(parent, serviceName(parent), labelsFor(parent, 'router'), annotationsFor(parent)),
    spec: {
      selector: selectorFor(parent),
      ports: [{ name: 'http', port: SERVICE_PORT, targetPort: ROUTER_PORT, protocol: 'TCP' }],
    },
  };
}
