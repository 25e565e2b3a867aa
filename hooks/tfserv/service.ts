import type { V1Service } from '@kubernetes/client-node';
import { childMeta, type Parent } from '../kit/index.js';
import { labelsFor, selectorFor, serviceName } from './names.js';
import type { TfservSpec } from './spec.js';

/** Service `<n>-service`: ports `rest` and `grpc` of the pods labelled `tfsName: <n>`. */
export function serviceFor(parent: Parent<TfservSpec>): V1Service {
  const { spec } = parent;
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMeta(parent, serviceName(parent), labelsFor(parent, 'service')),
    spec: {
      type: spec.serviceType,
      selector: selectorFor(parent),
      ports: [
        { name: 'rest', port: spec.restPort, targetPort: 'rest', protocol: 'TCP' },
        { name: 'grpc', port: spec.grpcPort, targetPort: 'grpc', protocol: 'TCP' },
      ],
    },
  };
}
