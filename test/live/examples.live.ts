import { describe, expect, it } from 'vitest';
import { fromRoot, objectsIn } from '../e2e/support/files.js';
import type { KubeObject } from '../e2e/support/kube.js';
import { kube, printLogsOnFailure } from './support/context.js';
import { childUids, readyWithin } from './support/wait.js';

/**
 * Kinds a CompositeController of compositions/base serves: these must become Ready. The
 * InferenceGraph's step is the InferenceService of its namespace's example, applied beside it:
 * the graph waits for its address (a related object's change wakes it), then becomes Ready.
 */
const PARENT_KINDS = new Set(['InferenceService', 'TrustyAIService', 'Tfserv', 'MLModel', 'InferenceGraph']);
/** Where an example without a namespace goes (`kubectl apply -f` puts it in the current one). */
const DEFAULT_NS = 'live-examples';
/** From `kubectl apply` of the file to Ready=True. */
const READY_BOUND_MS = 90_000;

printLogsOnFailure();

describe('every file in examples/ becomes Ready through the real Metacontroller', () => {
  const k = kube();
  const examples = objectsIn(fromRoot('examples')).map(({ file, obj }) => ({
    file,
    obj: { ...obj, metadata: { ...obj.metadata, namespace: obj.metadata.namespace ?? DEFAULT_NS } } as KubeObject,
  }));
  const parents = examples.filter((e) => PARENT_KINDS.has(e.obj.kind));

  it('the examples hold a parent of every composition', () => {
    expect(new Set(parents.map((p) => p.obj.kind))).toEqual(PARENT_KINDS);
  });

  it.concurrent.each(parents.map((p) => [p.file, p.obj] as const))('%s', async (file, parent) => {
    const ns = parent.metadata.namespace as string;
    await k.ensureNamespace(ns);
    // What the file needs first (a ConfigMap, a ServingRuntime) comes from the other examples of its namespace.
    for (const dep of examples.filter((e) => !PARENT_KINDS.has(e.obj.kind) && e.obj.metadata.namespace === ns)) await k.apply(dep.obj);
    const applied = Date.now();
    const created = await k.apply(parent);
    const { value, ms } = await readyWithin(k, parent, READY_BOUND_MS, applied);
    console.log(`${file}: Ready ${(ms / 1000).toFixed(1)}s after apply`);
    expect(value.metadata.uid).toBe((created.metadata as { uid?: string }).uid);
    expect(Object.keys(await childUids(k, ns, value.metadata.uid ?? '')).length).toBeGreaterThan(0);
  });
});
