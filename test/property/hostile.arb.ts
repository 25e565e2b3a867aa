import fc from 'fast-check';
import type { KubeObject } from '../../hooks/kit/index.js';
import { typeKey } from '../../hooks/kit/observed.js';

/**
 * Intruders for related and children maps: objects of other namespaces as Metacontroller v2
 * offers them to a rule without a namespace. Every intruder string starts with MARK, which
 * no generated parent, namespace or spec contains.
 */
export const MARK = 'qqz';
export const dnsWithoutMark = fc.stringMatching(/^[a-z]([a-z0-9-]{0,20}[a-z0-9])?$/).filter((s) => !s.includes(MARK));

export const KIND_OF: Record<string, { apiVersion: string; kind: string }> = {
  configmaps: { apiVersion: 'v1', kind: 'ConfigMap' },
  secrets: { apiVersion: 'v1', kind: 'Secret' },
  trustyaiservices: { apiVersion: 'trustyai.opendatahub.io/v1', kind: 'TrustyAIService' },
  inferenceservices: { apiVersion: 'serving.kserve.io/v1beta1', kind: 'InferenceService' },
};

/** A TensorFlow Serving models file naming one model. */
const models = (name: string) => `model_config_list { config { name: "${name}" base_path: "/models/${name}" model_platform: "tensorflow" } }`;

/** An object of `type` named `name`: data that a reader would copy, marked with `marker`. */
export function objectOf(type: { apiVersion: string; kind: string }, name: string, namespace: string | undefined, marker: string, spec?: unknown): KubeObject {
  const metadata: KubeObject['metadata'] = { name, uid: `uid-${marker}`, labels: { mark: marker }, annotations: { mark: marker } };
  if (namespace !== undefined) metadata.namespace = namespace;
  const obj: KubeObject = { ...type, metadata };
  if (type.kind === 'Secret') {
    obj.data = { [`key-${marker}`]: Buffer.from(`value-${marker}`).toString('base64'), awsAccessKeyID: Buffer.from(`id-${marker}`).toString('base64') };
    obj.stringData = { plain: `plain-${marker}` };
  } else if (type.kind === 'ConfigMap') {
    const doc = `payloadProcessors: http://${marker}.svc/x`;
    obj.data = {
      'config.yaml': doc,
      'models.conf': models(marker),
      'serving.config': models(marker),
      'model_config.txt': models(marker),
      'tf-serving-models-config': models(marker),
    };
  } else if (type.kind === 'TrustyAIService') {
    obj.spec = spec;
  } else if (type.kind === 'InferenceService') {
    // Ready, with an address an InferenceGraph would copy into its router's graph.
    obj.spec = { predictor: { sklearn: { storageUri: `gs://${marker}/model` } } };
    obj.status = { address: { url: `http://${marker}.svc.cluster.local` }, conditions: [{ type: 'Ready', status: 'True' }] };
  } else {
    obj.spec = { marker };
    obj.status = { readyReplicas: 1, phase: marker };
  }
  return obj;
}

/** Secret values and plain strings a related Secret carries: none may appear in an answer. */
export function secretValues(objects: KubeObject[]): string[] {
  return objects
    .filter((o) => o.kind === 'Secret')
    .flatMap((o) => [...Object.values((o.data ?? {}) as Record<string, string>), ...Object.values((o.stringData ?? {}) as Record<string, string>)])
    .flatMap((v) => [v, Buffer.from(v, 'base64').toString()]);
}

/** Adds `obj` to a wire map under `key` (which may lie about the namespace). */
export function put(map: Record<string, Record<string, unknown>>, obj: KubeObject, key: string) {
  (map[typeKey(obj.apiVersion, obj.kind)] ??= {})[key] = obj;
}

/** What the intruders are built from: namespaces, and per intruder a marker index. */
export const hostile = fc.record({
  namespaces: fc.uniqueArray(fc.integer({ min: 0, max: 99 }), { minLength: 1, maxLength: 3 }).map((ns) => ns.map((n) => `${MARK}-tenant-${n}`)),
  extraServices: fc.integer({ min: 0, max: 2 }),
  missingNamespace: fc.boolean(),
  lyingKeys: fc.boolean(),
  ownObjects: fc.boolean(),
  sibling: fc.option(dnsWithoutMark, { nil: undefined }),
  storageSecret: fc.option(dnsWithoutMark, { nil: undefined }),
});
