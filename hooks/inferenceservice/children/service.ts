import type { V1Service } from '@kubernetes/client-node';
import { childMeta, type Parent } from '../../kit/index.js';
import type { ComponentPlan } from '../components.js';
import type { ComponentMeta } from './metadata.js';
import { selectorFor, serviceName, type Role } from '../names.js';
import { servicePortsFor } from './service-ports.js';

/** Every port of the component's serving container, the first as 80, as KServe's raw Services expose every component. */
export function serviceFor(parent: Parent<unknown>, role: Role, plan: Pick<ComponentPlan, 'pod' | 'agent'>, meta: ComponentMeta): V1Service {
  const name = serviceName(parent, role);
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMeta(parent, name, meta.labels, meta.annotations),
    spec: {
      type: 'ClusterIP',
      selector: selectorFor(parent, role),
      ports: servicePortsFor(plan.pod.containers, name, plan.agent === true),
    },
  };
}
