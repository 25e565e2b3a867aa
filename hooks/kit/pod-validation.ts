/**
 * Pod fields as the API server validates them, for fields a parent's spec hands to a child's
 * pod unchecked (an InferenceService's containers, an InferenceGraph's tolerations): a problem
 * here is a problem the API server would refuse the whole child for, so the composition
 * answers InvalidSpec naming the field instead of a child Metacontroller retries forever.
 *
 * Each check cites the Kubernetes 1.35 function it mirrors: k8s.io/kubernetes
 * pkg/apis/core/validation/validation.go (ValidatePodSpec and what it calls) and k8s.io/apimachinery
 * pkg/util/validation/validation.go (IsDNS1123Label, IsEnvVarName, IsValidPortName, …). Only
 * fields that are present are checked; a value of the wrong type is a problem too (the API
 * server's decoder would refuse it). Nothing here allocates per request beyond the problems.
 */
import type { SpecProblem } from './composition.js';
import { LABEL_VALUE, MAX_LABEL_VALUE_LENGTH } from './children/labels.js';
import { compareQuantities, isMultipleOf, isWholeQuantity, QUANTITY_PATTERN } from './quantity.js';
import { isRecord } from './types.js';

type Obj = Record<string, unknown>;
type Problems = SpecProblem[];

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
/** apimachinery envVarNameFmt. */
const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
const PORT_NAME = /^[-a-z0-9]+$/;

/** IsDNS1123Label: ≤63 lower-case alphanumerics and `-`, alphanumeric at both ends. */
export const isDnsLabel = (s: string) => s.length <= 63 && DNS1123_LABEL.test(s);
/** IsDNS1123Subdomain: ≤253, DNS labels joined by dots. */
export const isDnsSubdomain = (s: string) => s.length <= 253 && DNS1123_SUBDOMAIN.test(s);
/** IsQualifiedName: `[prefix/]name`, the prefix a DNS subdomain, the name ≤63 alphanumerics with `-_.` inside. */
export function isQualifiedName(s: string): boolean {
  const parts = s.split('/');
  if (parts.length > 2) return false;
  const name = parts.length === 2 ? (parts[1] as string) : s;
  if (parts.length === 2 && (parts[0] === '' || !isDnsSubdomain(parts[0] as string))) return false;
  return name.length <= 63 && QUALIFIED_NAME.test(name);
}
/** IsValidLabelValue. */
export const isValidLabelValue = (s: string) => s.length <= MAX_LABEL_VALUE_LENGTH && LABEL_VALUE.test(s);
/** IsEnvVarName (the strict form; the relaxed one of RelaxedEnvironmentVariableValidation accepts all of these). */
export const isEnvVarName = (s: string) => ENV_VAR_NAME.test(s) && s !== '.' && s !== '..' && !s.startsWith('..');
/** IsValidPortName (IANA_SVC_NAME): ≤15, `[-a-z0-9]`, a letter, no `--`, no `-` at either end. */
export const isPortName = (s: string) => s.length <= 15 && PORT_NAME.test(s) && /[a-z]/.test(s) && !s.includes('--') && !s.startsWith('-') && !s.endsWith('-');

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const show = (v: unknown) => JSON.stringify(v)?.slice(0, 80) ?? String(v);

/** A present field that must be a string passing `test`; `what` says what it must be. */
function stringField(out: Problems, obj: Obj, key: string, at: string, test: (s: string) => boolean, what: string): void {
  const v = obj[key];
  if (v === undefined) return;
  // null too: the OpenAPI schema of a pod has no nullable field (the offline validator refuses it).
  if (typeof v !== 'string') out.push({ path: `${at}.${key}`, message: 'must be a string' });
  else if (!test(v)) out.push({ path: `${at}.${key}`, message: `${show(v)}: ${what}` });
}

function arrayField(out: Problems, obj: Obj, key: string, at: string): unknown[] {
  const v = obj[key];
  if (v === undefined) return [];
  if (!Array.isArray(v)) out.push({ path: `${at}.${key}`, message: 'must be a list' });
  return list(v);
}

function objectItem(out: Problems, item: unknown, at: string): Obj | undefined {
  if (isRecord(item)) return item;
  out.push({ path: at, message: 'must be an object' });
  return undefined;
}

/** unversionedvalidation.ValidateLabels: keys IsQualifiedName, values IsValidLabelValue. */
export function labelMapProblems(map: unknown, at: string): SpecProblem[] {
  if (map === undefined || map === null) return [];
  if (!isRecord(map)) return [{ path: at, message: 'must be a map of strings' }];
  const out: Problems = [];
  for (const [k, v] of Object.entries(map)) {
    if (!isQualifiedName(k)) out.push({ path: `${at}[${show(k)}]`, message: 'not a qualified name (a label key)' });
    else if (typeof v !== 'string' || !isValidLabelValue(v))
      out.push({ path: `${at}[${show(k)}]`, message: `${show(v)}: not a label value (≤63 alphanumerics, -_. inside)` });
  }
  return out;
}

/** Options for a complete pod (a child's template) rather than fields a spec adds to one. */
export interface PodCheckOptions {
  /** The pod is whole: containers are required, each with a name and an image, mounts name a volume. */
  complete?: boolean;
}

/**
 * Problems of a PodSpec's fields (ValidatePodSpec), each named by its path below `at`. Absent
 * fields are fine unless `complete`; an InferenceService component is such a PodSpec inline.
 */
export function podSpecProblems(pod: unknown, at: string, options: PodCheckOptions = {}): SpecProblem[] {
  if (!isRecord(pod)) return pod === undefined ? [] : [{ path: at, message: 'must be an object' }];
  const out: Problems = [];
  // ValidateVolumes: each name a DNS-1123 label, unique.
  const volumes = new Set<string>();
  arrayField(out, pod, 'volumes', at).forEach((v, i) => {
    const volume = objectItem(out, v, `${at}.volumes[${i}]`);
    if (!volume) return;
    if (typeof volume.name !== 'string' || volume.name === '') out.push({ path: `${at}.volumes[${i}].name`, message: 'required' });
    else if (!isDnsLabel(volume.name)) out.push({ path: `${at}.volumes[${i}].name`, message: `${show(volume.name)}: not a DNS-1123 label` });
    else if (volumes.has(volume.name)) out.push({ path: `${at}.volumes[${i}].name`, message: `${show(volume.name)}: duplicate` });
    else volumes.add(volume.name);
  });
  // validateContainers, validateInitContainers: names unique across both lists.
  const names = new Set<string>();
  for (const key of ['containers', 'initContainers']) {
    const containers = arrayField(out, pod, key, at);
    if (options.complete && key === 'containers' && containers.length === 0) out.push({ path: `${at}.containers`, message: 'required' });
    containers.forEach((c, i) => {
      const path = `${at}.${key}[${i}]`;
      out.push(...containerProblems(c, path, { ...options, ...(options.complete ? { volumes } : {}) }));
      if (isRecord(c) && typeof c.name === 'string') {
        if (names.has(c.name)) out.push({ path: `${path}.name`, message: `${show(c.name)}: duplicate container name` });
        names.add(c.name);
      }
    });
  }
  // ValidatePodSpec: nodeSelector (ValidateLabels), names of other objects, DNS labels.
  out.push(...labelMapProblems(pod.nodeSelector, `${at}.nodeSelector`));
  stringField(out, pod, 'serviceAccountName', at, isDnsSubdomain, 'not a DNS-1123 subdomain (ValidateServiceAccountName)');
  stringField(out, pod, 'nodeName', at, isDnsSubdomain, 'not a DNS-1123 subdomain (ValidateNodeName)');
  stringField(out, pod, 'priorityClassName', at, isDnsSubdomain, 'not a DNS-1123 subdomain (ValidatePriorityClassName)');
  stringField(out, pod, 'runtimeClassName', at, isDnsSubdomain, 'not a DNS-1123 subdomain (ValidateRuntimeClassName)');
  stringField(out, pod, 'schedulerName', at, isDnsSubdomain, 'not a DNS-1123 subdomain');
  stringField(out, pod, 'hostname', at, isDnsLabel, 'not a DNS-1123 label');
  stringField(out, pod, 'subdomain', at, isDnsLabel, 'not a DNS-1123 label');
  // A spec's restartPolicy may be dropped by the builder (a Deployment's must be Always): only a whole pod's is checked.
  if (options.complete)
    stringField(out, pod, 'restartPolicy', at, (s) => ['Always', 'OnFailure', 'Never'].includes(s), 'one of Always, OnFailure, Never (validateRestartPolicy)');
  stringField(
    out,
    pod,
    'dnsPolicy',
    at,
    (s) => ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'].includes(s),
    'not a DNS policy (validateDNSPolicy)',
  );
  stringField(
    out,
    pod,
    'preemptionPolicy',
    at,
    (s) => ['PreemptLowerPriority', 'Never'].includes(s),
    'PreemptLowerPriority or Never (ValidatePreemptionPolicy)',
  );
  arrayField(out, pod, 'imagePullSecrets', at).forEach((s, i) => {
    const secret = objectItem(out, s, `${at}.imagePullSecrets[${i}]`);
    if (secret) stringField(out, secret, 'name', `${at}.imagePullSecrets[${i}]`, (n) => n !== '', 'required (validateImagePullSecrets)');
  });
  arrayField(out, pod, 'tolerations', at).forEach((t, i) => {
    out.push(...tolerationProblems(t, `${at}.tolerations[${i}]`));
  });
  // validatePodResources: pod-level requests at most their limits, as a container's.
  out.push(...resourceProblems(pod.resources, `${at}.resources`));
  // validateAffinity, and the strict decoder: only these three fields.
  if (pod.affinity !== undefined && pod.affinity !== null) {
    if (!isRecord(pod.affinity)) out.push({ path: `${at}.affinity`, message: 'must be an object' });
    else
      for (const [k, v] of Object.entries(pod.affinity))
        if (!['nodeAffinity', 'podAffinity', 'podAntiAffinity'].includes(k) || !isRecord(v))
          out.push({ path: `${at}.affinity.${k}`, message: 'not nodeAffinity, podAffinity or podAntiAffinity (an object)' });
  }
  const grace = pod.terminationGracePeriodSeconds;
  if (grace !== undefined && !(Number.isSafeInteger(grace) && (grace as number) >= 0))
    out.push({ path: `${at}.terminationGracePeriodSeconds`, message: 'must be a non-negative integer' });
  const deadline = pod.activeDeadlineSeconds;
  if (deadline !== undefined && !(Number.isInteger(deadline) && (deadline as number) >= 1 && (deadline as number) <= 2147483647))
    out.push({ path: `${at}.activeDeadlineSeconds`, message: 'must be between 1 and 2147483647' });
  return out;
}

/** ValidateTolerations: key a label name, operator Equal/Exists (Exists with an empty value), effect a taint effect. */
export function tolerationProblems(t: unknown, at: string): SpecProblem[] {
  const out: Problems = [];
  const toleration = objectItem(out, t, at);
  if (!toleration) return out;
  const { key = '', operator = '', value = '', effect = '', tolerationSeconds } = toleration as Record<string, unknown>;
  for (const [name, v] of Object.entries({ key, operator, value, effect }))
    if (typeof v !== 'string') out.push({ path: `${at}.${name}`, message: 'must be a string' });
  if (out.length > 0) return out;
  if (key !== '' && !isQualifiedName(key as string)) out.push({ path: `${at}.key`, message: `${show(key)}: not a qualified name` });
  if (key === '' && operator !== 'Exists') out.push({ path: `${at}.operator`, message: 'must be Exists when key is empty' });
  if (tolerationSeconds !== undefined && tolerationSeconds !== null && effect !== 'NoExecute')
    out.push({ path: `${at}.effect`, message: "must be 'NoExecute' when tolerationSeconds is set" });
  if (operator === 'Equal' || operator === '') {
    if (!isValidLabelValue(value as string)) out.push({ path: `${at}.value`, message: `${show(value)}: not a label value` });
  } else if (operator === 'Exists') {
    if (value !== '') out.push({ path: `${at}.value`, message: "must be empty when operator is 'Exists'" });
  } else out.push({ path: `${at}.operator`, message: `${show(operator)}: not Equal or Exists` });
  if (effect !== '' && !['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(effect as string))
    out.push({ path: `${at}.effect`, message: `${show(effect)}: not NoSchedule, PreferNoSchedule or NoExecute (validateTaintEffect)` });
  return out;
}

/**
 * validateContainerCommon and validateContainerOnlyForPod: name (DNS-1123 label), image (no
 * surrounding whitespace), ports, env, envFrom, volume mounts, pull policy, resources.
 */
export function containerProblems(c: unknown, at: string, options: PodCheckOptions & { volumes?: ReadonlySet<string> } = {}): SpecProblem[] {
  const out: Problems = [];
  const container = objectItem(out, c, at);
  if (!container) return out;
  if (options.complete && (typeof container.name !== 'string' || container.name === '')) out.push({ path: `${at}.name`, message: 'required' });
  // Not complete (a component's container, named by default): `name: ""` is unset, as KServe's webhook stores it.
  else if (container.name !== '') stringField(out, container, 'name', at, isDnsLabel, 'not a DNS-1123 label (a container name)');
  if (options.complete && (typeof container.image !== 'string' || container.image === '')) out.push({ path: `${at}.image`, message: 'required' });
  stringField(out, container, 'image', at, (s) => s === s.trim(), 'must not have leading or trailing whitespace');
  // The decoder: fields of a Container that must be strings, lists of strings, booleans.
  for (const key of ['workingDir', 'terminationMessagePath']) stringField(out, container, key, at, () => true, '');
  for (const key of ['args', 'command']) {
    const v = container[key];
    if (v !== undefined && v !== null && !(Array.isArray(v) && v.every((x) => typeof x === 'string')))
      out.push({ path: `${at}.${key}`, message: 'must be a list of strings' });
  }
  for (const key of ['stdin', 'stdinOnce', 'tty']) {
    const v = container[key];
    if (v !== undefined && v !== null && typeof v !== 'boolean') out.push({ path: `${at}.${key}`, message: 'must be true or false' });
  }
  stringField(
    out,
    container,
    'imagePullPolicy',
    at,
    (s) => ['Always', 'IfNotPresent', 'Never'].includes(s),
    'one of Always, IfNotPresent, Never (validatePullPolicy)',
  );
  stringField(out, container, 'terminationMessagePolicy', at, (s) => ['File', 'FallbackToLogsOnError'].includes(s), 'File or FallbackToLogsOnError');
  // validateContainerPorts.
  const portNames = new Set<string>();
  arrayField(out, container, 'ports', at).forEach((p, i) => {
    const port = objectItem(out, p, `${at}.ports[${i}]`);
    if (!port) return;
    const path = `${at}.ports[${i}]`;
    for (const key of ['containerPort', 'hostPort']) {
      const n = port[key];
      if (n === undefined || n === null) continue;
      if (!Number.isInteger(n) || (n as number) < 1 || (n as number) > 65535)
        out.push({ path: `${path}.${key}`, message: `${show(n)}: must be between 1 and 65535 (IsValidPortNum)` });
    }
    stringField(out, port, 'protocol', path, (s) => ['TCP', 'UDP', 'SCTP'].includes(s), 'TCP, UDP or SCTP');
    if (typeof port.name === 'string' && port.name !== '') {
      if (!isPortName(port.name)) out.push({ path: `${path}.name`, message: `${show(port.name)}: not an IANA_SVC_NAME (IsValidPortName)` });
      else if (portNames.has(port.name)) out.push({ path: `${path}.name`, message: `${show(port.name)}: duplicate` });
      portNames.add(port.name);
    } else if (port.name !== undefined && port.name !== null && port.name !== '') out.push({ path: `${path}.name`, message: 'must be a string' });
  });
  // ValidateEnv: a name, IsEnvVarName.
  arrayField(out, container, 'env', at).forEach((e, i) => {
    const env = objectItem(out, e, `${at}.env[${i}]`);
    if (!env) return;
    if (typeof env.name !== 'string' || env.name === '') out.push({ path: `${at}.env[${i}].name`, message: 'required' });
    else if (!isEnvVarName(env.name)) out.push({ path: `${at}.env[${i}].name`, message: `${show(env.name)}: not an environment variable name (IsEnvVarName)` });
  });
  // ValidateEnvFrom: a prefix must be an environment variable name too.
  arrayField(out, container, 'envFrom', at).forEach((e, i) => {
    const from = objectItem(out, e, `${at}.envFrom[${i}]`);
    if (from) stringField(out, from, 'prefix', `${at}.envFrom[${i}]`, (s) => s === '' || isEnvVarName(s), 'not an environment variable name (IsEnvVarName)');
  });
  // ValidateVolumeMounts: a name (of a volume, when the pod is whole), a unique mount path.
  const mountPaths = new Set<string>();
  arrayField(out, container, 'volumeMounts', at).forEach((m, i) => {
    const mount = objectItem(out, m, `${at}.volumeMounts[${i}]`);
    if (!mount) return;
    const path = `${at}.volumeMounts[${i}]`;
    if (typeof mount.name !== 'string' || mount.name === '') out.push({ path: `${path}.name`, message: 'required' });
    else if (options.volumes && !options.volumes.has(mount.name)) out.push({ path: `${path}.name`, message: `${show(mount.name)}: no such volume` });
    // IsMatchedVolume: a mount names a volume, and volume names are DNS-1123 labels.
    else if (!isDnsLabel(mount.name)) out.push({ path: `${path}.name`, message: `${show(mount.name)}: names no volume (volume names are DNS-1123 labels)` });
    if (typeof mount.mountPath !== 'string' || mount.mountPath === '') out.push({ path: `${path}.mountPath`, message: 'required' });
    else if (mountPaths.has(mount.mountPath)) out.push({ path: `${path}.mountPath`, message: `${show(mount.mountPath)}: must be unique` });
    else mountPaths.add(mount.mountPath);
  });
  out.push(...resourceProblems(container.resources, `${at}.resources`));
  return out;
}

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

/**
 * validateResourceRequirements with validateContainerResourceName: names standard (cpu,
 * memory, ephemeral-storage, hugepages-*) or qualified, quantities non-negative, every
 * request at most its limit (equal for hugepages and extended resources).
 */
export function resourceProblems(resources: unknown, at: string): SpecProblem[] {
  if (resources === undefined || resources === null) return [];
  if (!isRecord(resources)) return [{ path: at, message: 'must be an object' }];
  const out: Problems = [];
  const maps: Record<string, Obj> = {};
  for (const key of ['limits', 'requests']) {
    const map = resources[key];
    if (map === undefined || map === null) continue;
    if (!isRecord(map)) {
      out.push({ path: `${at}.${key}`, message: 'must be a map of quantities' });
      continue;
    }
    maps[key] = map;
    for (const [name, q] of Object.entries(map)) {
      const path = `${at}.${key}[${show(name)}]`;
      const native = !name.includes('/') || name.includes('kubernetes.io/');
      if (!isQualifiedName(name) || (!name.includes('/') && !STANDARD_CONTAINER_RESOURCES.has(name) && !name.startsWith('hugepages-')))
        out.push({ path, message: 'not a container resource (cpu, memory, ephemeral-storage, hugepages-<size> or a qualified name)' });
      else if (!native && !isQualifiedName(`requests.${name}`))
        out.push({ path, message: "doesn't follow the extended resource name standard (IsExtendedResourceName)" });
      if ((typeof q !== 'string' && typeof q !== 'number') || !QUANTITY_PATTERN.test(String(q)))
        out.push({ path, message: `${show(q)}: not a non-negative quantity` });
      // ValidateResourceQuantityValue: an extended resource (IsIntegerResourceName) is counted in whole units.
      else if (!native && !isWholeQuantity(String(q))) out.push({ path, message: `${show(q)}: must be an integer` });
    }
  }
  const { requests, limits } = maps;
  // validateResourceQuantityHugePageValue: a multiple of the page size; HugePages require cpu or memory.
  const names = [...Object.keys(requests ?? {}), ...Object.keys(limits ?? {})];
  for (const [key, map] of Object.entries(maps)) {
    for (const [name, q] of Object.entries(map)) {
      const size = name.startsWith('hugepages-') ? name.slice('hugepages-'.length) : undefined;
      if (size !== undefined && !isMultipleOf(String(q), size))
        out.push({ path: `${at}.${key}[${show(name)}]`, message: `${show(q)}: not a positive multiple of ${size}` });
    }
  }
  if (names.some((n) => n.startsWith('hugepages-')) && !names.some((n) => n === 'cpu' || n === 'memory'))
    out.push({ path: at, message: 'HugePages require cpu or memory' });
  if (!requests) return out;
  for (const [name, request] of Object.entries(requests)) {
    const limit = limits?.[name];
    const overcommit = (!name.includes('/') || name.includes('kubernetes.io/')) && !name.startsWith('hugepages-');
    if (limit === undefined) {
      if (!overcommit) out.push({ path: `${at}.limits`, message: `${name}: a limit must be set for non-overcommitable resources` });
      continue;
    }
    const order = compareQuantities(String(request), String(limit));
    if (order === undefined) continue;
    if (!overcommit && order !== 0)
      out.push({ path: `${at}.requests[${show(name)}]`, message: `${show(request)}: must be equal to the ${name} limit of ${show(limit)}` });
    else if (order > 0)
      out.push({ path: `${at}.requests[${show(name)}]`, message: `${show(request)}: must be less than or equal to the ${name} limit of ${show(limit)}` });
  }
  return out;
}
