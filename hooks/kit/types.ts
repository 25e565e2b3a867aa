/**
 * The smallest shape every Kubernetes object shares. Builders return the precise
 * `@kubernetes/client-node` types; the kit only needs this much to route and compare them.
 */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

/** The metadata fields compositions read and write (name, namespace, labels, annotations, uid …). */
export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  generation?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: Array<{ apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }>;
  deletionTimestamp?: string;
  [field: string]: unknown;
}

/** A parent custom resource after its spec was parsed by the composition's schema. */
export interface Parent<Spec> {
  apiVersion: string;
  kind: string;
  /** Always set: the server refuses a request without one; `render` and `syncRequest` place a parent without one in `default`. */
  metadata: ObjectMeta & { namespace: string };
  spec: Spec;
  /** The status Metacontroller last stored: our previous answer plus observedGeneration. */
  status: Record<string, unknown>;
}

/** Whether a value read from JSON is an object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What a builder returns: a `@kubernetes/client-node` object (`V1Deployment`…, where every
 * field is optional) or an object already on the wire. `composedFrom` is the one bridge.
 */
export interface Composed {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string };
}

/**
 * The wire object of a typed one, as function-sdk-go's `composed.From`: checks that it
 * names its type and itself, which every Kubernetes object must.
 */
export function composedFrom(obj: Composed): KubeObject {
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string' || typeof obj.metadata?.name !== 'string') {
    throw new TypeError(`a child needs apiVersion, kind and metadata.name (got ${obj.kind ?? '?'}/${obj.metadata?.name ?? '?'})`);
  }
  return obj as KubeObject;
}
