/**
 * `modelhooks/kit`: what a composition imports to describe its parent, children and status.
 * Each name here is used by a built-in composition (hooks/<name>/) or by examples/, and is
 * documented on its declaration (test/architecture.test.ts holds both). The request/answer
 * machinery (hooks/engine/), the server and the test helpers import the files they need
 * directly, never through this file.
 */

// The composition: its definition, and the shapes a sync reads and answers.
export { defineComposition } from './composition.js';
export type {
  AnyComposition,
  ChildNames,
  ChildType,
  Composition,
  Decorator,
  LabelSelector,
  LabelSelectorRequirement,
  ParentType,
  PrinterColumn,
  RelatedRule,
  SpecProblem,
  SyncInput,
  SyncOutput,
  SystemObject,
  UpdateMethod,
  Variant,
} from './composition.js';
export { isRecord } from './types.js';
export type { Composed, KubeObject, ObjectMeta, Parent } from './types.js';
export { HookContractError } from './errors.js';
export { ObjectIndex } from './observed.js';
export { isConverged, podsRuleFor } from './related.js';

// Settings from the environment.
export { imagesFrom, imageVariables, imagesOnlyConfig } from './config.js';
export type { CompositionConfigs, ConfigSchema, Env } from './config.js';

// Children: names, labels, security contexts, hashes, what was last applied, updates allowed.
export { childName, DNS1035_LABEL, DNS1123_SUBDOMAIN, isDns1123Host, isDns1123Label, isLabelPair } from './children/names.js';
export type { NameOptions } from './children/names.js';
export { childMeta, labelValue, MANAGED_BY, standardLabels } from './children/labels.js';
export { annotationMapSchema, labelMapSchema } from './children/label-schema.js';
export { restrictedContainer, restrictedPod } from './security/restricted.js';
export { contentHash, shortHash } from './children/hash.js';
export { keepAll, keepObserved, lastApplied } from './children/keep.js';
export {
  checkClaimUpdate,
  checkDeploymentUpdate,
  IMMUTABLE_FIELD,
  RESIZE_NOT_SUPPORTED,
  refusedCondition,
  STORAGE_CLASSES_RULE,
} from './children/updates.js';
export type { Checked, ClaimFields, Refusal } from './children/updates.js';
export { QUANTITY_PATTERN, quantity } from './quantity.js';
export { containerProblems, podSpecProblems } from './pod-validation.js';

// Status: conditions, the readiness of observed children, what keeps pods from running.
export { condition, conditionsFor, findCondition, fromReadiness, READY, readyConditions, readyJsonPath } from './status/conditions.js';
export type {
  Cond,
  Condition,
  ConditionStatus,
  Dependency,
  ObservedCondition,
  Readiness,
  ReadyConditions,
  ReadyConditionsOptions,
  ReadySummary,
  StampInput,
} from './status/conditions.js';
export { deploymentReadiness, httpRouteReadiness, jobState, pvcReadiness, routeReadiness } from './status/readiness.js';
export type { JobState } from './status/readiness.js';
export { conditionSchema, conditionsSchema } from './status/schema.js';
export { blockedReadiness, deploymentPods, deploymentWorkloadReadiness, podsOf } from './status/workload-blockers.js';
export type { Blocker } from './status/blocker-reasons.js';
export { firstBlocker } from './status/blockers.js';
export type { Workloads } from './status/blockers.js';

// Texts inside tenants' objects (a ConfigMap's JSON or YAML), parsed within bounds.

// Memos: what a sync derives again and again from the same input, kept once.
export { deepFreeze, keptJson, memoOnSpec } from './spec-memo.js';
export type { SpecParse } from './spec-memo.js';
