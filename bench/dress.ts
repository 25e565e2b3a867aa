/**
 * Desired children dressed as the API server returns them to Metacontroller: defaults filled
 * in, the status of a ready object, managedFields, owner references, uid/resourceVersion/
 * creationTimestamp and Metacontroller's last-applied annotation. The benchmark requests are
 * the compositions' own answers dressed this way, so they stay right when a composition changes.
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../hooks/kit/index.js';

export const CREATED = '2025-11-03T09:12:44Z';
export const SYNCED = '2025-11-03T09:14:02Z';
export const NOW = '2025-11-03T10:00:00Z';
export const LAST_APPLIED = 'metacontroller.k8s.io/last-applied-configuration';
export const KUBECTL_LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

export type Json = Record<string, any>;

/** A stable RFC 4122-shaped uid for a seed. */
export function uid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A FieldsV1 tree for `obj`, the shape the API server keeps in managedFields. */
export function fieldsOf(obj: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(obj)) {
    if (Array.isArray(value)) {
      const items: Json = {};
      for (const item of value) {
        if (!isObj(item)) continue;
        const id =
          item.name !== undefined
            ? { name: item.name }
            : item.containerPort !== undefined
              ? { containerPort: item.containerPort, protocol: item.protocol ?? 'TCP' }
              : item.type !== undefined
                ? { type: item.type }
                : undefined;
        if (id) items[`k:${JSON.stringify(id)}`] = { '.': {}, ...fieldsOf(item) };
      }
      out[`f:${key}`] = items;
    } else if (isObj(value) && Object.keys(value).length > 0) {
      out[`f:${key}`] = { '.': {}, ...fieldsOf(value) };
    } else {
      out[`f:${key}`] = {};
    }
  }
  return out;
}

export function managedField(manager: string, apiVersion: string, time: string, fields: Json, subresource?: string): Json {
  return { manager, operation: 'Update', apiVersion, time, fieldsType: 'FieldsV1', fieldsV1: fields, ...(subresource ? { subresource } : {}) };
}

const ready = (type: string, reason: string, message: string) => ({ type, status: 'True', lastTransitionTime: SYNCED, reason, message });

/** Kind-specific defaults and the status of a ready object; returns the status manager, if any. */
type Dresser = (o: Json) => string | undefined;

const DRESS: Record<string, Dresser> = {
  Deployment(d) {
    const pod = d.spec.template.spec;
    for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
      c.imagePullPolicy ??= 'IfNotPresent';
      c.terminationMessagePath ??= '/dev/termination-log';
      c.terminationMessagePolicy ??= 'File';
      for (const probe of [c.readinessProbe, c.livenessProbe, c.startupProbe]) {
        if (probe)
          Object.assign(probe, {
            successThreshold: 1,
            failureThreshold: probe.failureThreshold ?? 3,
            timeoutSeconds: probe.timeoutSeconds ?? 1,
            periodSeconds: probe.periodSeconds ?? 10,
          });
        if (probe?.httpGet) probe.httpGet = { scheme: 'HTTP', ...probe.httpGet };
      }
    }
    const sa = pod.serviceAccountName ?? 'default';
    Object.assign(pod, {
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      serviceAccountName: sa,
      serviceAccount: sa,
    });
    pod.securityContext ??= {};
    d.spec.template.metadata = { creationTimestamp: null, ...d.spec.template.metadata };
    d.spec.strategy ??= { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } };
    Object.assign(d.spec, { revisionHistoryLimit: 10, progressDeadlineSeconds: 600 });
    d.metadata.annotations = { 'deployment.kubernetes.io/revision': '1', ...d.metadata.annotations };
    const replicas = d.spec.replicas ?? 1;
    d.spec.replicas = replicas;
    d.status = {
      observedGeneration: d.metadata.generation,
      replicas,
      updatedReplicas: replicas,
      readyReplicas: replicas,
      availableReplicas: replicas,
      conditions: [
        { ...ready('Available', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'), lastUpdateTime: SYNCED },
        {
          ...ready('Progressing', 'NewReplicaSetAvailable', `ReplicaSet "${d.metadata.name}-7d9f8c6b5d" has successfully progressed.`),
          lastUpdateTime: SYNCED,
        },
      ],
    };
    return 'kube-controller-manager';
  },
  Service(s) {
    const ip = `172.30.${(s.metadata.name.length * 7) % 250}.${(s.metadata.name.length * 13) % 250}`;
    s.spec.type ??= 'ClusterIP';
    if (s.spec.clusterIP !== 'None') Object.assign(s.spec, { clusterIP: ip, clusterIPs: [ip] });
    for (const port of s.spec.ports ?? []) {
      port.protocol ??= 'TCP';
      port.targetPort ??= port.port;
    }
    Object.assign(s.spec, { ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', internalTrafficPolicy: 'Cluster', sessionAffinity: 'None' });
    s.status = { loadBalancer: {} };
    return undefined;
  },
  PersistentVolumeClaim(p) {
    Object.assign(p.spec, { storageClassName: 'gp3-csi', volumeMode: 'Filesystem', volumeName: `pvc-${uid(p.metadata.name)}` });
    p.metadata.annotations = {
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
      'volume.beta.kubernetes.io/storage-provisioner': 'ebs.csi.aws.com',
      'volume.kubernetes.io/storage-provisioner': 'ebs.csi.aws.com',
      'volume.kubernetes.io/selected-node': 'ip-10-0-142-17.eu-west-1.compute.internal',
      ...p.metadata.annotations,
    };
    p.metadata.finalizers = ['kubernetes.io/pvc-protection'];
    p.status = { phase: 'Bound', accessModes: p.spec.accessModes, capacity: { storage: p.spec.resources?.requests?.storage } };
    return 'kube-controller-manager';
  },
  Job(j) {
    Object.assign(j.spec, {
      completions: j.spec.completions ?? 1,
      parallelism: j.spec.parallelism ?? 1,
      completionMode: 'NonIndexed',
      suspend: false,
      manualSelector: false,
      podReplacementPolicy: 'TerminatingOrFailed',
    });
    j.spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': j.metadata.uid } };
    j.status = {
      startTime: CREATED,
      completionTime: SYNCED,
      succeeded: 1,
      ready: 0,
      uncountedTerminatedPods: {},
      conditions: [
        { type: 'SuccessCriteriaMet', status: 'True', lastProbeTime: SYNCED, lastTransitionTime: SYNCED },
        { type: 'Complete', status: 'True', lastProbeTime: SYNCED, lastTransitionTime: SYNCED },
      ],
    };
    return 'kube-controller-manager';
  },
  HorizontalPodAutoscaler(h) {
    const replicas = h.spec.minReplicas ?? 1;
    h.status = {
      currentReplicas: replicas,
      desiredReplicas: replicas,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 12, averageValue: '118m' } } }],
      conditions: [
        ready('AbleToScale', 'ReadyForNewScale', 'recommended size matches current size'),
        ready(
          'ScalingActive',
          'ValidMetricFound',
          'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
        ),
        { ...ready('ScalingLimited', 'DesiredWithinRange', 'the desired count is within the acceptable range'), status: 'False' },
      ],
    };
    return 'kube-controller-manager';
  },
  Ingress(i) {
    i.status = { loadBalancer: { ingress: [{ ip: '203.0.113.10' }] } };
    return 'ingress-nginx-controller';
  },
  HTTPRoute(r) {
    r.status = {
      parents: (r.spec.parentRefs ?? []).map((ref: Json) => ({
        parentRef: { group: 'gateway.networking.k8s.io', kind: 'Gateway', ...ref },
        controllerName: 'gateway.envoyproxy.io/gatewayclass-controller',
        conditions: [
          { ...ready('Accepted', 'Accepted', 'Route is accepted'), observedGeneration: r.metadata.generation },
          { ...ready('ResolvedRefs', 'ResolvedRefs', 'Resolved all the Object references for the Route'), observedGeneration: r.metadata.generation },
        ],
      })),
    };
    return 'envoy-gateway';
  },
  Route(r) {
    const host = r.spec.host ?? `${r.metadata.name}-${r.metadata.namespace}.apps.cluster.example.com`;
    r.spec = { host, wildcardPolicy: 'None', ...r.spec, to: { weight: 100, ...r.spec.to } };
    r.status = {
      ingress: [
        {
          host,
          routerName: 'default',
          routerCanonicalHostname: 'router-default.apps.cluster.example.com',
          wildcardPolicy: 'None',
          conditions: [{ type: 'Admitted', status: 'True', lastTransitionTime: SYNCED }],
        },
      ],
    };
    return 'openshift-router';
  },
};

export interface Owner {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
}

/** `desired` as the API server returns it after Metacontroller created it and its controllers made it ready. */
export function dress(desired: KubeObject, owner: Owner, index: number): KubeObject {
  const o = structuredClone(desired) as Json;
  const name = String(o.metadata.name);
  o.metadata = {
    ...o.metadata,
    uid: uid(`${owner.uid}/${o.kind}/${name}`),
    resourceVersion: String(48211930 + index * 17),
    generation: 1,
    creationTimestamp: CREATED,
    annotations: { ...o.metadata.annotations, [LAST_APPLIED]: JSON.stringify(desired) },
    ownerReferences: [{ ...owner, controller: true, blockOwnerDeletion: true }],
  };
  const statusManager = DRESS[o.kind]?.(o);
  const { metadata, status, apiVersion, kind, ...content } = o;
  const managedFields = [
    managedField('metacontroller', apiVersion, CREATED, {
      'f:metadata': fieldsOf({ labels: metadata.labels ?? {}, annotations: { [LAST_APPLIED]: '' }, ownerReferences: metadata.ownerReferences }),
      ...fieldsOf(content),
    }),
  ];
  if (statusManager && status) managedFields.push(managedField(statusManager, apiVersion, SYNCED, { 'f:status': fieldsOf(status) }, 'status'));
  o.metadata.managedFields = managedFields;
  void kind;
  return o as KubeObject;
}

/** The parent as kubectl applied it: last-applied annotation, managedFields, uid, resourceVersion. */
export function appliedParent(parent: Json, generation: number): Json {
  const { apiVersion, kind, metadata, spec } = parent;
  const applied = {
    apiVersion,
    kind,
    metadata: {
      name: metadata.name,
      namespace: metadata.namespace,
      ...(metadata.labels ? { labels: metadata.labels } : {}),
      ...(metadata.annotations ? { annotations: metadata.annotations } : {}),
    },
    spec,
  };
  return {
    apiVersion,
    kind,
    metadata: {
      ...metadata,
      uid: uid(`${kind}/${metadata.namespace}/${metadata.name}`),
      resourceVersion: '48211001',
      generation,
      creationTimestamp: CREATED,
      annotations: { ...metadata.annotations, [KUBECTL_LAST_APPLIED]: `${JSON.stringify(applied)}\n` },
      managedFields: [
        managedField('kubectl-client-side-apply', apiVersion, CREATED, {
          'f:metadata': fieldsOf({ annotations: { [KUBECTL_LAST_APPLIED]: '', ...metadata.annotations }, labels: metadata.labels ?? {} }),
          'f:spec': fieldsOf(spec),
        }),
        managedField('metacontroller', apiVersion, SYNCED, { 'f:status': { '.': {}, 'f:conditions': {}, 'f:observedGeneration': {} } }, 'status'),
      ],
    },
    spec,
  };
}
