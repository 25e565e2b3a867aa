import type { KubeObject } from '../../e2e/support/kube.js';

/** One field that differs between KServe's object and modelhooks' (a value absent on one side is `undefined`). */
export interface Difference {
  spec: string;
  kind: string;
  /** The object's name (a Pod: its Deployment's name). */
  object: string;
  /** JSON path; arrays of named items are indexed by name (`containers[kserve-container]`), others by position. */
  path: string;
  kserve?: unknown;
  modelhooks?: unknown;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = Record<string, unknown>;

const API_ACCESS = /^kube-api-access-[a-z0-9]{5}$/;
/** Fields the API server, the controllers or the kubelet write, which differ run to run or side to side by construction. */
const METADATA_DROPPED = ['uid', 'resourceVersion', 'managedFields', 'creationTimestamp', 'generation', 'namespace', 'selfLink', 'generateName'];

/**
 * An object as it is compared (ORACLE.md's list): no identity or bookkeeping fields (uid,
 * resourceVersion, managedFields, timestamps, generated names, namespace, the ownerReferences'
 * uid, status), no `pod-template-hash` nor `deployment.kubernetes.io/revision` (the Deployment
 * controller's), no Service cluster IP (allocated), a Pod without its name, owner (a real Pod's
 * ReplicaSet) or node (the fake kubelet binds it), the service-account volume's random
 * suffix dropped, and volumes in name order (admission plugins append them in their order).
 */
export function normalise(obj: KubeObject): Obj {
  const o = structuredClone(obj) as Obj & { metadata: Obj };
  delete o.status;
  cleanMetadata(o.metadata);
  if (o.kind === 'Pod') {
    delete o.metadata.name;
    delete o.metadata.ownerReferences;
    const spec = o.spec as Obj;
    delete spec.nodeName;
    cleanPodSpec(spec);
  }
  if (o.kind === 'Deployment') {
    const template = (o.spec as Obj).template as Obj & { metadata?: Obj; spec: Obj };
    if (template.metadata) cleanMetadata(template.metadata);
    cleanPodSpec(template.spec);
  }
  if (o.kind === 'Service') {
    const spec = o.spec as Obj;
    if (spec.clusterIP !== 'None') {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
  }
  return o;
}

function cleanMetadata(m: Obj): void {
  for (const k of METADATA_DROPPED) delete m[k];
  if (Array.isArray(m.ownerReferences)) m.ownerReferences = (m.ownerReferences as Obj[]).map(({ uid: _uid, ...ref }) => ref);
  const labels = m.labels as Record<string, string> | undefined;
  if (labels) delete labels['pod-template-hash'];
  const annotations = m.annotations as Record<string, string> | undefined;
  if (annotations) delete annotations['deployment.kubernetes.io/revision'];
  for (const k of ['labels', 'annotations']) if (m[k] && Object.keys(m[k] as Obj).length === 0) delete m[k];
}

function cleanPodSpec(spec: Obj): void {
  const rename = (name: unknown) => (typeof name === 'string' && API_ACCESS.test(name) ? 'kube-api-access' : name);
  if (Array.isArray(spec.volumes)) {
    spec.volumes = (spec.volumes as Obj[]).map((v) => ({ ...v, name: rename(v.name) })).sort((a, b) => String(a.name).localeCompare(String(b.name)));
  }
  for (const c of [...((spec.containers as Obj[]) ?? []), ...((spec.initContainers as Obj[]) ?? [])]) {
    if (Array.isArray(c.volumeMounts)) c.volumeMounts = (c.volumeMounts as Obj[]).map((m) => ({ ...m, name: rename(m.name) }));
  }
}

/**
 * Leaves of a JSON value by path; an empty object or array is a leaf of its own. A key holding
 * `.` or `/` (a label, an annotation) is bracketed: `metadata.labels[app.kubernetes.io/name]`.
 */
export function flatten(value: unknown, prefix = '', out = new Map<string, Json>()): Map<string, Json> {
  if (Array.isArray(value)) {
    if (value.length === 0) out.set(prefix, []);
    const names = value.map((v) => (v && typeof v === 'object' && typeof (v as Obj).name === 'string' ? ((v as Obj).name as string) : undefined));
    const byName = names.every((n) => n !== undefined) && new Set(names).size === names.length;
    value.forEach((v, i) => flatten(v, `${prefix}[${byName ? names[i] : i}]`, out));
  } else if (value && typeof value === 'object') {
    const entries = Object.entries(value as Obj);
    if (entries.length === 0) out.set(prefix, {});
    for (const [k, v] of entries) flatten(v, /[./]/.test(k) ? `${prefix}[${k}]` : prefix ? `${prefix}.${k}` : k, out);
  } else {
    out.set(prefix, value as Json);
  }
  return out;
}

/** Key of an object in a side's map: kind/name (a Pod: Pod/<its Deployment>). */
export const keyOf = (kind: string, name: string) => `${kind}/${name}`;

/**
 * A side's objects with each Deployment an HPA of that side scales at the replicas that HPA
 * gives it at once: its current replicas (1 when unset) held within minReplicas and
 * maxReplicas. kube-controller-manager's HPA controller does this on its first pass, without
 * metrics (pkg/controller/podautoscaler/horizontal.go: below Spec.MinReplicas → minReplicas).
 * Neither controller writes those replicas: KServe leaves them unset under an HPA, also when
 * minReplicas equals maxReplicas (reconcilers/deployment/deployment_reconciler.go
 * createRawDefaultDeployment sets them for autoscalerClass none only; hpa_reconciler.go makes the
 * HPA), and so does modelhooks; KServe's Deployment is read after its HPA acted, modelhooks'
 * is a dry-run no HPA has seen. A Deployment without an HPA keeps its replicas as written.
 */
export function scaledByHpa(objects: Map<string, KubeObject>): Map<string, KubeObject> {
  const out = new Map(objects);
  for (const hpa of objects.values()) {
    if (hpa.kind !== 'HorizontalPodAutoscaler') continue;
    const spec = hpa.spec as { scaleTargetRef?: { kind?: string; name?: string }; minReplicas?: number; maxReplicas?: number };
    if (spec.scaleTargetRef?.kind !== 'Deployment' || !spec.scaleTargetRef.name) continue;
    const key = keyOf('Deployment', spec.scaleTargetRef.name);
    const deployment = out.get(key);
    if (!deployment) continue;
    const current = ((deployment.spec as Obj | undefined)?.replicas as number | undefined) ?? 1;
    const replicas = Math.min(Math.max(current, spec.minReplicas ?? 1), spec.maxReplicas ?? current);
    out.set(key, { ...deployment, spec: { ...(deployment.spec as Obj), replicas } });
  }
  return out;
}

/**
 * Field-by-field differences between KServe's objects and modelhooks' (each already as the
 * API server made it). An object on one side only is one difference at path `(object)`.
 */
export function diffObjects(spec: string, kserveSide: Map<string, KubeObject>, modelhooksSide: Map<string, KubeObject>): Difference[] {
  const out: Difference[] = [];
  const [kserve, modelhooks] = [scaledByHpa(kserveSide), scaledByHpa(modelhooksSide)];
  const keys = [...new Set([...kserve.keys(), ...modelhooks.keys()])].sort();
  for (const key of keys) {
    const [kind = '', object = ''] = key.split(/\/(.*)/s);
    const k = kserve.get(key);
    const m = modelhooks.get(key);
    if (!k || !m) {
      out.push({ spec, kind, object, path: '(object)', kserve: k ? 'present' : undefined, modelhooks: m ? 'present' : undefined });
      continue;
    }
    const a = flatten(normalise(k));
    const b = flatten(normalise(m));
    const [pa, pb] = [prefixes(a), prefixes(b)];
    const seen = new Set<string>();
    for (const path of [...new Set([...a.keys(), ...b.keys()])].sort()) {
      const x = a.get(path);
      const y = b.get(path);
      if (JSON.stringify(x) === JSON.stringify(y)) continue;
      // `{}` on one side where the other has fields below: those fields are the differences.
      if ((x === undefined && isEmpty(y) && pa.has(path)) || (y === undefined && isEmpty(x) && pb.has(path))) continue;
      // A field one side lacks entirely is one difference at its top: `initContainers[storage-initializer]`, not its 20 leaves.
      const top = x === undefined ? topMissing(path, pa) : y === undefined ? topMissing(path, pb) : path;
      if (seen.has(top)) continue;
      seen.add(top);
      out.push({ spec, kind, object, path: top, kserve: top === path ? x : subtree(a, top), modelhooks: top === path ? y : subtree(b, top) });
    }
  }
  return out;
}

const isEmpty = (v: Json | undefined) => v !== null && typeof v === 'object' && Object.keys(v).length === 0;

/** A path's segments: `a.b[c.d].e` → a, b, [c.d], e. */
export function segments(path: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < path.length; i++) {
    const c = path[i] as string;
    if (c === '[') {
      if (cur) out.push(cur);
      const end = path.indexOf(']', i);
      out.push(path.slice(i, end + 1));
      cur = '';
      i = end;
    } else if (c === '.') {
      if (cur) out.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur) out.push(cur);
  return out;
}

const join = (segs: string[]) => segs.reduce((acc, s) => (s.startsWith('[') || !acc ? acc + s : `${acc}.${s}`), '');

/** Every path and every ancestor of one, of a flattened side. */
function prefixes(flat: Map<string, Json>): Set<string> {
  const out = new Set<string>();
  for (const path of flat.keys()) {
    const segs = segments(path);
    for (let i = 1; i <= segs.length; i++) out.add(join(segs.slice(0, i)));
  }
  return out;
}

/** The shortest ancestor of `path` that the side (its prefixes) lacks. */
function topMissing(path: string, side: Set<string>): string {
  const segs = segments(path);
  for (let i = 1; i <= segs.length; i++) {
    const p = join(segs.slice(0, i));
    if (!side.has(p)) return p;
  }
  return path;
}

/** The leaves under `top`, by their path below it (undefined when there are none). */
function subtree(flat: Map<string, Json>, top: string): Record<string, Json> | undefined {
  const out: Record<string, Json> = {};
  for (const [path, v] of flat)
    if (path.startsWith(top) && (path.length === top.length || '.['.includes(path[top.length] as string)))
      out[path.slice(top.length).replace(/^\./, '') || '.'] = v;
  return Object.keys(out).length ? out : undefined;
}

/** A kept difference of test/oracle/differences.yaml. */
export interface KeptDifference {
  kind: string;
  /** Glob over the JSON path: `*` any characters but `.` and `[` (`[*]`: one bracketed segment, dots and all), `**` anything. */
  path: string;
  /** Globs over spec names (the corpus file's name without .yaml, `/` and the object's name); absent: every spec. */
  specs?: string[];
  reason: string;
  upstream: string;
}

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (c === '[' && glob.startsWith('[*]', i)) {
      re += '\\[[^\\]]*\\]';
      i += 2;
    } else if (c === '*') re += '[^.[]*';
    else re += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's');
}

export interface Matcher {
  /** The first kept difference that explains `d`, or undefined. */
  match(d: Difference): KeptDifference | undefined;
}

export function matcher(kept: KeptDifference[]): Matcher {
  const compiled = kept.map((k) => ({ k, path: globToRegExp(k.path), kind: globToRegExp(k.kind), specs: k.specs?.map(globToRegExp) }));
  return {
    match: (d) => compiled.find((c) => c.kind.test(d.kind) && c.path.test(d.path) && (!c.specs || c.specs.some((s) => s.test(d.spec))))?.k,
  };
}

/**
 * The report: every observed difference grouped by kind and path (digits in array positions
 * kept), with how many specs show it, which, and one example value pair. For refreshing
 * differences.yaml after the hooks change (`ORACLE_REPORT=path`).
 */
export function report(diffs: Difference[], kept: Matcher): string {
  const groups = new Map<string, Difference[]>();
  for (const d of diffs) {
    // A list item named after the object (a Service's port, a graph router's container) is one group across specs.
    const key = `${d.kind}  ${d.path.replaceAll(`[${d.object}]`, '[<object>]')}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  const lines: string[] = [`${diffs.length} differences in ${groups.size} groups (kind, path)`, ''];
  for (const [key, ds] of [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const first = ds[0] as Difference;
    const specs = [...new Set(ds.map((d) => d.spec))];
    const listed = kept.match(first);
    lines.push(
      `${key}`,
      `    ${listed ? `kept: ${listed.reason.split('\n')[0]?.slice(0, 100)}` : 'NOT LISTED'}`,
      `    ${specs.length} spec(s): ${specs.slice(0, 6).join(', ')}${specs.length > 6 ? ', …' : ''}`,
      `    kserve:     ${JSON.stringify(first.kserve) ?? '(absent)'}`,
      `    modelhooks: ${JSON.stringify(first.modelhooks) ?? '(absent)'}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
