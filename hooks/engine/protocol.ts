import type { AnyComposition, ChildType, RelatedRule, SpecProblem, SyncInput, SyncOutput, SystemObject } from '../kit/composition.js';
import { configFor, type CompositionConfigs } from '../kit/config.js';
import { condition, previousConditions, READY, stampConditions, withReady, type Cond } from '../kit/status/conditions.js';
import { describeUnknown, FIELDS_UNKNOWN, UNKNOWN_FIELDS, type UnknownField, unknownFields } from './fields/unknown-fields.js';
import { childConflicts, childNameRules, withConflicts, type ChildConflict } from './conflicts.js';
import { keepObserved } from '../kit/children/keep.js';
import { childProblems } from '../kit/children/child-problems.js';
import { HookContractError } from '../kit/errors.js';
import type { NamespaceSelector } from './namespace-selector.js';
import { namespaceRule } from './namespace-settings.js';
import { imageRefusalAnswer, tenancyOf } from './tenancy.js';
import { ObjectIndex } from '../kit/observed.js';
import { isConverged, scopeRules } from '../kit/related.js';
import { specParser, type SpecParse } from '../kit/spec-memo.js';
import { cutTooDeep, MAX_DEPTH, tooDeepPath } from '../kit/bounded.js';
import type { HookName, HookRequest } from './request.js';
import { composedFrom, isRecord, type Composed, type KubeObject, type Parent } from '../kit/types.js';

export interface HookContext {
  /** RFC 3339 time of the call. */
  now: string;
  /** Every composition's configuration by name; a composition missing from it gets its defaults. */
  config?: CompositionConfigs;
  /** `MODELHOOKS_NAMESPACE_SELECTOR`, parsed: the namespaces served (absent or empty: every one). */
  namespaceSelector?: NamespaceSelector;
}

export const INVALID_SPEC = 'InvalidSpec';
/** Where a parent without a namespace (a file given to `render`) is placed, as kubectl does. */
export const DEFAULT_NAMESPACE = 'default';

export function runHook<Config>(composition: AnyComposition<Config>, hook: HookName, request: HookRequest, ctx: HookContext): Record<string, unknown> {
  // Nothing below recurses deeper than MAX_DEPTH (engine/depth.ts); a spec deeper than that is an InvalidSpec (specOf).
  cutRequestDepth(request);
  if (hook === 'decorator-sync' || hook === 'decorator-customize') throw new HookContractError(`${hook} is a DecoratorController's hook (engine/decorator.ts)`);
  if (hook === 'customize') return { relatedResources: runCustomize(composition, request, ctx) };
  const serverInput = syncInput(composition, request, ctx);
  // No composition declares a finalize hook: children are owned and garbage-collected. An
  // unexpected call keeps them until then and lets the parent go.
  if (hook === 'finalize') {
    return { ...answer(composition, serverInput, { status: serverInput.parent.status, children: keepObserved(serverInput) }), finalized: true };
  }
  // The cluster's settings (composition.configured), then the namespace's: whether it is
  // served, and the settings its annotations give.
  const clusterInput = composition.configured ? { ...serverInput, config: composition.configured(serverInput.config, serverInput.related) } : serverInput;
  const tenancy = tenancyOf(clusterInput, ctx.namespaceSelector);
  if (tenancy.refused) return keepAnswer(composition, serverInput, tenancy.refused);
  const input = { ...serverInput, config: tenancy.config };
  const spec = specOf(composition, request, input.config);
  if (!spec.valid) return invalidSpecAnswer(composition, input, hook, spec.problem);
  const typed = { ...input, parent: { ...input.parent, spec: spec.value } };
  const response = answer(composition, typed, withUnknownFields(composition.sync(typed), spec.unknown, input));
  // A child the API server would refuse (a field no check of the composition saw): InvalidSpec naming it.
  const unacceptable = (response.children as KubeObject[]).flatMap(childProblems);
  if (unacceptable.length > 0) return invalidSpecAnswer(composition, input, hook, unacceptable.slice(0, 5).join('; '));
  const refused = imageRefusalAnswer(response, tenancy.allowedImages);
  return refused ? keepAnswer(composition, input, refused, response.status as Record<string, unknown>) : response;
}

/**
 * Every observed child kept as last applied (nothing new, nothing deleted) and Ready=False
 * saying why; the other conditions as `status` (by default the previous status) has them.
 */
function keepAnswer<Config>(
  composition: AnyComposition<Config>,
  input: SyncInput<unknown, Config>,
  ready: Cond,
  status = input.parent.status,
): Record<string, unknown> {
  const { observedGeneration: _stale, ...base } = composition.invalidStatus ? composition.invalidStatus(status) : status;
  return answer(composition, input, { status: withReady(base, ready, input), children: keepObserved(input) });
}

/** The parent's spec parsed by the composition's schema and checked by its `validate`, or what is wrong with it. */
function specOf<Config>(
  composition: AnyComposition<Config>,
  request: HookRequest,
  config: Config,
): { valid: true; value: unknown; unknown: UnknownField[] } | { valid: false; problem: string } {
  const deep = tooDeepPath(request.parent.spec);
  if (deep !== undefined) return { valid: false, problem: `spec${deep}: nests deeper than ${MAX_DEPTH} levels, more than any field modelhooks reads` };
  const raw = request.parent.spec ?? {};
  const parsed = parserOf(composition)(raw);
  const unknown = unknownOf(composition, parsed, raw);
  // A misspelt field is the likely cause of a missing one (predictr for predictor): said first.
  const said = unknown.filter((u) => u.suggestion).map(describeUnknown);
  if (!parsed.success) return { valid: false, problem: [...said, formatIssues(parsed.error.issues)].join('; ') };
  const problems = composition.validate?.(parsed.data, config, request.parent.metadata) ?? [];
  if (problems.length > 0) return { valid: false, problem: [...said, formatProblems(problems)].join('; ') };
  return { valid: true, value: parsed.data, unknown };
}

/**
 * The spec's fields its schema does not name (unknown-fields.ts), found once per parse: the
 * parser hands the same frozen result to every request with the same spec text.
 */
const unknownByParse = new WeakMap<object, UnknownField[]>();
function unknownOf<Config>(composition: AnyComposition<Config>, parsed: SpecParse<unknown>, raw: unknown): UnknownField[] {
  let found = unknownByParse.get(parsed);
  if (found === undefined) {
    found = unknownFields(composition.spec, raw);
    if (Object.isFrozen(parsed)) unknownByParse.set(parsed, found);
  }
  return found;
}

/**
 * The sync's status with `UnknownFields=True` naming each field of the spec that its schema does
 * not know (with the nearest it does), or without that condition when there is none. It never
 * touches Ready: the spec is served as the schema reads it, and the condition says what was
 * not read. Only present when true, as KServe-like informational conditions and Kubernetes'
 * own `ReplicaFailure` of a Deployment are: absent means none (docs/guarantees.md).
 */
function withUnknownFields<Config>(out: SyncOutput, unknown: UnknownField[], input: SyncInput<unknown, Config>): SyncOutput {
  const others = previousConditions(out.status).filter((c) => c.type !== UNKNOWN_FIELDS);
  if (unknown.length === 0) return others.length === previousConditions(out.status).length ? out : { ...out, status: { ...out.status, conditions: others } };
  const said = condition.true(UNKNOWN_FIELDS, FIELDS_UNKNOWN, `not in the schema, so nothing reads them: ${unknown.map(describeUnknown).join('; ')}`);
  const [stamped] = stampConditions([said], previousConditions(input.parent.status), input.now, input.parent.metadata.generation);
  return { ...out, status: { ...out.status, conditions: [...others, stamped] } };
}

/** Each composition's memoised spec parser (spec-memo.ts), made on its first request. */
const parsers = new WeakMap<object, (spec: unknown) => SpecParse<unknown>>();
function parserOf<Config>(composition: AnyComposition<Config>): (spec: unknown) => SpecParse<unknown> {
  let parser = parsers.get(composition.spec);
  if (parser === undefined) {
    parser = specParser(composition.spec);
    parsers.set(composition.spec, parser);
  }
  return parser;
}

/** Every child type a composition may emit, required and optional. */
function childTypesOf<Config>(composition: AnyComposition<Config>): ChildType[] {
  return [...composition.children, ...(composition.optionalChildren ?? [])];
}

function runCustomize<Config>(composition: AnyComposition<Config>, request: HookRequest, ctx: HookContext) {
  // The parent's Namespace: whether it is served and its settings (tenancy.ts). Customize
  // itself sees only the server's configuration: the Namespace is not in its request.
  const own = namespaceRule(parentOf(request).metadata.namespace);
  const config = configFor(composition, ctx.config);
  // Objects of a fixed system namespace, by name (SystemObject): asked for whatever the spec.
  const system = systemRules(composition.systemObjects?.(config) ?? []);
  if (!composition.customize && !composition.childNames) return [own, ...system];
  const spec = specOf(composition, request, config);
  // An invalid spec asks for nothing more: the sync hook reports the problem and keeps children.
  if (!spec.valid) return [own];
  const parent = { ...parentOf(request), spec: spec.value };
  const declared = declaredTypes(composition, request.controller);
  const declares = (apiVersion: string, kind: string) => declared.some((t) => t.apiVersion === apiVersion && t.kind === kind);
  const rules = composition.customize ? composition.customize(parent, config, declares) : [];
  // Objects that share a child's name, so sync can tell a name held by another owner — asked
  // while a child may not exist yet: once the parent is Ready on this generation every child
  // does, and these rules would only make Metacontroller run each event of those kinds through
  // them and send the parent's own children again under `related` (docs/development.md,
  // "What Metacontroller is asked for").
  const named =
    composition.childNames && !isConverged(parent)
      ? childNameRules(declaredTypes(composition, request.controller), composition.childNames(parent, config), parent.metadata.namespace)
      : [];
  return [...scopeRules([own, ...rules, ...named], parent.metadata.namespace, composition.name), ...system];
}

/** One rule per system object, by namespace and name only (never a selector, which could list more). */
function systemRules(objects: SystemObject[]): RelatedRule[] {
  return objects.map((o) => {
    if (!o.namespace || !o.name)
      throw new HookContractError(`system object ${o.resource} needs a namespace and a name: a rule without them would list every one`);
    return { apiVersion: o.apiVersion, resource: o.resource, namespace: o.namespace, names: [o.name] };
  });
}

/** The child types the calling CompositeController declares (without one: the required ones). */
function declaredTypes<Config>(composition: AnyComposition<Config>, controller: Record<string, unknown> | undefined): ChildType[] {
  const declared = declaredResources(controller);
  if (!declared) return composition.children;
  return childTypesOf(composition).filter((t) => isDeclared(declared, t.apiVersion, t.resource));
}

export function syncInput<Config>(composition: AnyComposition<Config>, request: HookRequest, ctx: HookContext): SyncInput<unknown, Config> {
  const parent = parentOf(request);
  const namespace = parent.metadata.namespace;
  const declared = declaredResources(request.controller);
  const types = childTypesOf(composition);
  const config = configFor(composition, ctx.config);
  return {
    parent,
    observed: ObjectIndex.fromWire(request.children, namespace),
    related: ObjectIndex.fromWire(request.related, namespace, composition.systemObjects?.(config) ?? []),
    declares: (apiVersion, kind) => {
      const type = typeOf(types, apiVersion, kind);
      if (!type) return false;
      if (!declared) return composition.children.includes(type);
      return isDeclared(declared, apiVersion, type.resource);
    },
    now: ctx.now,
    config,
    finalizing: request.finalizing,
  };
}

/** The parent with its namespace filled in (render may read a file without one). */
function parentOf(request: HookRequest): Parent<unknown> {
  const p = request.parent;
  return {
    apiVersion: p.apiVersion,
    kind: p.kind,
    metadata: { ...p.metadata, namespace: p.metadata.namespace ?? DEFAULT_NAMESPACE },
    spec: p.spec,
    status: isRecord(p.status) ? p.status : {},
  };
}

/**
 * The calling CompositeController's `spec.childResources` as sent (entries that are not
 * objects never match): read in place on every question, a handful of entries, rather than
 * copied into a set of `apiVersion/resource` strings on every request.
 */
function declaredResources(controller: Record<string, unknown> | undefined): readonly unknown[] | undefined {
  const spec = controller && isRecord(controller.spec) ? controller.spec : undefined;
  if (!spec || !Array.isArray(spec.childResources)) return undefined;
  return spec.childResources;
}

/** Whether the CompositeController declares `resource` of `apiVersion` among its children. */
function isDeclared(declared: readonly unknown[], apiVersion: string, resource: string): boolean {
  for (const r of declared) {
    if (isRecord(r) && String(r.apiVersion) === apiVersion && String(r.resource) === resource) return true;
  }
  return false;
}

/** The composition's child type of `apiVersion` and `kind`, if it has one. */
function typeOf(types: readonly ChildType[], apiVersion: string, kind: string): ChildType | undefined {
  for (const t of types) if (t.apiVersion === apiVersion && t.kind === kind) return t;
  return undefined;
}

/**
 * Cuts, at MAX_DEPTH (kit/bounded.ts), what nests deeper in the objects a request carries
 * besides its parent's spec: the parent's status and every observed and related object, where
 * no hook reads that far down. A request whose objects nest less (every one Metacontroller
 * sends for modelhooks' own children) is only walked.
 */
function cutRequestDepth(request: HookRequest): void {
  cutTooDeep(request.parent.status);
  for (const map of [request.children, request.related]) {
    for (const type of Object.keys(map)) cutTooDeep(map[type], MAX_DEPTH + 1);
  }
}

/** Checks the hook's answer against the rules every composition must keep, then orders it. */
function answer<Config>(composition: AnyComposition<Config>, input: SyncInput<unknown, Config>, out: SyncOutput) {
  const namespace = input.parent.metadata.namespace;
  const types = childTypesOf(composition);
  const wanted = out.children.map(wireChild(composition.name));
  // A child whose name another owner holds is left out (Metacontroller would fail to create
  // it and say nothing); the parent says so and its other children still converge.
  const conflicts = childConflicts(input.parent, wanted, input.observed, input.related);
  const children = conflicts.length > 0 ? withoutConflicts(wanted, conflicts) : wanted;
  const status = conflicts.length > 0 ? withConflicts(out.status, conflicts, input) : out.status;
  for (const child of children) {
    if (!typeOf(types, child.apiVersion, child.kind)) {
      throw new HookContractError(`${composition.name} emitted ${child.kind}/${child.metadata.name} (${child.apiVersion}), a type it does not declare`);
    }
    if (!input.declares(child.apiVersion, child.kind)) {
      throw new HookContractError(`${composition.name} emitted ${child.kind}/${child.metadata.name}, which the CompositeController does not declare`);
    }
    if (child.metadata.namespace !== namespace) {
      throw new HookContractError(`${composition.name} emitted ${child.kind}/${child.metadata.name} outside the parent's namespace ${namespace}`);
    }
  }
  const response: Record<string, unknown> = { status, children: sortChildren(children) };
  if (out.resyncAfterSeconds !== undefined) response.resyncAfterSeconds = out.resyncAfterSeconds;
  return response;
}

/** The wanted children but those whose name another owner holds. */
function withoutConflicts(wanted: KubeObject[], conflicts: ChildConflict[]): KubeObject[] {
  const taken = new Set(conflicts.map((c) => `${c.apiVersion}/${c.kind}/${c.name}`));
  return wanted.filter((c) => !taken.has(`${c.apiVersion}/${c.kind}/${c.metadata.name}`));
}

function wireChild(name: string) {
  return (child: Composed): KubeObject => {
    try {
      return composedFrom(child);
    } catch (e) {
      throw new HookContractError(`${name}: ${(e as Error).message}`);
    }
  };
}

/** Children in a stable order (kind, then name) so answers, ETags and golden files are stable. */
export function sortChildren(children: KubeObject[]): KubeObject[] {
  // Field by field, no key strings built: the order of `kind NUL apiVersion NUL name`
  // compared as one string, since no field holds a NUL and NUL sorts before any character.
  return children.slice().sort((a, b) => compare(a.kind, b.kind) || compare(a.apiVersion, b.apiVersion) || compare(a.metadata.name, b.metadata.name));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * An invalid spec changes nothing in the cluster: every observed child is answered as it
 * was last applied, and `Ready=False/InvalidSpec` says which field is wrong.
 */
function invalidSpecAnswer<Config>(
  composition: AnyComposition<Config>,
  input: SyncInput<unknown, Config>,
  hook: HookName,
  message: string,
): Record<string, unknown> {
  const previous = input.parent.status;
  const base = composition.invalidStatus ? composition.invalidStatus(previous) : { ...previous };
  delete base.observedGeneration;
  // The other conditions were not re-evaluated: they stay exactly as last reported.
  const status = withReady({ ...base, conditions: previous.conditions }, { type: READY, status: 'False', reason: INVALID_SPEC, message }, input);
  const response = answer(composition, input, { status, children: keepObserved(input) });
  if (hook === 'finalize') response.finalized = true;
  return response;
}

/** `path: message; …` of problems a composition's `validate` found. */
export function formatProblems(problems: ReadonlyArray<SpecProblem>): string {
  return problems.map((p) => `${p.path}: ${p.message}`).join('; ');
}

/** `spec.storage.databaseConfigurations: required when storage.format is DATABASE; …` */
export function formatIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  return issues.map((i) => `spec${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}: ${i.message}`).join('; ');
}
