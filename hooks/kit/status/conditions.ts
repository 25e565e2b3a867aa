import { isRecord } from '../types.js';

/** A Kubernetes condition's status. */
export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** A condition as a status function decides it, before the kit stamps its times. */
export interface Cond {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
}

/**
 * Three-valued readiness of one observed object: a missing object or field means
 * "not ready yet", never an exception.
 */
export type Readiness = Omit<Cond, 'type'>;

/** A condition as written into the parent's status. */
export interface Condition extends Cond {
  lastTransitionTime: string;
  observedGeneration?: number;
}

/** A condition of an observed object (a Deployment's, a Route's…): any field may be missing. */
export interface ObservedCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}

/** The condition every parent reports, derived from the others (readyConditions). */
export const READY = 'Ready';

/** The JSONPath of a field of the Ready condition, for printer columns. */
export const readyJsonPath = (field: 'status' | 'reason' | 'message'): string => `.status.conditions[?(@.type=="${READY}")].${field}`;

/** A decided condition: `condition.true(type, reason, message)`, `.false(…)`, `.unknown(…)`. */
export const condition = {
  true: (type: string, reason: string, message = ''): Cond => ({ type, status: 'True', reason, message }),
  false: (type: string, reason: string, message = ''): Cond => ({ type, status: 'False', reason, message }),
  unknown: (type: string, reason: string, message = ''): Cond => ({ type, status: 'Unknown', reason, message }),
};

/** A condition of `type` saying what a readiness judgement (e.g. `deploymentReadiness`) found. */
export function fromReadiness(type: string, r: Readiness): Cond {
  return { type, ...r };
}

/** The conditions of a previous status, ignoring anything malformed in it. */
export function previousConditions(status: unknown): Condition[] {
  if (!isRecord(status) || !Array.isArray(status.conditions)) return [];
  return status.conditions.filter((c): c is Condition => isRecord(c) && typeof c.type === 'string' && typeof c.status === 'string');
}

/**
 * `Ready` derived from the others, as kro does: True only when every one is True;
 * otherwise it carries the reason and message of the least healthy (False before Unknown,
 * then in the order given, so the first blocker in the pipeline is what users read).
 */
export function readyFrom(others: Cond[], readyReason = READY, readyMessage = ''): Cond {
  const worst = others.find((c) => c.status === 'False') ?? others.find((c) => c.status === 'Unknown');
  if (!worst) return condition.true(READY, readyReason, readyMessage);
  return { type: READY, status: worst.status, reason: worst.reason, message: worst.message };
}

/**
 * Stamps times and generation on the decided conditions. `lastTransitionTime` is carried
 * over from the previous status when the status did not change; otherwise the status
 * would never settle and every sync would write the parent again.
 */
export function stampConditions(decided: Cond[], previous: Condition[], now: string, observedGeneration?: number): Condition[] {
  const stamped: Condition[] = new Array(decided.length);
  for (let i = 0; i < decided.length; i++) {
    const c = decided[i] as Cond;
    const before = previousOfType(previous, c.type);
    const lastTransitionTime = before && before.status === c.status && typeof before.lastTransitionTime === 'string' ? before.lastTransitionTime : now;
    // Written out field by field (a Cond has exactly these four, in this order): one object
    // shape for every condition, where a spread of conditions built in many places is not.
    stamped[i] =
      observedGeneration === undefined
        ? { type: c.type, status: c.status, reason: c.reason, message: c.message, lastTransitionTime }
        : { type: c.type, status: c.status, reason: c.reason, message: c.message, lastTransitionTime, observedGeneration };
  }
  return stamped;
}

/** The first previous condition of `type` (as `find` would, without a closure per call). */
function previousOfType(previous: Condition[], type: string): Condition | undefined {
  for (let i = 0; i < previous.length; i++) if ((previous[i] as Condition).type === type) return previous[i];
  return undefined;
}

/** Finds a condition by type in any list of conditions (ours or an observed object's). */
export function findCondition<T extends { type?: string } = ObservedCondition>(list: unknown, type: string): T | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.find((c): c is T => isRecord(c) && c.type === type);
}

/** What a status function stamps against: the parent's generation and previous status, and now. */
export interface StampInput {
  parent: { metadata: { generation?: number }; status: unknown };
  now: string;
}

/**
 * `status` with its Ready replaced by `ready` (InvalidSpec, ChildNameConflict…), stamped
 * against the parent's PREVIOUS status so a lasting state keeps its lastTransitionTime; the
 * other conditions of `status` stay as they are.
 */
export function withReady(status: Record<string, unknown>, ready: Cond, input: StampInput): Record<string, unknown> {
  const stamped = stampConditions([ready], previousConditions(input.parent.status), input.now, input.parent.metadata.generation);
  const others = previousConditions(status).filter((c) => c.type !== READY);
  return { ...status, conditions: [...stamped, ...others] };
}

/** Stamps decided conditions against the parent's previous status. */
export function conditionsFor(input: StampInput, decided: Cond[]): Condition[] {
  return stampConditions(decided, previousConditions(input.parent.status), input.now, input.parent.metadata.generation);
}

/** One condition `Ready` depends on: its type, what it means, and the reasons it can carry. */
export interface Dependency {
  type: string;
  /** What True means, for readers of the tree (and of `kubectl explain`-like docs). */
  means: string;
  /** The reasons this composition itself sets (readiness helpers may add Kubernetes' own). */
  reasons?: Record<string, string>;
}

/** How `readyConditions` words Ready and phase, and the conditions written beside Ready. */
export interface ReadyConditionsOptions {
  /** Reason and message of `Ready=True`. */
  ready?: { reason: string; message: string };
  /** `phase` written beside the conditions: one word when Ready is True, another otherwise. */
  phase?: { ready: string; notReady: string };
  /** Conditions reported beside Ready that do not block it, in the order they are written. */
  informational?: Dependency[];
}

/**
 * What tells Ready more than its dependencies, found beside them (never patched in after the
 * tree): applied in this order to the Ready the dependencies derive.
 */
export interface ReadyInputs {
  /**
   * Tells a Ready that is not True why, more precisely than the dependencies can (False, its
   * reason and message): e.g. the first blocker of the workloads' pods (workload-blockers.ts).
   */
  blocker?: { reason: string; message: string };
  /**
   * Conditions of a dependency's type found beside its own judgement (e.g. IngressReady
   * False/HostConflict, host-conflicts.ts) that take its place; Ready is False with the first
   * unless it is False already.
   */
  overrides?: Cond[];
  /**
   * Conditions of a dependency's type reported without gating Ready, where nothing of that type
   * was decided (e.g. canaries another controller's Ready does not wait for); written last.
   */
  beside?: Cond[];
}

/** What a condition tree summarised: Ready, Ready from the dependencies alone, and every condition in order. */
export interface ReadySummary {
  /** Ready as written: derived from the dependencies, then told by the inputs. */
  ready: Cond;
  /** Ready as the decided dependencies alone derive it, before any input told it more. */
  derived: Cond;
  /** Ready first, then the dependencies in declared order, then the informational ones. */
  conditions: Condition[];
  phase?: string;
}

/**
 * The condition tree of a composition, kro's `NewReadyConditions(deps…)`: `Ready` depends
 * on `dependsOn` (in pipeline order) and is derived, never set by hand.
 */
export class ReadyConditions {
  readonly dependsOn: readonly Dependency[];
  readonly informational: readonly Dependency[];
  /** The types Ready may depend on or report beside it, built on first use. */
  private known: Set<string> | undefined;

  constructor(
    dependsOn: Dependency[],
    private readonly options: ReadyConditionsOptions = {},
  ) {
    this.dependsOn = dependsOn;
    this.informational = options.informational ?? [];
  }

  /** Every condition type of the tree, Ready first, in the order they are written. */
  get types(): string[] {
    return [READY, ...this.dependsOn.map((d) => d.type), ...this.informational.map((d) => d.type)];
  }

  /**
   * Ready derived from the decided dependencies (those not decided, such as a Route that
   * is not declared, do not count), stamped with the previous status's transition times.
   */
  summarise(input: StampInput, decided: Cond[], inputs: ReadyInputs = {}): ReadySummary {
    const known = (this.known ??= new Set(this.types.slice(1)));
    const { blocker, overrides = [], beside = [] } = inputs;
    for (const c of [...decided, ...overrides, ...beside]) {
      if (!known.has(c.type)) throw new Error(`condition ${c.type} is not in the condition tree (${[...known].join(', ')})`);
    }
    const blockers = inOrder(this.dependsOn, decided, []);
    const { reason, message } = this.options.ready ?? { reason: READY, message: '' };
    const derived = readyFrom(blockers, reason, message);
    let ready = blocker && derived.status !== 'True' ? condition.false(READY, blocker.reason, blocker.message) : derived;
    const [override] = overrides;
    if (override && ready.status !== 'False') ready = condition.false(READY, override.reason, override.message);
    // Each override in its dependency's place, instead of what was decided for that type.
    const kept = decided.filter((c) => !overrides.some((o) => o.type === c.type));
    const replaced = overrides.length === 0 ? blockers : inOrder(this.dependsOn, [...overrides, ...kept], []);
    const reported = beside.filter((b) => !decided.some((c) => c.type === b.type));
    const conditions = conditionsFor(input, [...inOrder(this.informational, decided, [ready, ...replaced]), ...reported]);
    const phase = this.options.phase && (ready.status === 'True' ? this.options.phase.ready : this.options.phase.notReady);
    return phase === undefined ? { ready, derived, conditions } : { ready, derived, conditions, phase };
  }
}

/** `into` followed by the decided conditions of each dependency's type, in the dependencies' order. */
function inOrder(deps: readonly Dependency[], decided: readonly Cond[], into: Cond[]): Cond[] {
  for (const d of deps) for (const c of decided) if (c.type === d.type) into.push(c);
  return into;
}

/** Declares `Ready` and what it depends on, in pipeline order (the first blocker is what users read). */
export function readyConditions(dependsOn: Dependency[], options?: ReadyConditionsOptions): ReadyConditions {
  return new ReadyConditions(dependsOn, options);
}
