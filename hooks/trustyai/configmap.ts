import type { V1ConfigMap } from '@kubernetes/client-node';
import { Document, isMap, parseDocument } from 'yaml';
import { condition, isRecord, MANAGED_BY, type Cond, type KubeObject, type SyncInput } from '../kit/index.js';
import { labelsFor, MODEL_SERVING_CONFIG, payloadProcessorUrl } from './names.js';
import type { TrustyAISpec } from './spec.js';
import { MODELMESH_READY, REASONS } from './status.js';

const CONFIG_KEY = 'config.yaml';
const TRUSTYAI = { apiVersion: 'trustyai.opendatahub.io/v1', kind: 'TrustyAIService' };

export interface ModelMeshDecision {
  configMap?: V1ConfigMap;
  condition: Cond;
}

/**
 * ModelMesh reads its payload processors from one ConfigMap per namespace. Three cases:
 * absent or ours → we write it (keeping what others put there); someone else's → we leave
 * it alone and say which line to add; ours but owned by another TrustyAIService → that
 * one writes every service's URL, we only check ours is there.
 */
export function modelMeshFor(input: SyncInput<TrustyAISpec>): ModelMeshDecision {
  const { parent, observed, related } = input;
  const namespace = parent.metadata.namespace;
  const own = payloadProcessorUrl(parent.metadata.name, namespace);
  const owned = observed.get('v1', 'ConfigMap', MODEL_SERVING_CONFIG);
  const existing = owned ?? related.get('v1', 'ConfigMap', MODEL_SERVING_CONFIG);
  const config = readConfig(existing);
  const listed = processorsOf(config);

  if (!existing || owned) {
    const configMap = configMapFor(input, existing, config, processorUrls(input, own));
    return { configMap, condition: condition.true(MODELMESH_READY, REASONS.payloadProcessorConfigured, `${MODEL_SERVING_CONFIG} lists ${own}`) };
  }
  if (listed.includes(own)) {
    return { condition: condition.true(MODELMESH_READY, REASONS.payloadProcessorConfigured, `${MODEL_SERVING_CONFIG} lists ${own}`) };
  }
  if (existing.metadata.labels?.['app.kubernetes.io/managed-by'] === MANAGED_BY) {
    const ownerName = existing.metadata.ownerReferences?.find((o) => o.controller)?.name;
    const owner = ownerName ? `TrustyAIService ${ownerName}` : 'another TrustyAIService';
    return {
      condition: condition.unknown(MODELMESH_READY, REASONS.waitingForConfigMapOwner, `${MODEL_SERVING_CONFIG} is written by ${owner}, which adds ${own} on its next sync`),
    };
  }
  const line = `payloadProcessors: ${[...listed, own].join(' ')}`;
  return {
    condition: condition.false(
      MODELMESH_READY,
      REASONS.configMapNotManaged,
      `ConfigMap ${MODEL_SERVING_CONFIG} in ${namespace} is not managed by modelhooks; set this line in its ${CONFIG_KEY}: ${line}`,
    ),
  };
}

/**
 * The payload processors that are ours to write: the URL of this service and of every
 * TrustyAIService in `related` (only this namespace's: the rule names it and the kit drops
 * the rest), live ones to list and deleting ones to remove. Every other entry is someone
 * else's and kept byte-for-byte — even one that looks like a TrustyAIService URL of this
 * namespace, since no service of ours stands behind it.
 */
function processorUrls(input: SyncInput<TrustyAISpec>, own: string): { live: string[]; ours: Set<string> } {
  const namespace = input.parent.metadata.namespace;
  const services = input.related.list(TRUSTYAI.apiVersion, TRUSTYAI.kind);
  const url = (t: KubeObject) => payloadProcessorUrl(t.metadata.name, namespace);
  const live = services.filter((t) => !t.metadata.deletionTimestamp).map(url);
  return { live: [...new Set([own, ...live])].sort(), ours: new Set([own, ...services.map(url)]) };
}

function configMapFor(
  input: SyncInput<TrustyAISpec>,
  existing: KubeObject | undefined,
  config: Document | undefined,
  urls: { live: string[]; ours: Set<string> },
): V1ConfigMap {
  const namespace = input.parent.metadata.namespace;
  const data = existing && isRecord(existing.data) ? (existing.data as Record<string, string>) : {};
  // Unreadable YAML in our own ConfigMap is replaced: ModelMesh could not read it either.
  const doc = config ?? new Document({});
  // Processors of no TrustyAIService we know belong to someone else: keep them as they are.
  const foreign = processorsOf(config).filter((p) => !urls.ours.has(p));
  doc.set('payloadProcessors', [...foreign, ...urls.live].join(' '));
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: MODEL_SERVING_CONFIG, namespace, labels: labelsFor(input.parent) },
    data: { ...data, [CONFIG_KEY]: doc.toString({ lineWidth: 0 }) },
  };
}

/** The parsed config.yaml of a ConfigMap, or undefined when there is none or it is not a YAML map. */
function readConfig(configMap: KubeObject | undefined): Document | undefined {
  const data = configMap && isRecord(configMap.data) ? configMap.data : {};
  if (typeof data[CONFIG_KEY] !== 'string') return undefined;
  const doc = parseDocument(data[CONFIG_KEY]);
  return doc.errors.length === 0 && isMap(doc.contents) ? (doc as Document) : undefined;
}

function processorsOf(config: Document | undefined): string[] {
  const value: unknown = config?.get('payloadProcessors');
  return typeof value === 'string' ? value.split(/\s+/).filter((p) => p !== '') : [];
}
