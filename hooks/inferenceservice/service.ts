import type { V1Service } from '@kubernetes/client-node';
import { childMeta, type Parent } from '../kit/index.js';
import type { ComponentMeta } from './metadata.js';
import { selectorFor, SERVICE_PORT, serviceName, type Role } from './names.js';

/** Port 80 → the server's port, as KServe's raw Services expose every component. */
export function serviceFor(parent: Parent<unknown>, role: Role, port: { containerPort: number; name: string }, meta: ComponentMeta): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMeta(parent, serviceName(parent, role), meta.labels, meta.annotations),
    spec: {
      type: 'ClusterIP',
      selector: selectorFor(parent, role),
      ports: [{ name: port.name, port: SERVICE_PORT, targetPort: port.containerPort, protocol: 'TCP' }],
    },
  };
}
