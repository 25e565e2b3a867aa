import type { V1ConfigMap } from '@kubernetes/client-node';
import { Document, isMap } from 'yaml';
import { condition, isRecord, lastApplied, MANAGED_BY, type Composed, type Cond, type KubeObject, type SyncInput } from '../kit/index.js';
import { readYamlText } from '../kit/bounded.js';
import { MODELMESH_NAMESPACE_VARIABLE, type TrustyAIConfig } from './config.js';
import { labelsFor, MODEL_SERVING_CONFIG, payloadProcessorUrl } from './names.js';
import type { TrustyAISpec } from './spec.js';
import { MODELMESH_READY, REASONS } from './status.js';

const CONFIG_KEY = 'config.yaml';
const TRUSTYAI = { apiVersion: 'trustyai.opendatahub.io/v1', kind: 'TrustyAIService' };
/** The processors modelhooks wrote last time: ours to remove once their service is gone. */
export const WRITTEN_ANNOTATION = 'modelhooks.dev/payload-processors';

export interface ModelMeshDecision {
  configMap?: Composed;
  condition: Cond;
}

/**
 * ModelMesh reads its payload processors from model-serving-config in its controller's
 * namespace only (modelmesh-serving main.go: ControllerNamespace + UserConfigMapName), so the
 * ConfigMap is written only when this TrustyAIService lives there (`MODELHOOKS_MODELMESH_NAMESPACE`).
 * There, three cases: absent or ours → we write it (keeping what others put there); someone
 * else's → we leave it alone and say what to add; ours but owned by another TrustyAIService →
 * that one writes every service's URL, we only check ours is there.
 */
export function modelMeshFor(input: SyncInput<TrustyAISpec, TrustyAIConfig>): ModelMeshDecision {
  const { parent, observed, related, config } = input;
  const namespace = parent.metadata.namespace;
  const own = payloadProcessorUrl(parent.metadata.name, namespace);
  const owned = observed.get('v1', 'ConfigMap', MODEL_SERVING_CONFIG);

  if (namespace !== config.modelMeshNamespace) {
    // One written here by an earlier modelhooks is kept as it was: it may hold the user's other keys.
    return {
      ...(owned ? { configMap: lastApplied(owned) } : {}),
      condition: condition.false(
        MODELMESH_READY,
        REASONS.notModelMeshNamespace,
        `ModelMesh reads payload processors only from ConfigMap ${MODEL_SERVING_CONFIG} in its controller's namespace ${config.modelMeshNamespace}, not in ${namespace}; ` +
          `add ${own} to payloadProcessors there (a YAML list), or set ${MODELMESH_NAMESPACE_VARIABLE}=${namespace} on the hooks if ModelMesh's controller runs in ${namespace}`,
      ),
    };
  }

  const existing = owned ?? related.get('v1', 'ConfigMap', MODEL_SERVING_CONFIG);
  const read = readConfig(existing);
  if (typeof read === 'string') {
    // Shared with ModelMesh and whoever else configures it: what we cannot read, we do not rewrite.
    return {
      ...(owned ? { configMap: lastApplied(owned) } : {}),
      condition: condition.false(
        MODELMESH_READY,
        REASONS.configMapUnreadable,
        `ConfigMap ${MODEL_SERVING_CONFIG} in ${namespace}: ${CONFIG_KEY} ${read}; it is left as it is: fix it, with ${own} in payloadProcessors (a YAML list)`,
      ),
    };
  }
  const doc = read;
  const listed = processorsOf(doc);
  const configured = condition.true(MODELMESH_READY, REASONS.payloadProcessorConfigured, `${MODEL_SERVING_CONFIG} lists ${own}`);
  if (!existing || owned) return { configMap: configMapFor(input, existing, doc, processorUrls(input, own, existing)), condition: configured };
  if (listed.includes(own)) return { condition: configured };
  if (existing.metadata.labels?.['app.kubernetes.io/managed-by'] === MANAGED_BY) {
    const ownerName = existing.metadata.ownerReferences?.find((o) => o.controller)?.name;
    const owner = ownerName ? `TrustyAIService ${ownerName}` : 'another TrustyAIService';
    return {
      condition: condition.unknown(
        MODELMESH_READY,
        REASONS.waitingForConfigMapOwner,
        `${MODEL_SERVING_CONFIG} is written by ${owner}, which adds ${own} on its next sync`,
      ),
    };
  }
  return {
    condition: condition.false(
      MODELMESH_READY,
      REASONS.configMapNotManaged,
      `ConfigMap ${MODEL_SERVING_CONFIG} in ${namespace} is not managed by modelhooks; set this in its ${CONFIG_KEY}: payloadProcessors: ${JSON.stringify([...listed, own])}`,
    ),
  };
}

/**
 * The payload processors that are ours: this service's URL, every TrustyAIService's of the
 * namespace in `related` (the rule names it and the kit drops the rest) and every URL we wrote
 * before (the annotation) — live ones to list, the rest to remove. Every other entry is someone
 * else's and kept byte-for-byte, even one that looks like a TrustyAIService URL of this namespace.
 */
function processorUrls(input: SyncInput<TrustyAISpec>, own: string, existing: KubeObject | undefined): { live: string[]; ours: Set<string> } {
  const namespace = input.parent.metadata.namespace;
  const services = input.related.list(TRUSTYAI.apiVersion, TRUSTYAI.kind);
  const url = (t: KubeObject) => payloadProcessorUrl(t.metadata.name, namespace);
  const live = services.filter((t) => !t.metadata.deletionTimestamp).map(url);
  const written = (existing?.metadata.annotations?.[WRITTEN_ANNOTATION] ?? '').split(/\s+/).filter((u) => u !== '');
  return { live: [...new Set([own, ...live])].sort(), ours: new Set([own, ...services.map(url), ...written]) };
}

function configMapFor(
  input: SyncInput<TrustyAISpec>,
  existing: KubeObject | undefined,
  config: Document | undefined,
  urls: { live: string[]; ours: Set<string> },
): V1ConfigMap {
  const { parent } = input;
  const data = existing && isRecord(existing.data) ? (existing.data as Record<string, string>) : {};
  // Unreadable YAML in our own ConfigMap is replaced: ModelMesh could not read it either.
  const doc = config ?? new Document({});
  const foreign = processorsOf(config).filter((p) => !urls.ours.has(p));
  // A YAML list: ModelMesh unmarshals payloadProcessors into []string and rejects any entry with a space.
  doc.set('payloadProcessors', doc.createNode([...foreign, ...urls.live], { flow: false }));
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: MODEL_SERVING_CONFIG,
      namespace: parent.metadata.namespace,
      labels: labelsFor(parent),
      annotations: { [WRITTEN_ANNOTATION]: urls.live.join(' ') },
    },
    data: { ...data, [CONFIG_KEY]: doc.toString({ lineWidth: 0 }) },
  };
}

/**
 * The parsed config.yaml of a ConfigMap; undefined when there is none (or it is empty); what is
 * wrong with it when it is not one YAML map whose payloadProcessors (if any) is a list of
 * strings or a string, as ModelMesh reads it. Duplicate keys and a second document are errors
 * (the yaml library's own), not a choice between two readings.
 */
function readConfig(configMap: KubeObject | undefined): Document | undefined | string {
  const data = configMap && isRecord(configMap.data) ? configMap.data : {};
  if (typeof data[CONFIG_KEY] !== 'string') return undefined;
  // Bounded (kit/bounded.ts): a tenant's value of 1 MiB of `[` or an alias bomb is a problem named here, never a crash.
  const read = readYamlText(data[CONFIG_KEY]);
  if ('problem' in read) return read.problem;
  const { doc } = read;
  if (doc.contents === null) return undefined;
  if (!isMap(doc.contents)) return 'is not a YAML map';
  const processors: unknown = (read.value as Record<string, unknown>).payloadProcessors;
  if (
    processors !== undefined &&
    processors !== null &&
    typeof processors !== 'string' &&
    !(Array.isArray(processors) && processors.every((p) => typeof p === 'string'))
  ) {
    return `has payloadProcessors of the wrong type (${Array.isArray(processors) ? 'a list with an entry that is not a string' : `a ${typeof processors === 'object' ? 'map' : typeof processors}`}), where ModelMesh expects a list of URLs`;
  }
  return doc as Document;
}

/**
 * The entries as ModelMesh reads them: a list as is; a string split as viper's StringToSlice hook
 * splits it (on commas) — and on whitespace too, the space-separated form earlier modelhooks wrote.
 */
export function processorsOf(config: Document | undefined): string[] {
  const value: unknown = config?.toJS()?.payloadProcessors;
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string' ? value.split(/[\s,]+/).filter((p) => p !== '') : [];
}
