import type { V1Service } from '@kubernetes/client-node';
import { childMeta, type Parent } from '../kit/index.js';
import { labelsFor, selectorFor, serviceName } from './names.js';

export function serviceFor(parent: Parent<unknown>): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMeta(parent, serviceName(parent), labelsFor(parent)),
    spec: {
      type: 'ClusterIP',
      selector: selectorFor(parent),
      ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }],
    },
  };
}
