/**
 * Every label map of a child, checked as the API server checks it (apimachinery
 * validation.IsQualifiedName for keys, IsValidLabelValue for values): metadata.labels, the pod
 * template's labels, a workload's `selector.matchLabels` and a Service's `spec.selector`.
 * Written here from the Kubernetes rules, not from hooks/kit/children/labels.ts, so a wrong kit rule fails.
 */
const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function keyProblem(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  const name = slash < 0 ? key : key.slice(slash + 1);
  if (prefix !== undefined && (prefix.length > 253 || !SUBDOMAIN.test(prefix))) return `key ${key}: prefix is not a DNS subdomain`;
  if (name.length > 63 || !NAME.test(name)) return `key ${key}: not a qualified name`;
  return undefined;
}

function mapProblems(where: string, map: unknown): string[] {
  if (map === undefined || map === null) return [];
  if (typeof map !== 'object' || Array.isArray(map)) return [`${where}: not a map`];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(map as Record<string, unknown>)) {
    const k = keyProblem(key);
    if (k) problems.push(`${where}: ${k}`);
    if (typeof value !== 'string' || value.length > 63 || !VALUE.test(value)) problems.push(`${where}: ${key}=${String(value)} is not a valid label value`);
  }
  return problems;
}

const rec = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** `Kind/name: where: what is wrong` for each invalid label key or value of `child`; empty when all are valid. */
export function labelProblems(child: { kind: string; metadata: { name: string; labels?: unknown }; spec?: unknown }): string[] {
  const id = `${child.kind}/${child.metadata.name}`;
  const spec = rec(child.spec);
  const selector = rec(spec.selector);
  const template = rec(rec(spec.template).metadata);
  const jobTemplate = rec(rec(rec(rec(spec.jobTemplate).spec).template).metadata);
  return [
    ...mapProblems(`${id} metadata.labels`, child.metadata.labels),
    ...mapProblems(`${id} spec.template.metadata.labels`, template.labels),
    ...mapProblems(`${id} spec.jobTemplate…labels`, jobTemplate.labels),
    ...(child.kind === 'Service' ? mapProblems(`${id} spec.selector`, spec.selector) : mapProblems(`${id} spec.selector.matchLabels`, selector.matchLabels)),
  ];
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Names inside a workload's pod template that must be DNS-1123 labels (≤63, no dots): its
 * volumes, the volume mounts that refer to them, and its containers (apimachinery
 * ValidatePodSpec). A name built from a long or dotted parent name breaks here first.
 */
export function podNameProblems(child: { kind: string; metadata: { name: string }; spec?: unknown }): string[] {
  const spec = rec(child.spec);
  const pod = rec(rec(spec.template).spec);
  const id = `${child.kind}/${child.metadata.name}`;
  const bad = (what: string, name: unknown) =>
    typeof name === 'string' && name.length <= 63 && DNS1123_LABEL.test(name) ? [] : [`${id} ${what} ${String(name)} is not a DNS-1123 label`];
  const list = (v: unknown) => (Array.isArray(v) ? v.map(rec) : []);
  const containers = [...list(pod.initContainers), ...list(pod.containers)];
  return [
    ...list(pod.volumes).flatMap((v) => bad('volume', v.name)),
    ...containers.flatMap((c) => [...bad('container', c.name), ...list(c.volumeMounts).flatMap((m) => bad('volumeMount', m.name))]),
  ];
}

/**
 * `Kind/name: …` for each annotation map of `child` the API server would refuse
 * (apimachinery objectmeta.go ValidateAnnotations: keys qualified names once lower-cased,
 * string values, ≤256 KiB of keys and values in bytes): metadata.annotations and the pod template's.
 */
export function annotationProblems(child: { kind: string; metadata: { name: string; annotations?: unknown }; spec?: unknown }): string[] {
  const id = `${child.kind}/${child.metadata.name}`;
  const check = (where: string, map: unknown): string[] => {
    if (map === undefined || map === null) return [];
    if (typeof map !== 'object' || Array.isArray(map)) return [`${where}: not a map`];
    let size = 0;
    const problems: string[] = [];
    for (const [key, value] of Object.entries(map as Record<string, unknown>)) {
      const k = keyProblem(key.toLowerCase());
      if (k) problems.push(`${where}: ${k}`);
      if (typeof value !== 'string') problems.push(`${where}: ${key} is not a string`);
      else size += Buffer.byteLength(key) + Buffer.byteLength(value);
    }
    if (size > 256 * 1024) problems.push(`${where}: ${size} bytes, over 256 KiB`);
    return problems;
  };
  return [
    ...check(`${id} metadata.annotations`, child.metadata.annotations),
    ...check(`${id} spec.template.metadata.annotations`, rec(rec(rec(child.spec).template).metadata).annotations),
  ];
}
