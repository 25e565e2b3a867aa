import { containerProblems, isRecord, podSpecProblems, type SpecProblem } from '../../kit/index.js';
import { componentsOf, FRAMEWORK_KEYS, type InferenceServiceSpec } from '../spec.js';

type Obj = Record<string, unknown>;

/**
 * The pod and container fields of every component (and every canary's predictor) as the API
 * server validates them in the Deployment they are copied to (kit/pod-validation.ts cites
 * each check): a component inlines a PodSpec (KServe's predictor.go `PodSpec json:",inline"`),
 * a model key (`sklearn`, `model`, …) and `art` are the first container. Named by their path
 * in the spec, so the InvalidSpec says which field to fix.
 */
export function podFieldProblems(spec: InferenceServiceSpec): SpecProblem[] {
  const components: Array<[Obj, string]> = componentsOf(spec).map((role) => [spec[role] as Obj, `spec.${role}`]);
  const canaries = Array.isArray((spec as Obj).canary) ? ((spec as Obj).canary as unknown[]) : [];
  canaries.forEach((c, i) => {
    if (isRecord(c) && isRecord(c.predictor)) components.push([c.predictor, `spec.canary[${i}].predictor`]);
  });
  return components.flatMap(([component, at]) => [
    ...podSpecProblems(component, at),
    ...['model', 'art', ...FRAMEWORK_KEYS].filter((k) => isRecord(component[k])).flatMap((k) => containerProblems(component[k], `${at}.${k}`)),
  ]);
}
