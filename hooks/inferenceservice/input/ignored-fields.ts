import { condition, type Cond } from '../../kit/index.js';
import { PASSED_POD_FIELDS } from '../pod/passthrough.js';
import { componentsOf, FRAMEWORK_KEYS, type InferenceServiceSpec } from '../spec.js';

/*
 * The CRD keeps unknown fields (x-kubernetes-preserve-unknown-fields), so everything a user
 * writes arrives. What modelhooks acts on is listed here, as data; every other field is
 * named in the IgnoredFields condition, so nothing is dropped without a word.
 */

export const IGNORED_FIELDS = 'IgnoredFields';

/** Top-level spec fields acted on: spec.canary[] runs each entry as its own predictor (canary-variants.ts). */
const SPEC_FIELDS = ['predictor', 'transformer', 'explainer', 'canary'];

/**
 * Component fields acted on, besides the pod fields passed through (pod-passthrough.ts):
 * ComponentExtensionSpec (pkg/apis/serving/v1beta1/component.go@v0.20.0) as far as a raw
 * deployment here uses it, and the pod fields the pod builders merge.
 */
const COMPONENT_FIELDS = [
  // scaling (hpa.ts, spec.ts scalingOf)
  'minReplicas',
  'maxReplicas',
  'scaleTarget',
  'scaleMetric',
  // its Resource metrics (hpa.ts autoScalingMetrics)
  'autoScaling',
  // canary (canary.ts), request timeout (httproute.ts)
  'canaryTrafficPercent',
  'timeout',
  // metadata (metadata.ts), rollout (deployment.ts)
  'labels',
  'annotations',
  'deploymentStrategy',
  // merged with our defaults (pod.ts, components.ts, storage.ts)
  'containers',
  'initContainers',
  'volumes',
  'securityContext',
  'serviceAccountName',
  // KServe's agent sidecar (agent.ts)
  'logger',
  // storage forms (storage-source.ts, storage.ts)
  'storageUris',
];

/** The predictor's model: `model` or one framework key (spec.ts). */
const PREDICTOR_FIELDS = ['model', ...FRAMEWORK_KEYS];

/** The agent batches for the predictor and the transformer (KServe adds no batcher annotation for an explainer). */
const BATCHING = ['predictor', 'transformer'];
/** A transformer's and explainer's --workers (components.ts componentArgs); the ART explainer (explainer-art.ts). */
const ROLE_FIELDS: Record<string, string[]> = {
  predictor: PREDICTOR_FIELDS,
  transformer: ['containerConcurrency'],
  explainer: ['containerConcurrency', 'art'],
};

const actedOn = (role: string) =>
  new Set([...COMPONENT_FIELDS, ...PASSED_POD_FIELDS, ...(ROLE_FIELDS[role] ?? []), ...(BATCHING.includes(role) ? ['batcher'] : [])]);
/** Each component's set, built once at module load. */
const ACTED: Record<string, ReadonlySet<string>> = { predictor: actedOn('predictor'), transformer: actedOn('transformer'), explainer: actedOn('explainer') };
const acted = (role: string): ReadonlySet<string> => ACTED[role] ?? actedOn(role);

/** The JSON paths of the fields written in the spec that nothing here acts on. */
export function ignoredFieldsOf(spec: InferenceServiceSpec, extra: (path: string, value: unknown) => boolean = () => false): string[] {
  const out = Object.keys(spec)
    .filter((k) => !SPEC_FIELDS.includes(k) && (spec as Record<string, unknown>)[k] !== undefined)
    .map((k) => `spec.${k}`);
  for (const role of componentsOf(spec)) {
    const component = spec[role] as Record<string, unknown>;
    const known = acted(role);
    for (const [k, v] of Object.entries(component)) {
      if (v === undefined) continue;
      const path = `spec.${role}.${k}`;
      if (!known.has(k) || extra(path, v)) out.push(path);
    }
  }
  // A canary's predictor is merged over the stable one: its fields are the predictor's, plus its name.
  (spec.canary ?? []).forEach((entry, i) => {
    const known = acted('predictor');
    for (const [k, v] of Object.entries(entry.predictor as Record<string, unknown>)) {
      if (v === undefined || k === 'name') continue;
      const path = `spec.canary[${i}].predictor.${k}`;
      if (!known.has(k) || extra(path, v)) out.push(path);
    }
  });
  return out;
}

/** A pod field passed through only with some values (a Deployment's pods always restart). */
export const notPassed = (path: string, value: unknown): boolean => path.endsWith('.restartPolicy') && value !== 'Always';

/** IgnoredFields=True naming the paths, or nothing when every field is acted on. */
export function ignoredFieldsCondition(spec: InferenceServiceSpec): Cond | undefined {
  const paths = ignoredFieldsOf(spec, notPassed);
  if (paths.length === 0) return undefined;
  return condition.true(IGNORED_FIELDS, 'FieldsIgnored', `not acted on by modelhooks (kept in the resource, no effect): ${paths.join(', ')}`);
}
