import { isRecord, type KubeObject } from './types.js';

/** `Kind.apiVersion`: the key Metacontroller uses for a child type in its requests. */
export function typeKey(apiVersion: string, kind: string): string {
  return `${kind}.${apiVersion}`;
}

/**
 * Observed children or related objects, indexed by type and namespace/name. Built from
 * the objects themselves rather than Metacontroller's map keys, so hook v1 keys (`name`)
 * and v2 keys (`namespace/name`) read the same.
 */
export class ObjectIndex {
  private readonly byType = new Map<string, Map<string, KubeObject>>();
  /** `list`'s answers, sorted once per type: the index never changes once built. */
  private readonly sorted = new Map<string, KubeObject[]>();

  constructor(
    objects: Iterable<KubeObject>,
    private readonly defaultNamespace: string,
  ) {
    for (const obj of objects) {
      const key = typeKey(obj.apiVersion, obj.kind);
      let group = this.byType.get(key);
      if (!group) this.byType.set(key, (group = new Map()));
      group.set(`${obj.metadata.namespace ?? defaultNamespace}/${obj.metadata.name}`, obj);
    }
  }

  /**
   * Reads a Metacontroller child or related map (`{"Kind.v": {"key": object}}`) for a parent
   * in `namespace`. Only that namespace is read: an object whose own namespace or whose v2 key
   * (`namespace/name`) names another namespace is ignored, even if offered — a v2 rule without
   * a namespace selects every namespace, and a key that disagrees with its object is not
   * trusted either way. Cluster-scoped objects (no namespace, keyed by `name`) are kept and
   * read as if they were in the parent's namespace, so `get(…, name)` finds them.
   */
  static fromWire(map: unknown, namespace: string, system: ReadonlyArray<{ kind: string; namespace: string; name: string }> = []): ObjectIndex {
    const objects: KubeObject[] = [];
    // A system object (composition.ts SystemObject) is let in by kind, namespace and name, its key agreeing.
    const isSystem = (type: string, key: string, meta: Record<string, unknown>) =>
      system.some((o) => type.startsWith(`${o.kind}.`) && meta.namespace === o.namespace && meta.name === o.name && key === `${o.namespace}/${o.name}`);
    if (isRecord(map)) {
      for (const type of Object.keys(map)) {
        const group = map[type];
        if (!isRecord(group)) continue;
        for (const key of Object.keys(group)) {
          const obj = group[key];
          if (!isRecord(obj) || !isRecord(obj.metadata)) continue;
          if (!inNamespace(key, obj.metadata.namespace, namespace) && !isSystem(type, key, obj.metadata)) continue;
          const typed = isKubeObject(obj) ? obj : withTypeFromKey(obj, type);
          const safe = wellFormed(typed);
          if (safe) objects.push(safe);
        }
      }
    }
    return new ObjectIndex(objects, namespace);
  }

  get<T extends KubeObject = KubeObject>(apiVersion: string, kind: string, name: string, namespace?: string): T | undefined {
    return this.byType.get(typeKey(apiVersion, kind))?.get(`${namespace ?? this.defaultNamespace}/${name}`) as T | undefined;
  }

  /** Every object of one type, sorted by namespace/name so that callers are deterministic. */
  list<T extends KubeObject = KubeObject>(apiVersion: string, kind: string): T[] {
    const key = typeKey(apiVersion, kind);
    let sorted = this.sorted.get(key);
    if (sorted === undefined) {
      const group = this.byType.get(key);
      if (!group) return [];
      sorted = [...group.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, o]) => o);
      this.sorted.set(key, sorted);
    }
    // A copy of the array (never of the objects): callers may sort or extend what they get.
    return sorted.slice() as T[];
  }

  all(): KubeObject[] {
    return [...this.byType.keys()].sort().flatMap((key) => {
      const [kind, ...rest] = key.split('.');
      return this.list(rest.join('.'), kind ?? '');
    });
  }

  get size(): number {
    let n = 0;
    for (const g of this.byType.values()) n += g.size;
    return n;
  }
}

export function isKubeObject(value: unknown): value is KubeObject {
  return (
    isRecord(value) &&
    typeof value.apiVersion === 'string' &&
    typeof value.kind === 'string' &&
    isRecord(value.metadata) &&
    typeof value.metadata.name === 'string'
  );
}

/** Whether a map entry belongs to `namespace`: neither its key nor its object names another one. */
function inNamespace(key: string, objectNamespace: unknown, namespace: string): boolean {
  if (objectNamespace !== undefined && objectNamespace !== namespace) return false;
  const slash = key.indexOf('/');
  return slash < 0 || key.slice(0, slash) === namespace;
}

/** Objects in a map are sometimes sent without apiVersion/kind; the map key carries them. */
function withTypeFromKey(obj: Record<string, unknown>, key: string): KubeObject {
  const dot = key.indexOf('.');
  return { ...obj, kind: key.slice(0, dot), apiVersion: key.slice(dot + 1) } as KubeObject;
}

const isStringMap = (v: unknown): boolean => {
  if (!isRecord(v)) return false;
  for (const k in v) if (typeof v[k] !== 'string') return false;
  return true;
};
const isRecordList = (v: unknown): boolean => Array.isArray(v) && v.every(isRecord);

/**
 * An observed or related object with the shapes every reader relies on, or undefined when it
 * has no string name: metadata's labels and annotations maps of strings, ownerReferences a list
 * of objects, status an object whose conditions (if any) are a list of objects. These objects
 * are input a tenant controls (a related InferenceService's status, a child's owner references),
 * so a field of another shape is left out rather than trusted; a well-formed object (nearly
 * every one) is returned as it is, without a copy.
 */
export function wellFormed(obj: KubeObject): KubeObject | undefined {
  const meta = obj.metadata as Record<string, unknown>;
  if (typeof meta.name !== 'string' || (meta.namespace !== undefined && typeof meta.namespace !== 'string')) return undefined;
  const badLabels = meta.labels !== undefined && !isStringMap(meta.labels);
  const badAnnotations = meta.annotations !== undefined && !isStringMap(meta.annotations);
  const badOwners = meta.ownerReferences !== undefined && !isRecordList(meta.ownerReferences);
  const status = obj.status;
  const badStatus = status !== undefined && (!isRecord(status) || (status.conditions !== undefined && !isRecordList(status.conditions)));
  if (!badLabels && !badAnnotations && !badOwners && !badStatus && typeof obj.apiVersion === 'string' && typeof obj.kind === 'string') return obj;
  const metadata: Record<string, unknown> = { ...meta };
  if (badLabels) metadata.labels = stringsOf(meta.labels);
  if (badAnnotations) metadata.annotations = stringsOf(meta.annotations);
  if (badOwners) metadata.ownerReferences = Array.isArray(meta.ownerReferences) ? meta.ownerReferences.filter(isRecord) : [];
  const out: Record<string, unknown> = { ...obj, apiVersion: String(obj.apiVersion), kind: String(obj.kind), metadata };
  if (badStatus) {
    if (!isRecord(status)) delete out.status;
    else out.status = { ...status, conditions: Array.isArray(status.conditions) ? status.conditions.filter(isRecord) : [] };
  }
  return out as KubeObject;
}

function stringsOf(v: unknown): Record<string, string> {
  if (!isRecord(v)) return {};
  const out: Record<string, string> = {};
  for (const k in v) if (typeof v[k] === 'string') out[k] = v[k] as string;
  return out;
}
