import { z } from 'zod';
import { isLabelValue } from './labels.js';

/** A label key (apimachinery validation.IsQualifiedName): `[prefix/]name`, prefix a DNS subdomain ≤253, name ≤63. */
const KEY_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const KEY_PREFIX = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function isLabelKey(key: string): boolean {
  const slash = key.lastIndexOf('/');
  const name = key.slice(slash + 1);
  if (slash >= 0 && (slash > 253 || !KEY_PREFIX.test(key.slice(0, slash)))) return false;
  return name.length <= 63 && KEY_NAME.test(name);
}

/**
 * Labels a parent's spec asks to put on children (an InferenceService's `predictor.labels`).
 * Nothing in the parent's CRD checks them, and the API server would refuse every child that
 * carried a bad one, so a bad key or value is an InvalidSpec naming it. A refinement, not a
 * pattern: the CRD stays as open as upstream's.
 */
export const labelMapSchema = z.record(z.string(), z.string()).superRefine((labels, ctx) => {
  for (const [key, value] of Object.entries(labels)) {
    if (!isLabelKey(key))
      ctx.addIssue({ code: 'custom', path: [key], message: 'not a label key ([prefix/]name, the name ≤63 alphanumeric characters, `-`, `_` or `.` inside)' });
    else if (!isLabelValue(value))
      ctx.addIssue({ code: 'custom', path: [key], message: 'not a label value (≤63 alphanumeric characters, `-`, `_` or `.` inside)' });
  }
});

/**
 * Annotations a parent's spec asks to put on children: keys are checked as label keys are
 * (values are free text), for the same reason.
 */
export const annotationMapSchema = z.record(z.string(), z.string()).superRefine((annotations, ctx) => {
  for (const key of Object.keys(annotations)) {
    if (!isLabelKey(key))
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: 'not an annotation key ([prefix/]name, the name ≤63 alphanumeric characters, `-`, `_` or `.` inside)',
      });
  }
});
