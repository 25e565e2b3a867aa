import { condition, isRecord, QUANTITY_PATTERN, type Cond, type KubeObject, type ObjectIndex, type SystemObject } from '../../kit/index.js';
import { readJsonText } from '../../kit/bounded.js';
import type { DefaultResources, InferenceServiceConfig } from '../config.js';

/*
 * KServe's inferenceservice-config ConfigMap (config/configmap/inferenceservice.yaml at v0.20.0),
 * read as data from KServe's namespace (MODELHOOKS_KSERVE_NAMESPACE): each data key is a JSON
 * document, parsed as KServe's config types do (pkg/apis/serving/v1beta1/configmap.go,
 * pkg/types/config.go, pkg/webhook/admission/pod/agent_injector.go). The fields honoured here
 * override the MODELHOOKS_* settings, else KServe's shipped values (config.ts KSERVE_DEFAULTS); a
 * key or field that cannot be read keeps the setting it would have replaced and is named in the
 * KServeConfig condition — never a crash, never silently. Read once per sync, by `configured`:
 * the result rides in the configuration (`kserveConfig`) to the status.
 */

export const KSERVE_CONFIGMAP = 'inferenceservice-config';
export const KSERVE_CONFIG = 'KServeConfig';

export const kserveConfigObject = (config: InferenceServiceConfig): SystemObject => ({
  apiVersion: 'v1',
  resource: 'configmaps',
  kind: 'ConfigMap',
  namespace: config.kserveNamespace,
  name: KSERVE_CONFIGMAP,
});

/** The ConfigMap among the related objects, if Metacontroller found it. */
export const kserveConfigMap = (config: InferenceServiceConfig, related: ObjectIndex): KubeObject | undefined =>
  related.get('v1', 'ConfigMap', KSERVE_CONFIGMAP, config.kserveNamespace);

type Config = InferenceServiceConfig;

/** What a field's value must be: a test, and its name for the condition. */
interface Kind<T> {
  is: (v: unknown) => v is T;
  what: string;
}

/** One honoured field: where it sits in the ConfigMap, what it must be, and where it lands in the configuration. */
interface Field {
  key: string;
  path: string[];
  kind: Kind<unknown>;
  apply: (c: Config, v: unknown) => Config;
  /** Whether KServe uses the field at all, given its key's document (absent: always). */
  when?: (doc: Record<string, unknown>) => boolean;
}

const field = <T>(key: string, path: string[], kind: Kind<T>, apply: (c: Config, v: T) => Config, when?: Field['when']): Field => ({
  key,
  path,
  kind: kind as Kind<unknown>,
  apply: apply as Field['apply'],
  ...(when ? { when } : {}),
});

const nonEmpty: Kind<string> = { is: (v): v is string => typeof v === 'string' && v !== '', what: 'a non-empty string' };
const anyString: Kind<string> = { is: (v): v is string => typeof v === 'string', what: 'a string' };
const boolean: Kind<boolean> = { is: (v): v is boolean => typeof v === 'boolean', what: 'true or false' };
/** resource.ParseQuantity, as KServe checks the storage initializer's and the agent's resources (an empty one fails there too). */
const quantity: Kind<string> = { is: (v): v is string => typeof v === 'string' && QUANTITY_PATTERN.test(v), what: 'a quantity such as 100m or 1Gi' };
const userId: Kind<number> = { is: (v): v is number => Number.isSafeInteger(v) && (v as number) >= 0, what: 'a user ID (a non-negative integer)' };
const RESOURCE_FIELDS = ['cpuLimit', 'memoryLimit', 'cpuRequest', 'memoryRequest'] as const;
/** ResourceConfig (configmap.go): each entry absent, empty (no default), or a quantity. */
const resourceConfig: Kind<Partial<Record<(typeof RESOURCE_FIELDS)[number], string>>> = {
  is: (v): v is Partial<Record<(typeof RESOURCE_FIELDS)[number], string>> =>
    isRecord(v) && RESOURCE_FIELDS.every((k) => v[k] === undefined || (typeof v[k] === 'string' && (v[k] === '' || QUANTITY_PATTERN.test(v[k] as string)))),
  what: 'an object whose cpuLimit, memoryLimit, cpuRequest and memoryRequest are quantities or empty',
};
const quantityOrEmpty: Kind<string> = { is: (v): v is string => v === '' || quantity.is(v), what: quantity.what };
/** A count or a percentage, as a Deployment's maxSurge and maxUnavailable take them; empty: KServe's 25%. */
const INT_OR_PERCENT = /^(\d+%?)?$/;
type Rollout = { defaultRollout?: { maxSurge?: string; maxUnavailable?: string } };
/** DeploymentRolloutStrategy (configmap.go): `defaultRollout` absent, or its maxSurge and maxUnavailable each absent, empty, a count or a percentage. */
const rolloutStrategy: Kind<Rollout> = {
  is: (v): v is Rollout =>
    isRecord(v) &&
    (v.defaultRollout === undefined ||
      (isRecord(v.defaultRollout) &&
        [v.defaultRollout.maxSurge, v.defaultRollout.maxUnavailable].every((x) => x === undefined || (typeof x === 'string' && INT_OR_PERCENT.test(x))))),
  what: 'an object whose defaultRollout has maxSurge and maxUnavailable each a count or a percentage such as "1" or "25%"',
};
/** applyRolloutStrategyFromConfigmap uses the rollout only where the cluster's default mode is Standard (RawDeployment, its old name). */
const standardDefault = (deploy: Record<string, unknown>) => deploy.defaultDeploymentMode === 'Standard' || deploy.defaultDeploymentMode === 'RawDeployment';

/** An empty string is KServe's "use the default" for these (CreateModelcarContainer, needCaBundleMount). */
const orDefault = (v: string, fallback: string) => (v === '' ? fallback : v);

const storage = (c: Config, s: Partial<Config['storageInitializer']>): Config => ({ ...c, storageInitializer: { ...c.storageInitializer, ...s } });
const initResource = (request: 'requests' | 'limits', r: 'cpu' | 'memory') => (c: Config, v: string) => {
  const { resources } = c.storageInitializer;
  return storage(c, { resources: { ...resources, [request]: { ...resources[request], [r]: v } } });
};
const modelcar = (part: Partial<Config['storageInitializer']['modelcar']>) => (c: Config) =>
  storage(c, { modelcar: { ...c.storageInitializer.modelcar, ...part } });
const agentResource = (request: 'requests' | 'limits', r: 'cpu' | 'memory') => (c: Config, v: string) => ({
  ...c,
  agentResources: { ...c.agentResources, [request]: { ...c.agentResources[request], [r]: v } },
});

/** setResourceRequirementDefaults (inference_service_defaults.go): an entry set is a default, an empty or absent one is none. */
function defaultResourcesOf(r: Partial<Record<(typeof RESOURCE_FIELDS)[number], string>>): DefaultResources {
  const pick = (cpu: string | undefined, memory: string | undefined) => ({ ...(cpu ? { cpu } : {}), ...(memory ? { memory } : {}) });
  return { requests: pick(r.cpuRequest, r.memoryRequest), limits: pick(r.cpuLimit, r.memoryLimit) };
}

/** The fields honoured, in the ConfigMap's order (docs/inferenceservice-config.md, key by key). */
const FIELDS: Field[] = [
  field('explainers', ['art', 'image'], nonEmpty, (c, v) => ({ ...c, explainers: { art: { ...c.explainers.art, image: v } } })),
  field('explainers', ['art', 'defaultImageVersion'], anyString, (c, v) => ({ ...c, explainers: { art: { ...c.explainers.art, defaultImageVersion: v } } })),
  // StorageInitializerConfig (pkg/types/config.go), used by CreateInitContainerWithConfig and the modelcar builders (pkg/utils/storage.go).
  field('storageInitializer', ['image'], nonEmpty, (c, v) => ({ ...c, images: { ...c.images, 'storage-initializer': v } })),
  field('storageInitializer', ['memoryRequest'], quantity, initResource('requests', 'memory')),
  field('storageInitializer', ['memoryLimit'], quantity, initResource('limits', 'memory')),
  field('storageInitializer', ['cpuRequest'], quantity, initResource('requests', 'cpu')),
  field('storageInitializer', ['cpuLimit'], quantity, initResource('limits', 'cpu')),
  field('storageInitializer', ['caBundleVolumeMountPath'], anyString, (c, v) => storage(c, { caBundleVolumeMountPath: orDefault(v, '/etc/ssl/custom-certs') })),
  field('storageInitializer', ['cpuModelcar'], quantityOrEmpty, (c, v) => modelcar({ cpu: orDefault(v, '10m') })(c)),
  field('storageInitializer', ['memoryModelcar'], quantityOrEmpty, (c, v) => modelcar({ memory: orDefault(v, '15Mi') })(c)),
  field('storageInitializer', ['uidModelcar'], userId, (c, v) => modelcar({ uid: v })(c)),
  field('ingress', ['ingressDomain'], nonEmpty, (c, v) => ({ ...c, ingress: { ...c.ingress, domain: v } })),
  field('ingress', ['ingressClassName'], anyString, (c, v) => ({ ...c, ingress: { ...c.ingress, className: v } })),
  field('ingress', ['domainTemplate'], nonEmpty, (c, v) => ({ ...c, ingress: { ...c.ingress, domainTemplate: v } })),
  // The raw Ingress and HTTPRoute reconcilers' Reconcile (kube_ingress_reconciler.go, httproute_reconciler.go): no route, the URL as with one.
  field('ingress', ['disableIngressCreation'], boolean, (c, v) => ({ ...c, ingress: { ...c.ingress, disableIngressCreation: v } })),
  field('ingress', ['urlScheme'], { is: (v): v is 'http' | 'https' => v === 'http' || v === 'https', what: 'http or https' }, (c, v) => ({
    ...c,
    ingress: { ...c.ingress, urlScheme: v },
  })),
  // LoggerConfig (agent_injector.go): the agent's logger arguments and CA bundle volume.
  field('logger', ['defaultUrl'], nonEmpty, (c, v) => ({ ...c, logger: { ...c.logger, defaultUrl: v } })),
  field('logger', ['caBundle'], anyString, (c, v) => ({ ...c, logger: { ...c.logger, caBundle: v } })),
  field('logger', ['caCertFile'], anyString, (c, v) => ({ ...c, logger: { ...c.logger, caCertFile: v } })),
  field('logger', ['tlsSkipVerify'], boolean, (c, v) => ({ ...c, logger: { ...c.logger, tlsSkipVerify: v } })),
  // AgentConfig (agent_injector.go): the agent sidecar's image and resources (InjectAgent).
  field('agent', ['image'], nonEmpty, (c, v) => ({ ...c, images: { ...c.images, agent: v } })),
  field('agent', ['memoryRequest'], quantity, agentResource('requests', 'memory')),
  field('agent', ['memoryLimit'], quantity, agentResource('limits', 'memory')),
  field('agent', ['cpuRequest'], quantity, agentResource('requests', 'cpu')),
  field('agent', ['cpuLimit'], quantity, agentResource('limits', 'cpu')),
  // SecurityConfig (configmap.go), applied by DefaultInferenceService (inference_service_defaults.go).
  field('security', ['autoMountServiceAccountToken'], boolean, (c, v) => ({ ...c, automountServiceAccountToken: v })),
  // InferenceServicesConfig.Resource (configmap.go), applied by setResourceRequirementDefaults.
  field('inferenceService', ['resource'], resourceConfig, (c, v) => ({ ...c, inferenceServiceResource: defaultResourcesOf(v) })),
  // DeployConfig (configmap.go NewDeployConfig), used by createRawDefaultDeployment (reconcilers/deployment/deployment_reconciler.go).
  field(
    'deploy',
    ['deploymentRolloutStrategy'],
    rolloutStrategy,
    (c, v) => {
      const r = v.defaultRollout;
      return { ...c, raw: { ...c.raw, ...(r ? { defaultRollout: { maxSurge: r.maxSurge ?? '', maxUnavailable: r.maxUnavailable ?? '' } } : {}) } };
    },
    standardDefault,
  ),
  // ServiceConfig (configmap.go NewServiceConfig), used by createDefaultSvc (reconcilers/service/service_reconciler.go).
  field('service', ['serviceClusterIPNone'], boolean, (c, v) => ({ ...c, raw: { ...c.raw, serviceClusterIPNone: v } })),
];

/** What the ConfigMap gave: the configuration with its fields over the MODELHOOKS_* ones and, in `kserveConfig`, what was and was not read. */
export interface KServeSettings {
  config: InferenceServiceConfig;
}

/** The data keys read. */
const KEYS = [...new Set(FIELDS.map((f) => f.key))];

/**
 * The last read: one server configuration and one ConfigMap serve every sync, so the next sync
 * of any InferenceService finds its settings here (compared by the configuration's identity
 * and the texts of the keys read).
 */
let last: { config: InferenceServiceConfig; text: string; settings: KServeSettings } | undefined;

/** The ConfigMap's settings over `config`; without the ConfigMap, `config` unchanged (and no `kserveConfig`). */
export function kserveSettings(config: InferenceServiceConfig, configMap: KubeObject | undefined): KServeSettings {
  if (!configMap) return { config };
  const data = isRecord(configMap.data) ? configMap.data : {};
  const text = KEYS.map((k) => (typeof data[k] === 'string' ? data[k] : data[k] === undefined ? '\u0000' : '\u0002')).join('\u0001');
  if (last && last.config === config && last.text === text) return last.settings;
  const settings = readSettings(config, data);
  last = { config, text, settings };
  return settings;
}

function readSettings(config: InferenceServiceConfig, data: Record<string, unknown>): KServeSettings {
  const problems: string[] = [];
  const honoured: string[] = [];
  const documents = new Map<string, Record<string, unknown> | undefined>();
  let out = config;
  for (const f of FIELDS) {
    if (!documents.has(f.key)) documents.set(f.key, documentOf(data, f.key, problems));
    const doc = documents.get(f.key);
    if (!doc) continue;
    const value = f.path.reduce<unknown>((v, k) => (isRecord(v) ? v[k] : undefined), doc);
    // KServe's omitempty fields: absent means "its default", which is the MODELHOOKS_* one or KServe's shipped value here.
    if (value === undefined || (f.when && !f.when(doc))) continue;
    const name = `${f.key}.${f.path.join('.')}`;
    if (!f.kind.is(value)) {
      problems.push(`data.${name}: ${JSON.stringify(value)} is not ${f.kind.what}`);
      continue;
    }
    out = f.apply(out, value);
    honoured.push(name);
  }
  return { config: { ...out, kserveConfig: { honoured, problems } } };
}

/** One data key's JSON object; a key that is not one is a problem (absent is not). */
function documentOf(data: Record<string, unknown>, key: string, problems: string[]): Record<string, unknown> | undefined {
  const raw = data[key];
  if (raw === undefined) return undefined;
  // Bounded (kit/bounded.ts): a value of 1 MiB of `[` is a problem named here, never a crash.
  const read = typeof raw === 'string' ? readJsonText(raw) : { value: undefined };
  if ('problem' in read) problems.push(`data.${key}: ${read.problem}`);
  else if (isRecord(read.value)) return read.value;
  else problems.push(`data.${key}: not a JSON object`);
  return undefined;
}

/** KServeConfig from what `configured` read: False naming each field kept at its fallback; True naming what was read; none without the ConfigMap. */
export function kserveConfigCondition(config: InferenceServiceConfig): Cond | undefined {
  const read = config.kserveConfig;
  if (!read) return undefined;
  const where = `ConfigMap ${config.kserveNamespace}/${KSERVE_CONFIGMAP}`;
  if (read.problems.length > 0) {
    return condition.false(
      KSERVE_CONFIG,
      'InvalidConfig',
      `${where}: ${read.problems.join('; ')} — the MODELHOOKS_* setting (else KServe's default) is used instead`,
    );
  }
  const fields = read.honoured.length > 0 ? read.honoured.join(', ') : 'no field modelhooks honours';
  return condition.true(KSERVE_CONFIG, 'ConfigRead', `${where}: ${fields}`);
}
