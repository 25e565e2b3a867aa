import { isLabelKey } from '../kit/children/label-schema.js';
import { isLabelValue } from '../kit/children/labels.js';
import { isRecord } from '../kit/types.js';

/**
 * The parent's labels and annotations, checked as the API server checks every object it
 * stores (k8s.io/apimachinery pkg/apis/meta/v1/validation/validation.go ValidateLabels,
 * pkg/api/validation/objectmeta.go ValidateAnnotations, pkg/api/validate/content/kube.go
 * IsLabelKey and IsLabelValue). A parent the API server holds always passes; one that fails
 * was not sent by it, and copying its metadata into children would only make the API server
 * refuse every child on every sync. So the request is refused (400, naming the field) and
 * Metacontroller keeps the children as they are.
 */

/** objectmeta.go TotalAnnotationSizeLimitB: keys and values together, in bytes. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

export interface MetadataProblem {
  field: string;
  message: string;
}

/** The first thing wrong with `metadata.labels` / `metadata.annotations`, or undefined. */
export function metadataProblem(metadata: Record<string, unknown>, prefix: string): MetadataProblem | undefined {
  return labelsProblem(metadata.labels, `${prefix}.labels`) ?? annotationsProblem(metadata.annotations, `${prefix}.annotations`);
}

function labelsProblem(labels: unknown, field: string): MetadataProblem | undefined {
  // Go's nil map is sent as null or left out.
  if (labels === undefined || labels === null) return undefined;
  if (!isRecord(labels)) return { field, message: 'must be an object of strings' };
  for (const key of Object.keys(labels)) {
    const at = `${field}[${JSON.stringify(key)}]`;
    const value = labels[key];
    if (!isLabelKey(key))
      return {
        field: at,
        message: 'not a label key ([prefix/]name: the prefix a DNS subdomain, the name ≤63 alphanumeric characters, `-`, `_` or `.` inside)',
      };
    if (typeof value !== 'string') return { field: at, message: 'must be a string' };
    if (!isLabelValue(value)) return { field: at, message: 'not a label value (≤63 alphanumeric characters, `-`, `_` or `.` inside)' };
  }
  return undefined;
}

function annotationsProblem(annotations: unknown, field: string): MetadataProblem | undefined {
  if (annotations === undefined || annotations === null) return undefined;
  if (!isRecord(annotations)) return { field, message: 'must be an object of strings' };
  let size = 0;
  for (const key of Object.keys(annotations)) {
    const at = `${field}[${JSON.stringify(key)}]`;
    const value = annotations[key];
    // The rule is a qualified name, case aside (ValidateAnnotations lower-cases the key first).
    if (!isLabelKey(key.toLowerCase()))
      return {
        field: at,
        message: 'not an annotation key ([prefix/]name: the prefix a DNS subdomain, the name ≤63 alphanumeric characters, `-`, `_` or `.` inside)',
      };
    if (typeof value !== 'string') return { field: at, message: 'must be a string' };
    // Go's len: bytes of UTF-8.
    size += Buffer.byteLength(key) + Buffer.byteLength(value);
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT)
    return { field, message: `${size} bytes of keys and values, over the API server's limit of ${TOTAL_ANNOTATION_SIZE_LIMIT}` };
  return undefined;
}
