import type { V1Service } from '@kubernetes/client-node';
import { childMeta, type Parent } from '../../kit/index.js';
import type { ComponentPlan } from '../components.js';
import type { ComponentMeta } from './metadata.js';
import { selectorFor, serviceName, type Role } from '../names.js';
import { servicePortsFor } from './service-ports.js';

/**
 * Every port of the component's serving container, the first as 80, as KServe's raw Services expose every component;
 * headless (`clusterIP: None`) where `service.serviceClusterIPNone` says so (service_reconciler.go createDefaultSvc).
 */
export function serviceFor(parent: Parent<unknown>, role: Role, plan: Pick<ComponentPlan, 'pod' | 'agent' | 'raw'>, meta: ComponentMeta): V1Service {
  const name = serviceName(parent, role);
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMeta(parent, name, meta.labels, meta.annotations),
    spec: {
      type: 'ClusterIP',
      ...(plan.raw?.serviceClusterIPNone ? { clusterIP: 'None' } : {}),
      selector: selectorFor(parent, role),
      ports: servicePortsFor(plan.pod.containers, name, plan.agent === true),
    },
  };
}

/**
 * A Service's clusterIP cannot change once it exists: one observed keeps its own, as KServe's
 * reconciler compares only ports and selector (semanticServiceEquals) and never changes it.
 */
export function withObservedClusterIP(desired: V1Service, observed: V1Service | undefined): V1Service {
  const ip = observed?.spec?.clusterIP;
  if (!ip || !desired.spec || (desired.spec.clusterIP === 'None') === (ip === 'None')) return desired;
  const { clusterIP: _, ...spec } = desired.spec;
  return { ...desired, spec: ip === 'None' ? { ...spec, clusterIP: ip } : spec };
}
