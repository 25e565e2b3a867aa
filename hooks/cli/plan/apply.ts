/**
 * What Metacontroller would write for a desired child, offline: a port of its "dynamic apply"
 * (the default apply strategy, which modelhooks' CompositeControllers use):
 * pkg/controller/common/manage_children.go `ApplyUpdate` and `DynamicApply.Apply`, and the
 * 3-way merge of pkg/dynamic/apply/apply.go (`Merge`, `mergeListMap`, `detectListMapKey`).
 * A field the desired object does not set, and did not set last time, is left as the cluster
 * has it; a field it set last time and no longer sets is removed; a list of objects that share
 * a known merge key (`name`, `port`, …) is merged item by item.
 */
import { LAST_APPLIED_ANNOTATION } from '../../kit/children/keep.js';
import { isRecord, type KubeObject } from '../../kit/types.js';

type Json = unknown;
type JsonObject = Record<string, Json>;

export class ApplyError extends Error {
  override name = 'ApplyError';
}

/** Read-only, system-populated ObjectMeta fields Metacontroller reverts to the observed values (objectMetaSystemFields). */
const SYSTEM_FIELDS = [
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'managedFields',
];

/** apply.go knownMergeKeys, in its order of preference. */
const KNOWN_MERGE_KEYS = ['containerPort', 'port', 'mountPath', 'name', 'uid', 'ip', 'path'];

const clone = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

/** The object the last apply wrote (the annotation), or null without one (an adopted object). */
export function lastAppliedOf(observed: KubeObject): JsonObject | null {
  const raw = observed.metadata.annotations?.[LAST_APPLIED_ANNOTATION];
  if (!raw) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ApplyError(`${observed.kind} ${observed.metadata.name}: can't unmarshal the ${LAST_APPLIED_ANNOTATION} annotation`);
  }
  if (!isRecord(parsed)) throw new ApplyError(`${observed.kind} ${observed.metadata.name}: the ${LAST_APPLIED_ANNOTATION} annotation is not an object`);
  return parsed;
}

/** The desired object as Metacontroller sends it to the merge: without a last-applied annotation of its own (nullifyLastAppliedAnnotation). */
export function withoutLastApplied(desired: KubeObject): KubeObject {
  const annotations = desired.metadata.annotations;
  if (!annotations || !Object.hasOwn(annotations, LAST_APPLIED_ANNOTATION)) return desired;
  const { [LAST_APPLIED_ANNOTATION]: _dropped, ...rest } = annotations;
  return { ...desired, metadata: { ...desired.metadata, annotations: rest } };
}

/**
 * ApplyUpdate without its last step: the object Metacontroller would PUT, except for the
 * last-applied annotation, which it then sets to `desired` (SetLastApplied). `observed` is not changed.
 */
export function mergedObject(observed: KubeObject, desired: KubeObject): JsonObject {
  const lastApplied = lastAppliedOf(observed);
  const result = merge('', clone(observed) as Json, lastApplied, desired) as JsonObject;
  const meta = isRecord(result.metadata) ? result.metadata : (result.metadata = {});
  const observedMeta = observed.metadata as JsonObject;
  for (const field of SYSTEM_FIELDS) revert(meta, observedMeta, field);
  revert(result, observed as unknown as JsonObject, 'status');
  return result;
}

function revert(target: JsonObject, orig: JsonObject, field: string): void {
  if (Object.hasOwn(orig, field)) target[field] = clone(orig[field]);
  else delete target[field];
}

/** apply.go `merge`: destination is changed in place where it is an object or a list map. */
function merge(path: string, destination: Json, lastApplied: Json, desired: Json): Json {
  if (isRecord(destination)) {
    if (lastApplied != null && !isRecord(lastApplied)) throw new ApplyError(`lastApplied${path}: expecting an object, got ${typeName(lastApplied)}`);
    if (desired != null && !isRecord(desired)) throw new ApplyError(`desired${path}: expecting an object, got ${typeName(desired)}`);
    return mergeObject(path, destination, (lastApplied ?? {}) as JsonObject, (desired ?? {}) as JsonObject);
  }
  if (Array.isArray(destination)) {
    if (lastApplied != null && !Array.isArray(lastApplied)) throw new ApplyError(`lastApplied${path}: expecting a list, got ${typeName(lastApplied)}`);
    if (desired != null && !Array.isArray(desired)) throw new ApplyError(`desired${path}: expecting a list, got ${typeName(desired)}`);
    return mergeArray(path, destination, (lastApplied ?? []) as Json[], (desired ?? []) as Json[], desired === null || desired === undefined);
  }
  return desired === undefined ? null : desired;
}

function typeName(v: Json): string {
  return Array.isArray(v) ? 'a list' : typeof v;
}

function mergeObject(path: string, destination: JsonObject, lastApplied: JsonObject, desired: JsonObject): JsonObject {
  for (const key of Object.keys(lastApplied)) if (!Object.hasOwn(desired, key)) delete destination[key];
  for (const key of Object.keys(desired)) {
    destination[key] = merge(`${path}[${key}]`, Object.hasOwn(destination, key) ? destination[key] : undefined, lastApplied[key], desired[key]);
  }
  return destination;
}

function mergeArray(path: string, destination: Json[], lastApplied: Json[], desired: Json[], desiredNil: boolean): Json {
  const key = detectListMapKey([destination, lastApplied, desired]);
  if (key !== '') return mergeListMap(path, key, destination, lastApplied, desired);
  // Go returns the desired list itself: nil when desired was nil.
  return desiredNil ? null : desired;
}

function mergeListMap(path: string, key: string, destination: Json[], lastApplied: Json[], desired: Json[]): Json[] {
  const destMap = listMap(key, destination);
  mergeObject(path, destMap, listMap(key, lastApplied), listMap(key, desired));
  const out: Json[] = [];
  const added = new Set<string>();
  // As Go: every destination item whose key is still there, in destination's order (duplicates too), then desired's new ones.
  for (const item of destination) {
    const k = mergeKey((item as JsonObject)[key]);
    if (Object.hasOwn(destMap, k)) {
      out.push(destMap[k]);
      added.add(k);
    }
  }
  for (const item of desired) {
    const k = mergeKey((item as JsonObject)[key]);
    if (!added.has(k)) {
      out.push(destMap[k] ?? null);
      added.add(k);
    }
  }
  return out;
}

function listMap(key: string, list: Json[]): JsonObject {
  const map: JsonObject = Object.create(null) as JsonObject;
  for (const item of list) map[mergeKey((item as JsonObject)[key])] = item;
  return map;
}

function mergeKey(v: Json): string {
  return typeof v === 'string' ? v : String(v);
}

function detectListMapKey(lists: Json[][]): string {
  let common: Set<string> | undefined;
  for (const list of lists) {
    for (const item of list) {
      if (!isRecord(item)) return '';
      if (common === undefined) {
        common = new Set(Object.keys(item));
        continue;
      }
      for (const k of common) if (!Object.hasOwn(item, k)) common.delete(k);
    }
  }
  if (!common) return '';
  for (const k of KNOWN_MERGE_KEYS) if (common.has(k)) return k;
  return '';
}

/** reflect.DeepEqual over JSON values (a missing field and a null one differ, as in Go's maps). */
export function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (isRecord(a)) {
    if (!isRecord(b) || Array.isArray(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const k of keys) if (!Object.hasOwn(b, k) || !deepEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

/** What DynamicApply.Apply would do with an observed child and its desired state. */
export interface ApplyOutcome {
  /** Whether Metacontroller would write the object (its 3-way merge differs from what is there). */
  writes: boolean;
  /** The object after the merge, without the last-applied annotation (compare with observed's). */
  merged: JsonObject;
  /** Whether the last-applied annotation would change (the desired object differs from the last one applied). */
  lastAppliedChanges: boolean;
}

export function applyOutcome(observed: KubeObject, desired: KubeObject): ApplyOutcome {
  const update = withoutLastApplied(desired);
  const merged = mergedObject(observed, update);
  const before = stripLastApplied(observed as unknown as JsonObject);
  const after = stripLastApplied(merged);
  // SetLastApplied marshals `update` (Go sorts the keys): equal annotations are equal objects.
  const last = lastAppliedOf(observed);
  const lastAppliedChanges = last === null || !deepEqual(last, JSON.parse(JSON.stringify(update)));
  return { writes: lastAppliedChanges || !deepEqual(before, after), merged: after, lastAppliedChanges };
}

/** A copy of the object's top level and metadata without the last-applied annotation (no annotations left: none). */
export function stripLastApplied(obj: JsonObject): JsonObject {
  const meta = isRecord(obj.metadata) ? obj.metadata : undefined;
  const annotations = meta && isRecord(meta.annotations) ? meta.annotations : undefined;
  if (!annotations || !Object.hasOwn(annotations, LAST_APPLIED_ANNOTATION)) return obj;
  const { [LAST_APPLIED_ANNOTATION]: _dropped, ...rest } = annotations;
  const newMeta: JsonObject = { ...meta };
  if (Object.keys(rest).length > 0) newMeta.annotations = rest;
  else delete newMeta.annotations;
  return { ...obj, metadata: newMeta };
}
