import type { Parent } from '../kit/index.js';
import { ANNOTATION_DISALLOWED_LIST } from '../inferenceservice/children/metadata.js';

/**
 * The graph's annotations on its children: KServe copies all of them (raw_ig.go
 * constructForRawDeployment); here, as for InferenceServices, less KServe's
 * ServiceAnnotationDisallowedList (kubectl's last-applied-configuration among them).
 */
export function annotationsFor(p: Parent<unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(p.metadata.annotations ?? {}).filter(([k]) => !ANNOTATION_DISALLOWED_LIST.includes(k)));
}
