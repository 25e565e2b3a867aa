/**
 * Observed children as the cluster shows them once ready: the desired child plus the status
 * its Kubernetes controller writes (field names and reasons as in kube-controller-manager
 * 1.35). Use them as `observed` in runSync, or let `converge` apply them.
 *
 *   const out = runSync(echo, { parent, observed: first.children.map(ready) });
 */
import { shortHash } from '../kit/children/hash.js';
import { isRecord, type KubeObject } from '../kit/types.js';
import { TEST_NOW } from './run.js';

export interface ReadyOptions {
  /** RFC 3339 time of the conditions and timestamps. */
  now?: string;
}

type Obj = Record<string, unknown>;

/** A deep copy with `metadata.generation` (1 for a new object, as the API server sets it). */
function observedCopy<T extends object>(desired: T): T & { metadata: Obj; spec: Obj; status?: unknown } {
  const copy = structuredClone(desired) as T & { metadata?: Obj; spec?: Obj };
  const metadata = { ...(copy.metadata ?? {}) };
  metadata.generation ??= 1;
  return Object.assign(copy, { metadata, spec: isRecord(copy.spec) ? copy.spec : {} });
}

const specNumber = (spec: Obj, field: string, fallback: number) => (typeof spec[field] === 'number' ? (spec[field] as number) : fallback);

/** Counters the Deployment controller leaves out when zero (omitempty). */
function counters(fields: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(fields).filter(([, n]) => n !== 0));
}

/** Every replica updated, ready and available; Available and Progressing (NewReplicaSetAvailable) True. */
export function readyDeployment<T extends object>(desired: T, options: ReadyOptions = {}): T {
  const d = observedCopy(desired);
  const now = options.now ?? TEST_NOW;
  const replicas = specNumber(d.spec, 'replicas', 1);
  const template = isRecord(d.spec.template) ? d.spec.template : {};
  // The controller names the ReplicaSet <deployment>-<pod-template-hash>; this hash is ours, not Kubernetes'.
  const replicaSet = `${String(d.metadata.name)}-${shortHash(template, 10)}`;
  d.status = {
    observedGeneration: d.metadata.generation,
    ...counters({ replicas, updatedReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas }),
    conditions: [
      {
        type: 'Available',
        status: 'True',
        lastUpdateTime: now,
        lastTransitionTime: now,
        reason: 'MinimumReplicasAvailable',
        message: 'Deployment has minimum availability.',
      },
      {
        type: 'Progressing',
        status: 'True',
        lastUpdateTime: now,
        lastTransitionTime: now,
        reason: 'NewReplicaSetAvailable',
        message: `ReplicaSet "${replicaSet}" has successfully progressed.`,
      },
    ],
  };
  return d;
}

/** Every completion succeeded: SuccessCriteriaMet then Complete (reason CompletionsReached). */
export function completedJob<T extends object>(desired: T, options: ReadyOptions = {}): T {
  const job = observedCopy(desired);
  const now = options.now ?? TEST_NOW;
  const terminal = (type: string) => ({
    type,
    status: 'True',
    lastProbeTime: now,
    lastTransitionTime: now,
    reason: 'CompletionsReached',
    message: 'Reached expected number of succeeded pods',
  });
  job.status = {
    startTime: now,
    completionTime: now,
    succeeded: specNumber(job.spec, 'completions', 1),
    ready: 0,
    terminating: 0,
    uncountedTerminatedPods: {},
    conditions: [terminal('SuccessCriteriaMet'), terminal('Complete')],
  };
  return job;
}

/** Bound to a volume by the PV controller: phase Bound, the requested capacity and access modes. */
export function boundPvc<T extends object>(desired: T): T {
  const pvc = observedCopy(desired);
  const requests = isRecord(pvc.spec.resources) && isRecord(pvc.spec.resources.requests) ? pvc.spec.resources.requests : {};
  const volume = `pvc-${shortHash([pvc.metadata.namespace, pvc.metadata.name], 8)}`;
  pvc.metadata.annotations = { ...(pvc.metadata.annotations as Obj), 'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes' };
  pvc.spec = { ...pvc.spec, volumeName: pvc.spec.volumeName ?? volume, volumeMode: pvc.spec.volumeMode ?? 'Filesystem' };
  pvc.status = { phase: 'Bound', accessModes: pvc.spec.accessModes ?? ['ReadWriteOnce'], capacity: { ...requests } };
  return pvc;
}

/**
 * As the API server defaults and allocates it: a cluster IP (ClusterIP, NodePort and
 * LoadBalancer), node ports (NodePort, LoadBalancer), and for LoadBalancer the
 * load-balancer address the cloud controller publishes.
 */
export function readyService<T extends object>(desired: T): T {
  const svc = observedCopy(desired);
  const type = typeof svc.spec.type === 'string' ? svc.spec.type : 'ClusterIP';
  const octets = (salt: string) => parseInt(shortHash([salt, svc.metadata.namespace, svc.metadata.name], 4), 16);
  const n = octets('ip');
  const clusterIP = svc.spec.clusterIP ?? `10.96.${(n >> 8) % 256}.${(n % 254) + 1}`;
  const withNodePort = type === 'NodePort' || type === 'LoadBalancer';
  const ports = Array.isArray(svc.spec.ports)
    ? svc.spec.ports.map((p: Obj, i: number) => ({
        protocol: 'TCP',
        ...p,
        ...(withNodePort && p.nodePort === undefined ? { nodePort: 30000 + ((octets('port') + i) % 2768) } : {}),
      }))
    : svc.spec.ports;
  svc.spec = {
    ...svc.spec,
    type,
    sessionAffinity: svc.spec.sessionAffinity ?? 'None',
    internalTrafficPolicy: svc.spec.internalTrafficPolicy ?? 'Cluster',
    ipFamilies: ['IPv4'],
    ipFamilyPolicy: 'SingleStack',
    ...(type === 'ExternalName' || clusterIP === 'None' ? { clusterIP } : { clusterIP, clusterIPs: [clusterIP] }),
    ...(ports === undefined ? {} : { ports }),
    ...(withNodePort ? { externalTrafficPolicy: svc.spec.externalTrafficPolicy ?? 'Cluster' } : {}),
    ...(type === 'LoadBalancer' ? { allocateLoadBalancerNodePorts: svc.spec.allocateLoadBalancerNodePorts ?? true } : {}),
  };
  svc.status = { loadBalancer: type === 'LoadBalancer' ? { ingress: [{ ip: `203.0.113.${(octets('lb') % 254) + 1}`, ipMode: 'VIP' }] } : {} };
  return svc;
}

/** Admitted by its ingress controller, which published a load-balancer address. */
export function readyIngress<T extends object>(desired: T): T {
  const ingress = observedCopy(desired);
  const n = parseInt(shortHash([ingress.metadata.namespace, ingress.metadata.name], 4), 16);
  ingress.status = { loadBalancer: { ingress: [{ ip: `198.51.100.${(n % 254) + 1}` }] } };
  return ingress;
}

/** Scaling at its minimum: AbleToScale and ScalingActive True, ScalingLimited False. */
export function readyHpa<T extends object>(desired: T, options: ReadyOptions = {}): T {
  const hpa = observedCopy(desired);
  const now = options.now ?? TEST_NOW;
  const replicas = specNumber(hpa.spec, 'minReplicas', 1);
  hpa.status = {
    observedGeneration: hpa.metadata.generation,
    currentReplicas: replicas,
    desiredReplicas: replicas,
    conditions: [
      { type: 'AbleToScale', status: 'True', lastTransitionTime: now, reason: 'ReadyForNewScale', message: 'recommended size matches current size' },
      {
        type: 'ScalingActive',
        status: 'True',
        lastTransitionTime: now,
        reason: 'ValidMetricFound',
        message: 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
      },
      {
        type: 'ScalingLimited',
        status: 'False',
        lastTransitionTime: now,
        reason: 'DesiredWithinRange',
        message: 'the desired count is within the acceptable range',
      },
    ],
  };
  return hpa;
}

/**
 * The child as the cluster shows it once ready, by kind (Deployment, Job,
 * PersistentVolumeClaim, Service, Ingress, HorizontalPodAutoscaler); any other kind as
 * applied, with `metadata.generation`.
 */
export function ready<T extends object = KubeObject>(child: T, options: ReadyOptions = {}): T {
  switch ((child as { kind?: unknown }).kind) {
    case 'Deployment':
      return readyDeployment(child, options);
    case 'Job':
      return completedJob(child, options);
    case 'PersistentVolumeClaim':
      return boundPvc(child);
    case 'Service':
      return readyService(child);
    case 'Ingress':
      return readyIngress(child);
    case 'HorizontalPodAutoscaler':
      return readyHpa(child, options);
    default: {
      const copy = structuredClone(child) as T & { metadata?: Obj };
      if (isRecord(copy.metadata)) copy.metadata = { ...copy.metadata, generation: copy.metadata.generation ?? 1 };
      return copy;
    }
  }
}
