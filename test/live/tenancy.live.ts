import { describe, expect, it } from 'vitest';
import { fromRoot, objectsIn } from '../e2e/support/files.js';
import type { KubeObject } from '../e2e/support/kube.js';
import { kube, printLogsOnFailure } from './support/context.js';
import { childrenOf, readyWithin } from './support/wait.js';

/*
 * Two tenants apply the same examples, with the same names, in two namespaces. Nothing of one
 * may appear in the other's children or status: no child in the other namespace, no child owned
 * across, no mention of the other namespace or of the other parents' UIDs anywhere in a child
 * or a status.
 */
const READY_MS = 120_000;
const PARENT_KINDS = new Set(['InferenceService', 'TrustyAIService', 'Tfserv', 'MLModel']);
const TENANTS = ['live-tenant-a', 'live-tenant-b'];

printLogsOnFailure(20);

describe('two tenants, same names, two namespaces', () => {
  const k = kube();

  it('nothing of one tenant appears in the other one’s children or status', async () => {
    const examples = objectsIn(fromRoot('examples')).map((e) => e.obj);
    const placed = (ns: string) => examples.map((o) => ({ ...o, metadata: { ...o.metadata, namespace: ns } }) as KubeObject);
    for (const ns of TENANTS) await k.ensureNamespace(ns);
    const applied = Date.now();
    for (const ns of TENANTS) for (const o of placed(ns).filter((x) => !PARENT_KINDS.has(x.kind))) await k.apply(o);
    for (const ns of TENANTS) for (const o of placed(ns).filter((x) => PARENT_KINDS.has(x.kind))) await k.apply(o);

    const parents = await Promise.all(
      TENANTS.flatMap((ns) =>
        placed(ns)
          .filter((o) => PARENT_KINDS.has(o.kind))
          .map(async (o) => ({ ns, parent: (await readyWithin(k, o, READY_MS, applied)).value })),
      ),
    );
    for (const ns of TENANTS) {
      const other = TENANTS.find((t) => t !== ns) as string;
      const otherUids = parents.filter((p) => p.ns === other).map((p) => p.parent.metadata.uid ?? '');
      for (const { parent } of parents.filter((p) => p.ns === ns)) {
        const where = `${parent.kind} ${ns}/${parent.metadata.name}`;
        const status = JSON.stringify(parent.status);
        expect(status, `${where} status`).not.toContain(other);
        for (const uid of otherUids) expect(status, `${where} status`).not.toContain(uid);
        const children = await childrenOf(k, ns, parent.metadata.uid ?? '');
        expect(children.length, `${where} children`).toBeGreaterThan(0);
        for (const child of children) {
          const { managedFields: _m, ...metadata } = child.metadata as Record<string, unknown>;
          const text = JSON.stringify({ ...child, metadata });
          expect(child.metadata.namespace, `${where}: ${child.kind} ${child.metadata.name}`).toBe(ns);
          expect(text, `${where}: ${child.kind} ${child.metadata.name}`).not.toContain(other);
          for (const uid of otherUids) expect(text, `${where}: ${child.kind} ${child.metadata.name}`).not.toContain(uid);
        }
        // And the other namespace holds nothing this parent controls.
        expect(await childrenOf(k, other, parent.metadata.uid ?? ''), `${where}: children in ${other}`).toEqual([]);
      }
    }
  });
});
