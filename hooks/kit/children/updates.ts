import type { V1Deployment, V1LabelSelector, V1PersistentVolumeClaim } from '@kubernetes/client-node';
import type { RelatedRule } from '../composition.js';
import { condition, type Cond } from '../status/conditions.js';
import { LAST_APPLIED_ANNOTATION, lastApplied } from './keep.js';
import type { ObjectIndex } from '../observed.js';
import { quantityValue } from '../quantity.js';
import { isRecord, type KubeObject } from '../types.js';

/**
 * Never ask for an update the API server refuses. Metacontroller retries a refused update
 * forever while the parent's status would say Ready, so a desired child is first checked
 * against the observed one: a field that cannot change in place keeps its observed value and
 * the check says which field of the parent's spec could not be applied.
 *
 * The rules, from Kubernetes' own validation:
 * - PersistentVolumeClaim (pkg/apis/core/validation/validation.go,
 *   ValidatePersistentVolumeClaimUpdate): the spec is immutable after creation except
 *   `resources.requests` of a Bound claim; `volumeName` may be set once, while empty; a
 *   request never shrinks ("field can not be less than previous value"; with
 *   RecoverVolumeExpansionFailure, not below status.capacity: we never shrink at all). And the admission
 *   plugin PersistentVolumeClaimResize (plugin/pkg/admission/storage/persistentvolume/resize/
 *   admission.go) lets a request grow only when the claim names a StorageClass whose
 *   `allowVolumeExpansion` is true ("only dynamically provisioned pvc can be resized and the
 *   storageclass that provisions the pvc must support resize").
 * - Deployment (pkg/apis/apps/validation/validation.go, ValidateDeploymentUpdate):
 *   `spec.selector` is immutable in apps/v1.
 */

/** A spec change the API server would refuse: the reason and a message naming the field. */
export interface Refusal {
  reason: typeof RESIZE_NOT_SUPPORTED | typeof IMMUTABLE_FIELD;
  message: string;
}

/** The reason of a claim change the API server would refuse: a size or storage class its volume cannot take. */
export const RESIZE_NOT_SUPPORTED = 'ResizeNotSupported';
/** The reason of a change to a field the API server keeps immutable (a Deployment's selector). */
export const IMMUTABLE_FIELD = 'ImmutableField';

/**
 * The customize rule for StorageClasses, to tell whether a claim may grow. All of them: the
 * class a claim uses is the one the API server filled in when it was created (the default
 * class, when the claim names none), which customize cannot see, as it sees only the parent.
 * StorageClasses are cluster-scoped, few, and hold no tenant data, so asking for every one
 * reads nothing of another namespace.
 */
export const STORAGE_CLASSES_RULE: RelatedRule = { apiVersion: 'storage.k8s.io/v1', resource: 'storageclasses' };

/** The parent's spec fields that set a claim's fields, to name them in a message. */
export interface ClaimFields {
  /** e.g. `spec.storage.size` */
  size: string;
  /** e.g. `spec.storage.pv` */
  volumeName?: string;
}

/** A child checked against its observed self: what to answer, and what the spec asked that cannot change. */
export interface Checked<T> {
  /** The child to answer: the desired one, with what cannot change kept as observed. */
  child: T;
  refusals: Refusal[];
}

/**
 * A desired claim checked against the observed one and the StorageClasses (related objects of
 * `STORAGE_CLASSES_RULE`). A size that cannot be applied keeps the observed size.
 */
export function checkClaimUpdate(
  desired: V1PersistentVolumeClaim,
  observed: KubeObject | undefined,
  related: ObjectIndex,
  fields: ClaimFields,
): Checked<V1PersistentVolumeClaim> {
  if (!observed) return { child: desired, refusals: [] };
  const name = observed.metadata.name;
  const have = specOf(observed);
  const spec = { ...desired.spec };
  const refusals: Refusal[] = [];
  const immutable = (field: string, spelled: string, kept: unknown) =>
    refusals.push({
      reason: IMMUTABLE_FIELD,
      message: `${field}: cannot change PersistentVolumeClaim ${name} after creation; it keeps ${spelled} ${JSON.stringify(kept)}`,
    });

  const modes = have.accessModes;
  if (Array.isArray(modes) && spec.accessModes && JSON.stringify(modes) !== JSON.stringify(spec.accessModes)) {
    immutable('accessModes', 'accessModes', modes);
    spec.accessModes = modes as string[];
  }
  const haveClass = typeof have.storageClassName === 'string' ? have.storageClassName : undefined;
  if (spec.storageClassName !== undefined && haveClass !== undefined && spec.storageClassName !== haveClass) {
    immutable('storageClassName', 'storageClassName', haveClass);
    spec.storageClassName = haveClass;
  }
  const haveVolume = typeof have.volumeName === 'string' && have.volumeName !== '' ? have.volumeName : undefined;
  if (haveVolume !== undefined && spec.volumeName !== undefined && spec.volumeName !== haveVolume) {
    immutable(fields.volumeName ?? 'volumeName', 'volumeName', haveVolume);
    spec.volumeName = haveVolume;
  } else if (haveVolume !== undefined && spec.volumeName === undefined && askedSpec(observed).volumeName === haveVolume) {
    // (The annotation is parsed only here, when the answer depends on it.)
    // Leaving out a volumeName we asked for would make Metacontroller remove it: refused too.
    immutable(fields.volumeName ?? 'volumeName', 'volumeName', haveVolume);
    spec.volumeName = haveVolume;
  }

  const wanted = spec.resources?.requests?.storage;
  const kept = requestedStorage(have);
  if (wanted !== undefined && kept !== undefined) {
    const refusal = sizeRefusal(observed, haveClass, related, String(wanted), kept);
    const same = quantityValue(String(wanted)) === quantityValue(kept);
    if (refusal || same) spec.resources = { ...spec.resources, requests: { ...spec.resources?.requests, storage: kept } };
    if (refusal) refusals.push({ reason: RESIZE_NOT_SUPPORTED, message: `${fields.size}: ${wanted} cannot be applied: ${refusal}; the claim keeps ${kept}` });
  }
  return { child: { ...desired, spec }, refusals };
}

/** Why a claim cannot go from `kept` to `wanted`, or undefined when it can (or nothing changes). */
function sizeRefusal(observed: KubeObject, className: string | undefined, related: ObjectIndex, wanted: string, kept: string): string | undefined {
  const to = quantityValue(wanted);
  const from = quantityValue(kept);
  if (to === undefined || from === undefined || to === from) return undefined;
  const name = observed.metadata.name;
  if (to < from) return `PersistentVolumeClaim ${name} cannot shrink`;
  const phase = isRecord(observed.status) ? observed.status.phase : undefined;
  if (phase !== 'Bound') return `PersistentVolumeClaim ${name} is not Bound yet (only a bound claim can grow)`;
  if (!className) return `PersistentVolumeClaim ${name} has no StorageClass (only a dynamically provisioned claim can grow)`;
  // Cluster-scoped: found by name whatever namespace the index filed it under.
  const storageClass = related.list('storage.k8s.io/v1', 'StorageClass').find((c) => c.metadata.name === className);
  if (!storageClass) return `StorageClass ${className} was not found`;
  if (storageClass.allowVolumeExpansion !== true) return `StorageClass ${className} does not allow volume expansion`;
  return undefined;
}

/**
 * A desired Deployment checked against the observed one: `spec.selector` is immutable, so a
 * changed selector (a new version of the hooks labelling differently) keeps the observed one,
 * and the pod template keeps its labels too, which the selector must match.
 */
export function checkDeploymentUpdate(desired: V1Deployment, observed: KubeObject | undefined): Checked<V1Deployment> {
  const have = observed ? specOf(observed).selector : undefined;
  const want = desired.spec?.selector;
  if (!observed || !isRecord(have) || !desired.spec || sameSelector(have, want)) {
    return { child: desired, refusals: [] };
  }
  const matchLabels = isRecord(have.matchLabels) ? (have.matchLabels as Record<string, string>) : {};
  const template = desired.spec.template;
  const spec = {
    ...desired.spec,
    selector: have as V1LabelSelector,
    template: { ...template, metadata: { ...template.metadata, labels: { ...template.metadata?.labels, ...matchLabels } } },
  };
  const message = `spec.selector: cannot change Deployment ${observed.metadata.name} after creation; it keeps ${JSON.stringify(have)} (delete the Deployment to apply the new one)`;
  return { child: { ...desired, spec }, refusals: [{ reason: IMMUTABLE_FIELD, message }] };
}

/** A False condition of `type` naming every refused field, or undefined when nothing was refused. */
export function refusedCondition(type: string, refusals: Refusal[]): Cond | undefined {
  const first = refusals[0];
  if (!first) return undefined;
  return condition.false(type, first.reason, refusals.map((r) => r.message).join('; '));
}

/** The spec we last asked for (Metacontroller's annotation); empty for an object it did not create. */
function askedSpec(observed: KubeObject): Record<string, unknown> {
  if (!observed.metadata.annotations?.[LAST_APPLIED_ANNOTATION]) return {};
  return specOf(lastApplied(observed));
}

function specOf(obj: KubeObject): Record<string, unknown> {
  return isRecord(obj.spec) ? obj.spec : {};
}

function requestedStorage(spec: Record<string, unknown>): string | undefined {
  const resources = isRecord(spec.resources) ? spec.resources : {};
  const requests = isRecord(resources.requests) ? resources.requests : {};
  const storage = requests.storage;
  return typeof storage === 'string' ? storage : typeof storage === 'number' ? String(storage) : undefined;
}

/**
 * Whether two selectors are the same whatever their key order. Equal values (the usual case)
 * are told apart by a walk that builds nothing; only a difference pays for the canonical
 * JSON comparison, which decides what "the same" means.
 */
function sameSelector(have: unknown, want: unknown): boolean {
  return deepEqual(have, want) || JSON.stringify(canonical(have)) === JSON.stringify(canonical(want));
}

/** Strict structural equality of JSON-like values: same own keys (any order), same items, `===` leaves. */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k) || !deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** Key order does not make two selectors differ. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, canonical(value[k])]),
  );
}
