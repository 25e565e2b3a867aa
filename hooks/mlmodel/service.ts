import type { V1Service } from '@kubernetes/client-node';
import { childMeta, type Parent } from '../kit/index.js';
import { COMPONENT_SERVER, GRPC_PORT, REST_PORT, labelsFor, selectorFor, serviceName } from './names.js';
import type { MLModelSpec } from './spec.js';

/** Service `<n>-service` (when `expose`): the endpoint the original put in its status but never created. */
export function serviceFor(parent: Parent<MLModelSpec>): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMeta(parent, serviceName(parent), labelsFor(parent, COMPONENT_SERVER)),
    spec: {
      type: 'ClusterIP',
      selector: selectorFor(parent),
      ports: [
        { name: 'http', port: REST_PORT, targetPort: 'http', protocol: 'TCP' },
        { name: 'grpc', port: GRPC_PORT, targetPort: 'grpc', protocol: 'TCP' },
      ],
    },
  };
}
