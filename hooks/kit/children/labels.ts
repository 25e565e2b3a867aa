import { shortHash } from './hash.js';
import { NAME_HASH_LENGTH } from './names.js';
import type { ObjectMeta } from '../types.js';

/** The `app.kubernetes.io/managed-by` value of every child modelhooks writes. */
export const MANAGED_BY = 'modelhooks';

/** A valid label value (apimachinery's validation.IsValidLabelValue): ≤63, alphanumeric at both ends, `-_.` inside. */
export const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
export const MAX_LABEL_VALUE_LENGTH = 63;

export function isLabelValue(value: string): boolean {
  return value.length <= MAX_LABEL_VALUE_LENGTH && LABEL_VALUE.test(value);
}

/**
 * A label value for `raw`: `raw` itself when it is a valid one; otherwise what is left of it
 * after replacing invalid characters and cutting, followed by a 48-bit hash of `raw`, so two
 * long names that share a prefix never select each other's pods.
 */
export function labelValue(raw: string): string {
  if (isLabelValue(raw)) return raw;
  const suffix = shortHash(raw, NAME_HASH_LENGTH);
  const head = raw
    .replace(/[^-A-Za-z0-9_.]/g, '-')
    .slice(0, MAX_LABEL_VALUE_LENGTH - suffix.length - 1)
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
  return head === '' ? suffix : `${head}-${suffix}`;
}

/**
 * The recommended app.kubernetes.io labels. `name` is the application (e.g. the
 * composition), `instance` the parent's name, `component` the role of the child.
 */
export function standardLabels(opts: { name: string; instance: string; component: string; partOf: string }): Record<string, string> {
  return {
    'app.kubernetes.io/name': labelValue(opts.name),
    'app.kubernetes.io/instance': labelValue(opts.instance),
    'app.kubernetes.io/component': labelValue(opts.component),
    'app.kubernetes.io/part-of': labelValue(opts.partOf),
    'app.kubernetes.io/managed-by': MANAGED_BY,
  };
}

/** Metadata of a child: its name, the parent's namespace, labels and optional annotations. */
export function childMeta(
  parent: { metadata: ObjectMeta & { namespace: string } },
  name: string,
  labels: Record<string, string>,
  annotations?: Record<string, string>,
): { name: string; namespace: string; labels: Record<string, string>; annotations?: Record<string, string> } {
  const namespace = parent.metadata.namespace;
  // Written out (no spread of a first object into a second): one object per child.
  return annotations && hasKeys(annotations) ? { name, namespace, labels, annotations } : { name, namespace, labels };
}

function hasKeys(o: Record<string, string>): boolean {
  for (const k in o) if (Object.hasOwn(o, k)) return true;
  return false;
}
