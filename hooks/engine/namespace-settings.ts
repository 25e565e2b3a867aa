/**
 * Per-namespace settings: annotations on a parent's Namespace that override the server's
 * configuration for parents in it. Tenants usually cannot edit their Namespace, so these are
 * the cluster admin's lever (README, "Running modelhooks for many teams").
 */
import { isDns1123Host, isLabelPair } from '../kit/children/names.js';
import type { ObjectIndex } from '../kit/observed.js';
import { isRecord, type KubeObject } from '../kit/types.js';

const PREFIX = 'modelhooks.dev/';

/** The annotations read, each with the environment variable it overrides (if any). */
export const NAMESPACE_ANNOTATIONS = {
  ingressDomain: `${PREFIX}ingress-domain`,
  domainTemplate: `${PREFIX}domain-template`,
  ingressClass: `${PREFIX}ingress-class`,
  gateway: `${PREFIX}gateway`,
  urlScheme: `${PREFIX}url-scheme`,
  imageRegistry: `${PREFIX}image-registry`,
  allowedImages: `${PREFIX}allowed-images`,
  podSecurity: `${PREFIX}pod-security`,
  modelReadiness: `${PREFIX}model-readiness`,
  podInjection: `${PREFIX}pod-injection`,
} as const;

/** The Pod Security Admission label of a Namespace: the level its pods must keep (k8s.io/pod-security-admission api/constants.go). */
export const ENFORCE_LABEL = 'pod-security.kubernetes.io/enforce';
/** The Pod Security Standards levels, and `namespace`: the level of the Namespace's enforce label (none: privileged). */
export const POD_SECURITY_SETTINGS = ['namespace', 'restricted', 'baseline', 'privileged'] as const;
export type PodSecuritySetting = (typeof POD_SECURITY_SETTINGS)[number];

export interface NamespaceSettings {
  ingressDomain?: string;
  domainTemplate?: string;
  /** `''` asks for the cluster's default IngressClass. */
  ingressClass?: string;
  gateway?: { namespace: string; name: string };
  urlScheme?: 'http' | 'https';
  /** `host[:port][/path]`: every image the server chooses is pulled from here instead. */
  imageRegistry?: string;
  /** Every container image of every child must start with one of these. */
  allowedImages?: string[];
  /** The pod security level the parents' pods are built for (and checked against), or `namespace`. */
  podSecurity?: PodSecuritySetting;
  /** Readiness probes that ask the server for the model instead of KServe's TCP probe. */
  modelReadiness?: boolean;
  /** Where KServe's pod webhook's additions go: the pod template, or each Pod by modelhooks' pod webhook. */
  podInjection?: 'template' | 'webhook';
  /** The Namespace's `pod-security.kubernetes.io/enforce` level, where it names one. */
  enforced?: 'restricted' | 'baseline' | 'privileged';
}

/** A bad annotation value: the annotation and why. */
export interface SettingProblem {
  annotation: string;
  message: string;
}

/**
 * The parent's own Namespace among the related objects. Only the object named like the
 * parent's namespace is read: anything else Metacontroller might hand over is not trusted.
 */
export function parentNamespace(related: ObjectIndex, namespace: string): KubeObject | undefined {
  const ns = related.get<KubeObject>('v1', 'Namespace', namespace);
  return ns && ns.kind === 'Namespace' && ns.metadata.name === namespace ? ns : undefined;
}

/** The customize rule for the parent's Namespace (cluster-scoped: by name, no namespace). */
export function namespaceRule(namespace: string): { apiVersion: string; resource: string; names: string[] } {
  return { apiVersion: 'v1', resource: 'namespaces', names: [namespace] };
}

// host[:port][/path…]: what a registry mirror is named by.
const REGISTRY = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?(:[0-9]{1,5})?(\/[a-z0-9]+([._-][a-z0-9]+)*)*$/;
const PLACEHOLDER = /\{\{\s*\.?([A-Za-z]+)(?:\.[\w./-]+)?\s*\}\}/g;
const PLACEHOLDERS = new Set(['name', 'namespace', 'ingressdomain', 'domain', 'annotations', 'labels']);

/** The settings a Namespace's annotations give, and every bad value (those are left out). */
export function namespaceSettings(namespace: KubeObject | undefined): { settings: NamespaceSettings; problems: SettingProblem[] } {
  const annotations = namespace?.metadata.annotations ?? {};
  const settings: NamespaceSettings = {};
  const problems: SettingProblem[] = [];
  const enforced = namespace?.metadata.labels?.[ENFORCE_LABEL];
  if (enforced === 'restricted' || enforced === 'baseline' || enforced === 'privileged') settings.enforced = enforced;
  // Most namespaces carry none of these: answered without building the readers below.
  if (!Object.values(NAMESPACE_ANNOTATIONS).some((a) => typeof annotations[a] === 'string')) return { settings, problems };
  const read = (key: keyof typeof NAMESPACE_ANNOTATIONS, check: (v: string) => string | undefined, set: (v: string) => void) => {
    const annotation = NAMESPACE_ANNOTATIONS[key];
    const raw = annotations[annotation];
    if (typeof raw !== 'string') return;
    const value = raw.trim();
    const problem = check(value);
    if (problem) problems.push({ annotation, message: `${JSON.stringify(raw)}: ${problem}` });
    else set(value);
  };
  read(
    'ingressDomain',
    (v) => (isDns1123Host(v) ? undefined : 'not a DNS name'),
    (v) => (settings.ingressDomain = v),
  );
  read('domainTemplate', templateProblem, (v) => (settings.domainTemplate = v));
  read(
    'ingressClass',
    (v) => (v === '' || isDns1123Host(v) ? undefined : 'not an IngressClass name'),
    (v) => (settings.ingressClass = v),
  );
  read(
    'gateway',
    (v) => (isLabelPair(v) ? undefined : 'not namespace/name of a Gateway'),
    (v) => {
      const [ns, name] = v.split('/') as [string, string];
      settings.gateway = { namespace: ns, name };
    },
  );
  read(
    'urlScheme',
    (v) => (v === 'http' || v === 'https' ? undefined : 'not http or https'),
    (v) => (settings.urlScheme = v as 'http' | 'https'),
  );
  read(
    'imageRegistry',
    (v) => (REGISTRY.test(v) ? undefined : 'not a registry such as mirror.example.com:5000/path'),
    (v) => (settings.imageRegistry = v),
  );
  read('allowedImages', allowedProblem, (v) => (settings.allowedImages = splitList(v)));
  read(
    'podSecurity',
    (v) => ((POD_SECURITY_SETTINGS as readonly string[]).includes(v) ? undefined : `not one of ${POD_SECURITY_SETTINGS.join(', ')}`),
    (v) => (settings.podSecurity = v as PodSecuritySetting),
  );
  read(
    'modelReadiness',
    (v) => (v === 'true' || v === 'false' ? undefined : 'not true or false'),
    (v) => (settings.modelReadiness = v === 'true'),
  );
  read(
    'podInjection',
    (v) => (v === 'template' || v === 'webhook' ? undefined : 'not template or webhook'),
    (v) => (settings.podInjection = v as 'template' | 'webhook'),
  );
  return { settings, problems };
}

function splitList(v: string): string[] {
  return v
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

function allowedProblem(v: string): string | undefined {
  return splitList(v).length === 0 ? 'no image prefix listed' : undefined;
}

/** A template must name only known fields and render a valid host for a sample parent. */
function templateProblem(v: string): string | undefined {
  for (const m of v.matchAll(PLACEHOLDER)) {
    if (!PLACEHOLDERS.has((m[1] as string).toLowerCase())) return `unknown field ${m[0]}`;
  }
  const sample = v.replace(PLACEHOLDER, (_m, key: string) => (key.toLowerCase().endsWith('domain') ? 'example.com' : 'x'));
  if (!/\{\{\s*\.?name\s*\}\}/i.test(v)) return 'must contain {{ .Name }}, or every parent of the namespace gets one host';
  return isDns1123Host(sample) ? undefined : 'does not render a DNS name';
}

/**
 * An image pulled from `registry` instead: the image's own registry (its first path part,
 * when that holds a `.` or `:` or is `localhost`, as Docker reads references) is replaced;
 * Docker Hub images keep their path (`library/` added to official ones), as registry mirrors
 * and pull-through caches lay them out. `kserve/sklearnserver:v0.20.0` →
 * `mirror.example.com/kserve/sklearnserver:v0.20.0`.
 */
export function mirroredImage(image: string, registry: string): string {
  const parts = image.split('/');
  const first = parts[0] ?? '';
  const hasRegistry = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost');
  const path = hasRegistry ? parts.slice(1) : parts.length === 1 ? ['library', ...parts] : parts;
  return `${registry}/${path.join('/')}`;
}

/**
 * The configuration for one parent: the server's, with the namespace's settings laid over the
 * fields every composition's config names alike (`images`, `ingress`, `gateway`). A setting a
 * composition has no field for changes nothing for it.
 */
export function withNamespaceSettings<Config>(config: Config, s: NamespaceSettings): Config {
  if (!isRecord(config)) return config;
  const out: Record<string, unknown> = { ...config };
  if (s.imageRegistry && isRecord(config.images)) {
    const registry = s.imageRegistry;
    out.images = Object.fromEntries(Object.entries(config.images).map(([k, v]) => [k, typeof v === 'string' ? mirroredImage(v, registry) : v]));
  }
  if (isRecord(config.ingress)) {
    const ingress = { ...config.ingress };
    if (s.ingressDomain !== undefined) ingress.domain = s.ingressDomain;
    if (s.domainTemplate !== undefined) ingress.domainTemplate = s.domainTemplate;
    if (s.ingressClass !== undefined) ingress.className = s.ingressClass;
    if (s.urlScheme !== undefined) ingress.urlScheme = s.urlScheme;
    out.ingress = ingress;
  }
  if (s.gateway && isRecord(config.gateway)) out.gateway = { ...s.gateway };
  if (s.modelReadiness !== undefined && typeof config.modelReadiness === 'boolean') out.modelReadiness = s.modelReadiness;
  if (s.podInjection !== undefined && typeof config.podInjection === 'string') out.podInjection = s.podInjection;
  // The pod security level: the annotation's, else the server's; `namespace` is the Namespace's
  // enforce label, and privileged (nothing added, nothing refused) where it has none.
  if (typeof config.podSecurity === 'string') {
    const setting = s.podSecurity ?? config.podSecurity;
    out.podSecurity = setting === 'namespace' ? (s.enforced ?? 'privileged') : setting;
  }
  return out as Config;
}

/** A container image outside the allowed prefixes: which child, which container. */
export interface ImageRefusal {
  child: string;
  container: string;
  image: string;
}

const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'];

/** Every container image of a child, wherever a pod spec sits in it (Deployment, Job, Pod…). */
export function containerImages(child: KubeObject): Array<{ container: string; image: string }> {
  const found: Array<{ container: string; image: string }> = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isRecord(node)) return;
    for (const [k, v] of Object.entries(node)) {
      if (CONTAINER_LISTS.includes(k) && Array.isArray(v)) {
        for (const c of v) if (isRecord(c) && typeof c.image === 'string') found.push({ container: String(c.name ?? ''), image: c.image });
      } else walk(v);
    }
  };
  walk(child.spec);
  return found;
}

/** The images of `children` that start with none of `allowed`. */
export function imagesNotAllowed(children: readonly KubeObject[], allowed: readonly string[]): ImageRefusal[] {
  return children.flatMap((child) =>
    containerImages(child)
      .filter((c) => !allowed.some((prefix) => c.image.startsWith(prefix)))
      .map((c) => ({ child: `${child.kind}/${child.metadata.name}`, container: c.container, image: c.image })),
  );
}
