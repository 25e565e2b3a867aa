/**
 * A TrustyAIService sync request as a real cluster sends it: the parent with its previous
 * status and managedFields, and the observed children (Deployment, Service, PVC, ConfigMap)
 * the way the API server returns them — defaults filled in, status, managedFields, owner
 * references and Metacontroller's last-applied annotation. About 25 KB of JSON.
 *
 * The children are the composition's own answer, decorated, so the request stays right
 * when the composition changes.
 */
import { createHash } from 'node:crypto';
import { defaultHookConfig } from '../hooks/config.js';
import { compositeControllerFor } from '../hooks/kit/manifests.js';
import type { KubeObject } from '../hooks/kit/index.js';
import { IN_CLUSTER_HOOK_URL } from '../hooks/cli/manifests.js';
import { runSync, syncRequest } from '../hooks/testing.js';
import { trustyai } from '../hooks/trustyai/index.js';

const NAMESPACE = 'fraud-detection';
const NAME = 'trustyai-service';
const CREATED = '2025-11-03T09:12:44Z';
const SYNCED = '2025-11-03T09:14:02Z';
const NOW = '2025-11-03T10:00:00Z';
const LAST_APPLIED = 'metacontroller.k8s.io/last-applied-configuration';

/** A marker in the parent's resourceVersion: `distinctBodies` replaces it per request. */
const RESOURCE_VERSION_MARKER = '9999999999';

type Json = Record<string, unknown>;

const uid = (seed: string) => {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A FieldsV1 tree for `obj`, the shape the API server keeps in managedFields. */
function fieldsOf(obj: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(obj)) {
    if (Array.isArray(value)) {
      const items: Json = {};
      for (const item of value) {
        if (!isObj(item)) continue;
        const id = item.name !== undefined ? { name: item.name } : item.containerPort !== undefined ? { containerPort: item.containerPort, protocol: item.protocol ?? 'TCP' } : item.type !== undefined ? { type: item.type } : undefined;
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

function managedField(manager: string, time: string, fields: Json, subresource?: string): Json {
  return { manager, operation: 'Update', apiVersion: 'v1', time, fieldsType: 'FieldsV1', fieldsV1: fields, ...(subresource ? { subresource } : {}) };
}

/** What the API server adds to a Deployment that Metacontroller created from `desired`. */
function observedDeployment(desired: KubeObject, meta: Json): KubeObject {
  const d = structuredClone(desired) as unknown as Json & { spec: any };
  const pod = d.spec.template.spec;
  for (const c of pod.containers) {
    c.imagePullPolicy ??= 'IfNotPresent';
    c.terminationMessagePath = '/dev/termination-log';
    c.terminationMessagePolicy = 'File';
    for (const probe of [c.readinessProbe, c.livenessProbe]) if (probe) Object.assign(probe, { successThreshold: 1, failureThreshold: probe.failureThreshold ?? 3, httpGet: { scheme: 'HTTP', ...probe.httpGet } });
  }
  Object.assign(pod, { restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', serviceAccountName: pod.serviceAccountName ?? 'default', serviceAccount: pod.serviceAccountName ?? 'default' });
  d.spec.template.metadata.creationTimestamp = null;
  Object.assign(d.spec, { revisionHistoryLimit: 10, progressDeadlineSeconds: 600 });
  const replicas = d.spec.replicas ?? 1;
  d.metadata = { ...(d.metadata as Json), ...meta, annotations: { 'deployment.kubernetes.io/revision': '1', ...(meta.annotations as Json) } };
  d.status = {
    observedGeneration: 1,
    replicas,
    updatedReplicas: replicas,
    readyReplicas: replicas,
    availableReplicas: replicas,
    conditions: [
      { type: 'Available', status: 'True', lastUpdateTime: SYNCED, lastTransitionTime: SYNCED, reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' },
      { type: 'Progressing', status: 'True', lastUpdateTime: SYNCED, lastTransitionTime: CREATED, reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${String((desired.metadata as Json).name)}-7d9f8c6b5d" has successfully progressed.` },
    ],
  };
  (d.metadata as Json).managedFields = [
    managedField('metacontroller', CREATED, { 'f:metadata': fieldsOf({ labels: (desired.metadata as Json).labels, annotations: { [LAST_APPLIED]: '' }, ownerReferences: meta.ownerReferences }), 'f:spec': fieldsOf(d.spec) }),
    managedField('kube-controller-manager', SYNCED, { 'f:metadata': { 'f:annotations': { '.': {}, 'f:deployment.kubernetes.io/revision': {} } }, 'f:status': fieldsOf(d.status as Json) }, 'status'),
  ].map((f) => ({ ...f, apiVersion: 'apps/v1' }));
  return d as unknown as KubeObject;
}

function observedService(desired: KubeObject, meta: Json): KubeObject {
  const s = structuredClone(desired) as unknown as Json & { spec: any };
  Object.assign(s.spec, {
    clusterIP: '172.30.118.42',
    clusterIPs: ['172.30.118.42'],
    ipFamilies: ['IPv4'],
    ipFamilyPolicy: 'SingleStack',
    internalTrafficPolicy: 'Cluster',
    sessionAffinity: 'None',
  });
  s.metadata = { ...(s.metadata as Json), ...meta };
  s.status = { loadBalancer: {} };
  (s.metadata as Json).managedFields = [
    managedField('metacontroller', CREATED, { 'f:metadata': fieldsOf({ labels: (desired.metadata as Json).labels, annotations: { [LAST_APPLIED]: '' }, ownerReferences: meta.ownerReferences }), 'f:spec': fieldsOf(desired.spec as Json) }),
  ];
  return s as unknown as KubeObject;
}

function observedPvc(desired: KubeObject, meta: Json): KubeObject {
  const p = structuredClone(desired) as unknown as Json & { spec: any };
  Object.assign(p.spec, { storageClassName: 'gp3-csi', volumeMode: 'Filesystem', volumeName: `pvc-${uid('pv')}` });
  p.metadata = {
    ...(p.metadata as Json),
    ...meta,
    annotations: {
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
      'volume.beta.kubernetes.io/storage-provisioner': 'ebs.csi.aws.com',
      'volume.kubernetes.io/storage-provisioner': 'ebs.csi.aws.com',
      'volume.kubernetes.io/selected-node': 'ip-10-0-142-17.eu-west-1.compute.internal',
      ...(meta.annotations as Json),
    },
    finalizers: ['kubernetes.io/pvc-protection'],
  };
  p.status = { phase: 'Bound', accessModes: p.spec.accessModes, capacity: { storage: p.spec.resources.requests.storage } };
  (p.metadata as Json).managedFields = [
    managedField('metacontroller', CREATED, { 'f:metadata': fieldsOf({ labels: (desired.metadata as Json).labels, annotations: { [LAST_APPLIED]: '' }, ownerReferences: meta.ownerReferences }), 'f:spec': fieldsOf(desired.spec as Json) }),
    managedField('kube-scheduler', CREATED, { 'f:metadata': { 'f:annotations': { 'f:volume.kubernetes.io/selected-node': {} } } }),
    managedField('kube-controller-manager', SYNCED, { 'f:metadata': { 'f:annotations': { 'f:pv.kubernetes.io/bind-completed': {}, 'f:pv.kubernetes.io/bound-by-controller': {}, 'f:volume.beta.kubernetes.io/storage-provisioner': {}, 'f:volume.kubernetes.io/storage-provisioner': {} } }, 'f:spec': { 'f:volumeName': {} } }),
    managedField('kube-controller-manager', SYNCED, { 'f:status': fieldsOf(p.status as Json) }, 'status'),
  ];
  return p as unknown as KubeObject;
}

function observedConfigMap(desired: KubeObject, meta: Json): KubeObject {
  const c = structuredClone(desired) as Json;
  c.metadata = { ...(c.metadata as Json), ...meta };
  (c.metadata as Json).managedFields = [
    managedField('metacontroller', CREATED, { 'f:data': fieldsOf(desired.data as Json), 'f:metadata': fieldsOf({ labels: (desired.metadata as Json).labels, annotations: { [LAST_APPLIED]: '' }, ownerReferences: meta.ownerReferences }) }),
  ];
  return c as KubeObject;
}

const DECORATE: Record<string, (desired: KubeObject, meta: Json) => KubeObject> = {
  Deployment: observedDeployment,
  Service: observedService,
  PersistentVolumeClaim: observedPvc,
  ConfigMap: observedConfigMap,
};

function parent(): Json {
  const spec = {
    storage: { format: 'PVC', folder: '/inputs', size: '1Gi' },
    data: { filename: 'data.csv', format: 'CSV' },
    metrics: { schedule: '5s', batchSize: 5000 },
    replicas: 1,
  };
  const labels = {
    'app.kubernetes.io/name': 'trustyaiservice',
    'app.kubernetes.io/instance': NAME,
    'app.kubernetes.io/part-of': 'trustyai-service-operator',
    'app.kubernetes.io/managed-by': 'kustomize',
    'app.kubernetes.io/created-by': 'trustyai-service-operator',
  };
  const applied = { apiVersion: 'trustyai.opendatahub.io/v1', kind: 'TrustyAIService', metadata: { labels, name: NAME, namespace: NAMESPACE }, spec };
  return {
    apiVersion: 'trustyai.opendatahub.io/v1',
    kind: 'TrustyAIService',
    metadata: {
      name: NAME,
      namespace: NAMESPACE,
      uid: uid('parent'),
      resourceVersion: RESOURCE_VERSION_MARKER,
      generation: 3,
      creationTimestamp: CREATED,
      labels,
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': `${JSON.stringify(applied)}\n` },
      managedFields: [
        managedField('kubectl-client-side-apply', CREATED, { 'f:metadata': fieldsOf({ annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '' }, labels }), 'f:spec': fieldsOf(spec) }),
        managedField('metacontroller', SYNCED, { 'f:status': { '.': {}, 'f:conditions': {}, 'f:observedGeneration': {}, 'f:phase': {}, 'f:ready': {}, 'f:replicas': {} } }, 'status'),
      ].map((f) => ({ ...f, apiVersion: 'trustyai.opendatahub.io/v1' })),
    },
    spec,
  };
}

/** The request as an object; its parent's resourceVersion is the marker. */
export function syncRequestObject(): Json {
  const config = defaultHookConfig();
  const p = parent();
  const meta = p.metadata as Json;
  const owner = { apiVersion: p.apiVersion, kind: p.kind, name: NAME, uid: meta.uid, controller: true, blockOwnerDeletion: true };
  const first = runSync(trustyai, { parent: p, config, now: CREATED });
  const observed = first.children.map((desired, i) => {
    const name = String(desired.metadata.name);
    const decorate = DECORATE[desired.kind as string];
    if (!decorate) throw new Error(`bench/request.ts: no decoration for a ${String(desired.kind)} child`);
    return decorate(desired, {
      uid: uid(`${desired.kind}/${name}`),
      resourceVersion: String(48211930 + i * 17),
      generation: 1,
      creationTimestamp: CREATED,
      labels: { ...(desired.metadata.labels as Json), 'controller-uid': meta.uid },
      annotations: { [LAST_APPLIED]: JSON.stringify(desired) },
      ownerReferences: [owner],
    });
  });
  // The status the previous sync wrote, once everything became ready.
  const second = runSync(trustyai, { parent: { ...p, status: first.status }, observed, config, now: SYNCED });
  const withStatus = { ...p, status: { ...second.status, observedGeneration: 3 } };
  const controller = compositeControllerFor(trustyai, 'default', { hookBaseUrl: IN_CLUSTER_HOOK_URL }) as Json;
  controller.metadata = { ...(controller.metadata as Json), uid: uid('controller'), resourceVersion: '48100007', generation: 1, creationTimestamp: '2025-10-01T08:00:00Z' };
  // Metacontroller's related rule lists every TrustyAIService of the namespace: ours included.
  return syncRequest(trustyai, { parent: withStatus, observed, related: [withStatus as unknown as KubeObject], controller, config, now: NOW });
}

export interface RequestBodies {
  /** The same bytes every time: a resync with nothing changed (the server's cache hits). */
  identical: Buffer;
  /** A body that differs from every other in the parent's resourceVersion (the cache misses). */
  distinct(i: number): Buffer;
  bytes: number;
}

export function requestBodies(): RequestBodies {
  const text = JSON.stringify(syncRequestObject());
  // The parent, and its copy among the related objects.
  const parts = text.split(`"${RESOURCE_VERSION_MARKER}"`).map((p) => Buffer.from(p));
  if (parts.length < 2) throw new Error('bench/request.ts: the resourceVersion marker is missing');
  // Same length for every i, so every request costs the same to send and parse.
  const distinct = (i: number) => {
    const version = Buffer.from(`"${String(50000000 + (i % 49999999)).padStart(10, '0')}"`);
    return Buffer.concat(parts.flatMap((p, j) => (j === 0 ? [p] : [version, p])));
  };
  const identical = distinct(0);
  return { identical, distinct, bytes: identical.length };
}
