/**
 * One parent's sync replayed as Metacontroller (v4.17) would run it against a dump, and what
 * it would write: pkg/controller/composite/controller.go `syncParentObject` — claim the
 * children (`claimChildren`), ask the customize hook and select the related objects
 * (pkg/controller/common/customize/manager.go `GetRelatedObjects`, hook v2), call sync, label
 * the desired children `controller-uid` (generateSelector), then `ManageChildren` (delete the
 * observed ones not desired, create or apply the desired ones) and `updateParentStatus`.
 */
import type { AnyComposition, LabelSelector, RelatedRule } from '../../kit/composition.js';
import type { CompositionConfigs } from '../../kit/config.js';
import { findCondition, READY } from '../../kit/status/conditions.js';
import { isRecord, type KubeObject } from '../../kit/types.js';
import { compositeControllerFor } from '../../engine/manifests.js';
import type { NamespaceSelector } from '../../engine/namespace-selector.js';
import { DEFAULT_NAMESPACE, INVALID_SPEC } from '../../engine/protocol.js';
import { runOverWire } from '../../engine/run.js';
import { decorated } from '../../engine/decorator.js';
import { applyOutcome, stripLastApplied } from './apply.js';
import { fieldChanges, type FieldChange } from './diff.js';
import { CONTROLLER_UID, type Dump } from './dump.js';

export type ChildAction = 'create' | 'update' | 'recreate' | 'delete' | 'held';

export interface ChildPlan {
  action: ChildAction;
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  /** The fields that change (update, recreate, held): observed → what Metacontroller writes. */
  changes?: FieldChange[];
  /** Only Metacontroller's own bookkeeping changes (its last-applied annotation, the controller-uid label). */
  bookkeepingOnly?: boolean;
  /** A Deployment whose pod template changes: why it rolls, in one line. */
  rolls?: string;
  note?: string;
}

export interface ParentPlan {
  composition: string;
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  result: 'unchanged' | 'changed' | 'failing';
  /** Children owned by the parent without Metacontroller's controller-uid label: another controller (KServe) made them. */
  takeover: boolean;
  error?: string;
  notes: string[];
  children: ChildPlan[];
  status: { changes: FieldChange[] };
}

export interface PlanContext {
  dump: Dump;
  now: string;
  config: CompositionConfigs;
  namespaceSelector?: NamespaceSelector;
  /** The CompositeController of each composition (by composition name): the dump's, or one generated for the variants. */
  controllers: Map<string, Record<string, unknown>>;
  /** Warnings for the whole run (each once): a resource the dump does not hold. */
  warnings: Set<string>;
}

/** The CompositeController a composition runs under: the dump's own (by its generated name), else the one `manifests` writes for `variant`. */
export function controllerFor(c: AnyComposition, dump: Dump, variant: string[]): Record<string, unknown> {
  const generated = compositeControllerFor(c, variant.length > 0 ? variant : 'default', { hookBaseUrl: 'http://modelhooks.plan' });
  const name = (generated.metadata as { name: string }).name;
  return dump.get('metacontroller.k8s.io/v1alpha1', 'CompositeController', '', name) ?? generated;
}

interface ChildResource {
  apiVersion: string;
  kind: string;
  method: string;
}

function childResourcesOf(c: AnyComposition, controller: Record<string, unknown>, dump: Dump): ChildResource[] {
  const spec = isRecord(controller.spec) ? controller.spec : {};
  const declared = Array.isArray(spec.childResources) ? spec.childResources : [];
  const types = [...c.children, ...(c.optionalChildren ?? [])];
  return declared.filter(isRecord).flatMap((r) => {
    const apiVersion = String(r.apiVersion);
    const resource = String(r.resource);
    const kind = types.find((t) => t.apiVersion === apiVersion && t.resource === resource)?.kind ?? dump.kindOf(apiVersion, resource);
    if (!kind) return [];
    const method = isRecord(r.updateStrategy) && typeof r.updateStrategy.method === 'string' ? r.updateStrategy.method : '';
    return [{ apiVersion, kind, method }];
  });
}

export function planParent(c: AnyComposition, parent: KubeObject, ctx: PlanContext): ParentPlan {
  const namespace = parent.metadata.namespace ?? DEFAULT_NAMESPACE;
  const plan: ParentPlan = {
    composition: c.name,
    apiVersion: parent.apiVersion,
    kind: parent.kind,
    namespace,
    name: parent.metadata.name,
    result: 'unchanged',
    takeover: false,
    notes: [],
    children: [],
    status: { changes: [] },
  };
  try {
    planInto(plan, c, { ...parent, metadata: { ...parent.metadata, namespace } }, ctx);
  } catch (err) {
    plan.result = 'failing';
    plan.error = (err as Error).message;
    plan.children = [];
    plan.status = { changes: [] };
  }
  return plan;
}

function planInto(plan: ParentPlan, c: AnyComposition, parent: KubeObject, ctx: PlanContext): void {
  const uid = parent.metadata.uid;
  if (!uid) throw new Error('the parent has no metadata.uid: its children cannot be matched (take the dump with kubectl get … -o yaml)');
  // Without a finalize hook Metacontroller manages no child of a parent being deleted (syncParentObject).
  if (parent.metadata.deletionTimestamp) {
    plan.notes.push('being deleted: Metacontroller applies no child');
    return;
  }
  const controller = ctx.controllers.get(c.name) as Record<string, unknown>;
  const resources = childResourcesOf(c, controller, ctx.dump);
  const observed = observedChildren(parent, uid, resources, ctx.dump);
  plan.takeover = observed.some((o) => o.metadata.labels?.[CONTROLLER_UID] !== uid);
  const related = relatedObjects(c, parent, controller, ctx);
  const answer = runOverWire(c, 'sync', { parent, observed, related, controller }, hookContext(ctx));
  const status = isRecord(answer.status) ? answer.status : {};
  const ready = findCondition<{ type?: string; reason?: string; message?: string }>(status.conditions, READY);
  if (ready?.reason === INVALID_SPEC) plan.notes.push(`invalid spec: ${ready.message} (children kept as last applied)`);
  const desired = ((answer.children ?? []) as KubeObject[]).map((d) => withControllerUid(d, uid));
  plan.children = manageChildren(parent, observed, desired, resources);
  plan.status.changes = statusChanges(parent, status);
  const writes = plan.children.some((ch) => ch.action !== 'held') || plan.status.changes.length > 0;
  plan.result = writes ? 'changed' : 'unchanged';
}

function hookContext(ctx: PlanContext) {
  return { now: ctx.now, config: ctx.config, ...(ctx.namespaceSelector ? { namespaceSelector: ctx.namespaceSelector } : {}) };
}

/**
 * claimChildren, with the takeover rule: objects of a declared child type in the parent's
 * namespace that the parent owns (an ownerReference to its uid, controller or not, Metacontroller's
 * label or not: KServe's children are owned by the InferenceService without it), and orphans
 * labelled `controller-uid: <uid>` (Metacontroller adopts them). An object another controller
 * owns is never claimed.
 */
function observedChildren(parent: KubeObject, uid: string, resources: ChildResource[], dump: Dump): KubeObject[] {
  const namespace = parent.metadata.namespace;
  const declared = (o: KubeObject) => o.metadata.namespace === namespace && resources.some((r) => r.apiVersion === o.apiVersion && r.kind === o.kind);
  const controllerOf = (o: KubeObject) => o.metadata.ownerReferences?.find((r) => r.controller === true);
  const seen = new Set<KubeObject>();
  for (const o of dump.ownedBy(uid)) {
    const ctrl = controllerOf(o);
    if (declared(o) && (!ctrl || ctrl.uid === uid)) seen.add(o);
  }
  for (const o of dump.labelled(uid)) if (declared(o) && !controllerOf(o)) seen.add(o);
  return [...seen];
}

/** The related objects Metacontroller would send: the customize hook's rules (v2) resolved against the dump. */
function relatedObjects(c: AnyComposition, parent: KubeObject, controller: Record<string, unknown>, ctx: PlanContext): KubeObject[] {
  const hooks = isRecord(controller.spec) && isRecord(controller.spec.hooks) ? controller.spec.hooks : {};
  if (!hooks.customize) return [];
  const answer = runOverWire(c, 'customize', { parent, controller }, hookContext(ctx));
  const rules = (Array.isArray(answer.relatedResources) ? answer.relatedResources : []) as Array<RelatedRule & { namespaceSelector?: LabelSelector }>;
  const found = new Set<KubeObject>();
  for (const rule of rules) for (const o of select(rule, ctx)) found.add(o);
  // What the composition's DecoratorController writes (the credentials summary on ServiceAccounts), as it will once installed.
  return decorated(c, [...found], parent.metadata.namespace ?? DEFAULT_NAMESPACE, (rule) => select(rule, ctx));
}

function select(rule: RelatedRule & { namespaceSelector?: LabelSelector }, ctx: PlanContext): KubeObject[] {
  const { dump } = ctx;
  const kind = dump.kindOf(rule.apiVersion, rule.resource);
  if (!kind) {
    ctx.warnings.add(
      `the dump holds no ${rule.resource} (${rule.apiVersion}), which the customize hook asks for: taken as none (if the cluster has some, add them to the dump)`,
    );
    return [];
  }
  const hasNames = (rule.names ?? []).length > 0;
  const hasNamespace = (rule.namespace ?? '') !== '';
  if (hasNames && (rule.labelSelector || rule.namespaceSelector))
    throw new Error(`related rule cannot have both names and labelSelector/namespaceSelector specified (${rule.resource})`);
  if (hasNamespace && rule.namespaceSelector) throw new Error(`related rule cannot have both namespace and namespaceSelector specified (${rule.resource})`);
  // determineSelectionType, v2.
  if (rule.namespaceSelector) {
    const selector = rule.namespaceSelector;
    return dump
      .list('v1', 'Namespace', '')
      .filter((ns) => labelsMatch(selector, ns.metadata.labels))
      .flatMap((ns) => dump.list(rule.apiVersion, kind, ns.metadata.name))
      .filter((o) => labelsMatch(rule.labelSelector, o.metadata.labels));
  }
  const scope = (namespace: string | undefined) => {
    if (namespace === undefined || namespace === '') return dump.list(rule.apiVersion, kind);
    // A cluster-scoped kind lists its objects whatever the namespace (listObjects with namespaced false).
    const inNs = dump.list(rule.apiVersion, kind, namespace);
    return inNs.length > 0 ? inNs : dump.list(rule.apiVersion, kind, '');
  };
  if (rule.labelSelector) return scope(rule.namespace).filter((o) => labelsMatch(rule.labelSelector, o.metadata.labels));
  if (hasNames) {
    const names = rule.names as string[];
    if (hasNamespace) return names.flatMap((n) => dump.get(rule.apiVersion, kind, rule.namespace as string, n) ?? dump.get(rule.apiVersion, kind, '', n) ?? []);
    return scope(undefined).filter((o) => names.includes(o.metadata.name));
  }
  return scope(rule.namespace);
}

/** metav1.LabelSelectorAsSelector: every term holds; NotIn and DoesNotExist also match a missing key. */
export function labelsMatch(selector: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector) return true;
  const have = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (have[k] !== v) return false;
  for (const term of selector.matchExpressions ?? []) {
    const present = Object.hasOwn(have, term.key);
    const values = term.values ?? [];
    const value = have[term.key] as string;
    const holds =
      term.operator === 'In'
        ? present && values.includes(value)
        : term.operator === 'NotIn'
          ? !present || !values.includes(value)
          : term.operator === 'Exists'
            ? present
            : !present;
    if (!holds) return false;
  }
  return true;
}

/** syncParentObject: with generateSelector every desired child gets `controller-uid: <uid>` unless it has one, which must match. */
function withControllerUid(child: KubeObject, uid: string): KubeObject {
  const label = child.metadata.labels?.[CONTROLLER_UID];
  if (label === undefined) return { ...child, metadata: { ...child.metadata, labels: { ...child.metadata.labels, [CONTROLLER_UID]: uid } } };
  if (label !== uid) throw new Error(`labels on desired child ${child.kind} ${child.metadata.namespace}/${child.metadata.name} don't match parent selector`);
  return child;
}

const childKey = (o: KubeObject) => `${o.apiVersion}\u0000${o.kind}\u0000${o.metadata.name}`;

/** ManageChildren: deleteChildren, then updateChildren with DynamicApply. */
function manageChildren(parent: KubeObject, observed: KubeObject[], desired: KubeObject[], resources: ChildResource[]): ChildPlan[] {
  const namespace = parent.metadata.namespace as string;
  const plans: ChildPlan[] = [];
  const wanted = new Map(desired.map((d) => [childKey(d), d]));
  const have = new Map(observed.map((o) => [childKey(o), o]));
  const id = (o: KubeObject) => ({ apiVersion: o.apiVersion, kind: o.kind, namespace, name: o.metadata.name });
  for (const o of observed) {
    if (o.metadata.deletionTimestamp || wanted.has(childKey(o))) continue;
    plans.push({ action: 'delete', ...id(o) });
  }
  for (const d of desired) {
    const o = have.get(childKey(d));
    if (!o) {
      plans.push({ action: 'create', ...id(d) });
      continue;
    }
    const outcome = applyOutcome(o, d);
    if (!outcome.writes) continue;
    if (o.metadata.deletionTimestamp) continue; // "Pending deletion of child object": not updated.
    const changes = fieldChanges(stripLastApplied(o as unknown as Record<string, unknown>), outcome.merged);
    const bookkeeping = changes.every((ch) => ch.path === `metadata.labels.${CONTROLLER_UID}`);
    const method = resources.find((r) => r.apiVersion === d.apiVersion && r.kind === d.kind)?.method ?? '';
    const base: ChildPlan = { action: 'update', ...id(d), changes, ...(bookkeeping ? { bookkeepingOnly: true } : {}) };
    if (method === 'Recreate' || method === 'RollingRecreate') {
      plans.push({ ...base, action: 'recreate', note: `updateStrategy ${method}: deleted now, created again on the next sync` });
    } else if (method === 'InPlace' || method === 'RollingInPlace') {
      const rolls = d.kind === 'Deployment' && d.apiVersion === 'apps/v1' ? rollReason(changes) : undefined;
      plans.push(rolls ? { ...base, rolls } : base);
    } else {
      plans.push({ ...base, action: 'held', note: `updateStrategy ${method || 'OnDelete'}: left as it is until someone deletes it` });
    }
  }
  return plans.sort((a, b) => order(a, b));
}

function order(a: ChildPlan, b: ChildPlan): number {
  const ka = `${a.kind}\u0000${a.apiVersion}\u0000${a.name}`;
  const kb = `${b.kind}\u0000${b.apiVersion}\u0000${b.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** Why a Deployment's pods are replaced: its pod template's changes, the first three named. */
function rollReason(changes: FieldChange[]): string | undefined {
  const template = changes.filter((ch) => ch.path === 'spec.template' || ch.path.startsWith('spec.template.'));
  if (template.length === 0) return undefined;
  const shown = template.slice(0, 3).map((ch) => ch.path.replace(/^spec\.template\./, ''));
  return `pod template changes: ${shown.join(', ')}${template.length > 3 ? ` and ${template.length - 3} more` : ''}`;
}

/**
 * updateParentStatus: the hook's status with observedGeneration set to the parent's generation,
 * written when it differs from the parent's. A condition's lastTransitionTime that changes
 * while nothing else of the condition does is churn, not a change.
 */
function statusChanges(parent: KubeObject, status: Record<string, unknown>): FieldChange[] {
  const next = { ...status, observedGeneration: parent.metadata.generation ?? 0 };
  if (!isRecord(parent.status)) return [{ path: 'status', after: next }];
  const changes = fieldChanges(parent.status, next, 'status');
  return changes.filter((ch) => {
    if (!ch.path.endsWith('.lastTransitionTime') || ch.before === undefined || ch.after === undefined) return true;
    const condition = ch.path.slice(0, -'.lastTransitionTime'.length);
    return changes.some((other) => other !== ch && other.path.startsWith(`${condition}.`));
  });
}
