import type { ChildNames, ChildType, RelatedRule } from '../kit/composition.js';
import { READY, type StampInput, withReady } from '../kit/status/conditions.js';
import type { ObjectIndex } from '../kit/observed.js';
import type { KubeObject, Parent } from '../kit/types.js';

/** The reason of `Ready=False` when a child's name is held by an object this parent does not own. */
export const CHILD_NAME_CONFLICT = 'ChildNameConflict';

/** A desired child whose (kind, name) another owner holds. */
export interface ChildConflict {
  apiVersion: string;
  kind: string;
  name: string;
  /** `Kind/name` of the holder's controller, or `no owner`. */
  owner: string;
}

/**
 * Customize rules asking for the objects that share a child's name, one per child type the
 * controller declares, always in the parent's namespace (without one, Metacontroller v2 would
 * look in every namespace).
 */
export function childNameRules(types: ChildType[], wanted: ChildNames[], namespace: string): RelatedRule[] {
  const rules: RelatedRule[] = [];
  for (const type of types) {
    const names = [...new Set(wanted.filter((w) => w.apiVersion === type.apiVersion && w.kind === type.kind).flatMap((w) => w.names))].sort();
    if (names.length > 0) rules.push({ apiVersion: type.apiVersion, resource: type.resource, namespace, names });
  }
  return rules;
}

/**
 * The desired children whose name is already taken in the parent's namespace by an object
 * that is not among the observed children and whose controller is not this parent (by uid).
 * Metacontroller would fail to create such a child (AlreadyExists) and say nothing.
 */
export function childConflicts(parent: Parent<unknown>, desired: KubeObject[], observed: ObjectIndex, related: ObjectIndex): ChildConflict[] {
  const namespace = parent.metadata.namespace;
  const conflicts: ChildConflict[] = [];
  for (const child of desired) {
    const { apiVersion, kind } = child;
    const name = child.metadata.name;
    if (observed.get(apiVersion, kind, name, namespace)) continue;
    const holder = related.get(apiVersion, kind, name, namespace);
    if (!holder) continue;
    const controller = holder.metadata.ownerReferences?.find((r) => r.controller === true);
    if (controller && parent.metadata.uid !== undefined && controller.uid === parent.metadata.uid) continue;
    conflicts.push({ apiVersion, kind, name, owner: controller ? `${controller.kind}/${controller.name}` : 'no owner' });
  }
  return conflicts;
}

/** `Deployment foo exists and is not ours (owner: Tfserv/foo)`; every conflict, in a stable order. */
export function conflictMessage(conflicts: ChildConflict[]): string {
  const parts = conflicts.map((c) => `${c.kind} ${c.name} exists and is not ours (owner: ${c.owner})`);
  return `${parts.join('; ')}; left alone, the other children converge`;
}

/**
 * The composition's status with Ready=False/ChildNameConflict: the composition judged the
 * children it could see, but one it wants can never be created under its name. The other
 * conditions stay as the composition decided them. Ready is stamped against the PREVIOUS
 * status, so a conflict that lasts keeps its lastTransitionTime and the status settles.
 */
export function withConflicts(status: Record<string, unknown>, conflicts: ChildConflict[], input: StampInput): Record<string, unknown> {
  return withReady(status, { type: READY, status: 'False', reason: CHILD_NAME_CONFLICT, message: conflictMessage(conflicts) }, input);
}
