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
  metadata: ObjectMeta;
  spec: Spec;
  /** The status Metacontroller last stored: our previous answer plus observedGeneration. */
  status: Record<string, unknown>;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Builders return `@kubernetes/client-node` types, where every field is optional; the kit
 * routes children by apiVersion, kind and name. This is the one place that bridges the two.
 */
export function asChild(obj: { apiVersion?: string; kind?: string; metadata?: { name?: string } }): KubeObject {
  return obj as unknown as KubeObject;
}
