import type { AnyComposition, KubeObject, RelatedRule } from '../../hooks/kit/index.js';
import { runCustomize, runSync, type SyncResult } from '../../hooks/testing/index.js';

export const NS = 'tenant';

/** A parent of a composition, with a uid so its children can point back at it. */
export function parentOf(composition: AnyComposition, name: string, spec: Record<string, unknown>, uid = `uid-${composition.name}-${name}`): KubeObject {
  const { group, versions, kind } = composition.parent;
  return { apiVersion: `${group}/${versions[0]}`, kind, metadata: { name, namespace: NS, uid, generation: 1 }, spec } as KubeObject;
}

/** A child as the API server holds it once Metacontroller created it for `parent`. */
export function ownedBy(parent: KubeObject, child: KubeObject): KubeObject {
  const ref = {
    apiVersion: parent.apiVersion,
    kind: parent.kind,
    name: parent.metadata.name,
    uid: parent.metadata.uid as string,
    controller: true,
    blockOwnerDeletion: true,
  };
  return { ...child, metadata: { ...child.metadata, ownerReferences: [ref] } };
}

/** The plural resource of a kind, from the compositions' declared child types. */
function resourceOf(compositions: AnyComposition[], obj: KubeObject): string | undefined {
  const types = compositions.flatMap((c) => [...c.children, ...(c.optionalChildren ?? [])]);
  return types.find((t) => t.apiVersion === obj.apiVersion && t.kind === obj.kind)?.resource;
}

/** What Metacontroller would hand a parent for its rules: the cluster's objects the rules select. */
export function selectRelated(rules: RelatedRule[], cluster: KubeObject[], compositions: AnyComposition[]): KubeObject[] {
  return cluster.filter((obj) =>
    rules.some(
      (r) =>
        r.apiVersion === obj.apiVersion &&
        r.resource === resourceOf(compositions, obj) &&
        (r.namespace === undefined || r.namespace === (obj.metadata.namespace ?? NS)) &&
        (r.names === undefined || r.names.includes(obj.metadata.name)) &&
        r.labelSelector === undefined,
    ),
  );
}

/**
 * Parent A converges (its children exist, owned by A); then parent B syncs, seeing what its
 * customize asks for among them, plus `extra` objects (e.g. its ConfigMap).
 */
export function secondParent(
  a: { composition: AnyComposition; parent: KubeObject; related?: KubeObject[] },
  b: { composition: AnyComposition; parent: KubeObject; related?: KubeObject[] },
  variant?: string,
): { first: KubeObject[]; second: SyncResult; rules: RelatedRule[] } {
  const first = runSync(a.composition, { parent: a.parent, related: a.related ?? [], variant }).children.map((c) => ownedBy(a.parent, c));
  const rules = runCustomize(b.composition, { parent: b.parent, variant });
  const related = [...selectRelated(rules, first, [a.composition, b.composition]), ...(b.related ?? [])];
  return { first, second: runSync(b.composition, { parent: b.parent, related, variant }), rules };
}

export const key = (o: KubeObject) => `${o.kind}/${o.metadata.name}`;
