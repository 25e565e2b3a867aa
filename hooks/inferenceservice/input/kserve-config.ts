import { condition, isRecord, type Cond, type KubeObject, type ObjectIndex, type SystemObject } from '../../kit/index.js';
import type { InferenceServiceConfig } from '../config.js';

/*
 * KServe's inferenceservice-config ConfigMap (config/configmap/inferenceservice.yaml at v0.20.0),
 * read as data from KServe's namespace (MODELHOOKS_KSERVE_NAMESPACE): each data key is a JSON
 * document, parsed as KServe's v1beta1 config types do (pkg/apis/serving/v1beta1/configmap.go).
 * The keys honoured here override the MODELHOOKS_* settings, which stand in for KServe's
 * defaults; a key or field that cannot be read keeps the setting it would have replaced and
 * is named in the KServeConfig condition — never a crash, never silently.
 */

export const KSERVE_CONFIGMAP = 'inferenceservice-config';
export const KSERVE_CONFIG = 'KServeConfig';

export const kserveConfigObject = (config: InferenceServiceConfig): SystemObject => ({ apiVersion: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespace: config.kserveNamespace, name: KSERVE_CONFIGMAP });

/** The ConfigMap among the related objects, if Metacontroller found it. */
export const kserveConfigMap = (config: InferenceServiceConfig, related: ObjectIndex): KubeObject | undefined => related.get('v1', 'ConfigMap', KSERVE_CONFIGMAP, config.kserveNamespace);

/** One honoured field: where it sits in the ConfigMap and where it lands in the configuration. */
interface Field {
  key: string;
  path: string[];
  valid: (v: unknown) => string | undefined;
  apply: (c: InferenceServiceConfig, v: string) => InferenceServiceConfig;
}

const nonEmpty = (v: unknown) => (typeof v === 'string' && v !== '' ? undefined : 'a non-empty string');
const anyString = (v: unknown) => (typeof v === 'string' ? undefined : 'a string');

/** The fields honoured, in the ConfigMap's order (README: inferenceservice-config, key by key). */
const FIELDS: Field[] = [
  { key: 'explainers', path: ['art', 'image'], valid: nonEmpty, apply: (c, v) => ({ ...c, explainers: { art: { ...c.explainers.art, image: v } } }) },
  { key: 'explainers', path: ['art', 'defaultImageVersion'], valid: anyString, apply: (c, v) => ({ ...c, explainers: { art: { ...c.explainers.art, defaultImageVersion: v } } }) },
  { key: 'storageInitializer', path: ['image'], valid: nonEmpty, apply: (c, v) => ({ ...c, images: { ...c.images, 'storage-initializer': v } }) },
  { key: 'ingress', path: ['ingressDomain'], valid: nonEmpty, apply: (c, v) => ({ ...c, ingress: { ...c.ingress, domain: v } }) },
  { key: 'ingress', path: ['ingressClassName'], valid: anyString, apply: (c, v) => ({ ...c, ingress: { ...c.ingress, className: v } }) },
  { key: 'ingress', path: ['domainTemplate'], valid: nonEmpty, apply: (c, v) => ({ ...c, ingress: { ...c.ingress, domainTemplate: v } }) },
  {
    key: 'ingress',
    path: ['urlScheme'],
    valid: (v) => (v === 'http' || v === 'https' ? undefined : 'http or https'),
    apply: (c, v) => ({ ...c, ingress: { ...c.ingress, urlScheme: v as 'http' | 'https' } }),
  },
  { key: 'logger', path: ['defaultUrl'], valid: nonEmpty, apply: (c, v) => ({ ...c, logger: { ...c.logger, defaultUrl: v } }) },
];

/** The data keys read. */
const KEYS = [...new Set(FIELDS.map((f) => f.key))];

/** What the ConfigMap gave: the configuration with its fields over the MODELHOOKS_* ones, and what could not be read. */
export interface KServeSettings {
  config: InferenceServiceConfig;
  /** `data.<key>[.<field>]: why`, one per key or field kept at its MODELHOOKS_* value. */
  problems: string[];
  /** The fields taken from the ConfigMap, as `<key>.<field>`. */
  honoured: string[];
  found: boolean;
}

/** The ConfigMap's settings over `config`; without the ConfigMap, `config` unchanged. */
export function kserveSettings(config: InferenceServiceConfig, configMap: KubeObject | undefined): KServeSettings {
  if (!configMap) return { config, problems: [], honoured: [], found: false };
  const read = readConfigMap(isRecord(configMap.data) ? configMap.data : {});
  const out = read.values.reduce((c, { field, value }) => field.apply(c, value), config);
  return { config: out, problems: read.problems, honoured: read.values.map((v) => `${v.field.key}.${v.field.path.join('.')}`), found: true };
}

interface ConfigMapRead {
  values: Array<{ field: Field; value: string }>;
  problems: string[];
}

/**
 * The honoured fields' values and the problems of one ConfigMap's data, kept for its last 16
 * texts: every sync reads the same ConfigMap twice (configuration, then status), and parsing
 * KServe's shipped keys took ~77 µs each time (~6 µs from the cache, applying included; measured on a 2-core machine).
 */
const READS = new Map<string, ConfigMapRead>();
const READS_KEPT = 16;
/** Texts longer than this (64 Ki characters) are read each time: the cache holds at most 16 × 128 KiB. */
const READ_KEY_MAX = 64 * 1024;

function readConfigMap(data: Record<string, unknown>): ConfigMapRead {
  const key = KEYS.map((k) => (typeof data[k] === 'string' ? data[k] : '\u0000')).join('\u0001');
  const known = READS.get(key);
  if (known) return known;
  const problems: string[] = [];
  const values: ConfigMapRead['values'] = [];
  const documents = new Map<string, Record<string, unknown> | undefined>();
  for (const field of FIELDS) {
    if (!documents.has(field.key)) documents.set(field.key, documentOf(data, field.key, problems));
    const doc = documents.get(field.key);
    if (!doc) continue;
    const value = field.path.reduce<unknown>((v, k) => (isRecord(v) ? v[k] : undefined), doc);
    // KServe's omitempty fields: absent means "its default", which is the MODELHOOKS_* one here.
    if (value === undefined) continue;
    const wrong = field.valid(value);
    if (wrong) problems.push(`data.${field.key}.${field.path.join('.')}: ${JSON.stringify(value)} is not ${wrong}`);
    else values.push({ field, value: value as string });
  }
  const read = { values, problems };
  if (key.length > READ_KEY_MAX) return read;
  if (READS.size >= READS_KEPT) READS.delete(READS.keys().next().value as string);
  READS.set(key, read);
  return read;
}

/** One data key's JSON object; a key that is not one is a problem (absent is not). */
function documentOf(data: Record<string, unknown>, key: string, problems: string[]): Record<string, unknown> | undefined {
  const raw = data[key];
  if (raw === undefined) return undefined;
  try {
    const parsed: unknown = typeof raw === 'string' ? JSON.parse(raw) : undefined;
    if (isRecord(parsed)) return parsed;
    problems.push(`data.${key}: not a JSON object`);
  } catch (e) {
    problems.push(`data.${key}: not JSON (${(e as Error).message})`);
  }
  return undefined;
}

/** KServeConfig: False naming each field kept at its MODELHOOKS_* value; True naming what was read; none without the ConfigMap. */
export function kserveConfigCondition(settings: KServeSettings, namespace: string): Cond | undefined {
  if (!settings.found) return undefined;
  const where = `ConfigMap ${namespace}/${KSERVE_CONFIGMAP}`;
  if (settings.problems.length > 0) {
    return condition.false(KSERVE_CONFIG, 'InvalidConfig', `${where}: ${settings.problems.join('; ')} — the MODELHOOKS_* setting is used instead`);
  }
  const read = settings.honoured.length > 0 ? settings.honoured.join(', ') : 'no field modelhooks honours';
  return condition.true(KSERVE_CONFIG, 'ConfigRead', `${where}: ${read}`);
}
