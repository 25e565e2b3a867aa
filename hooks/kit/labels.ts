import type { ObjectMeta } from './types.js';

export const MANAGED_BY = 'modelhooks';

/** A label value: ≤63 characters, alphanumeric at both ends. */
export function labelValue(raw: string): string {
  return raw.slice(0, 63).replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
}

/**
 * The recommended app.kubernetes.io labels. `name` is the application (e.g. the
 * composition), `instance` the parent's name, `component` the role of the child.
 */
export function standardLabels(opts: {
  name: string;
  instance: string;
  component: string;
  partOf: string;
}): Record<string, string> {
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
  const meta = { name, namespace: parent.metadata.namespace, labels };
  return annotations && Object.keys(annotations).length > 0 ? { ...meta, annotations } : meta;
}
