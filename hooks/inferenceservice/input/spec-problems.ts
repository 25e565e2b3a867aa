import { memoOnSpec, type SpecProblem } from '../../kit/index.js';
import type { PodSecurityLevel } from './pod-security-standards.js';
import { podSecurityProblems } from './pod-security.js';
import { servicePortProblems } from '../children/service-ports.js';
import type { InferenceServiceSpec } from '../spec.js';

/**
 * What `validate` finds wrong with a spec: fields the pod security level forbids, and ports
 * the Services could not carry. Worked out once per spec, level and parent annotations (kit
 * memoOnSpec): every sync of an unchanged InferenceService asks the same question.
 */
export const specProblems: (spec: InferenceServiceSpec, o: { level: PodSecurityLevel; annotations: Record<string, string> }) => SpecProblem[] = memoOnSpec(
  (spec: InferenceServiceSpec, o: { level: PodSecurityLevel; annotations: Record<string, string> }) => [...podSecurityProblems(spec, o.level, o.annotations), ...servicePortProblems(spec)],
  (o) => JSON.stringify([o.level, o.annotations]),
);
