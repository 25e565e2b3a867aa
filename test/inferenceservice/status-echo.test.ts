/**
 * The InferenceService's CompositeController sets `parentResource.ignoreStatusChanges`: a write
 * of the parent's status alone (Metacontroller's own, after each sync) enqueues no sync
 * (metacontroller pkg/controller/composite/controller.go updateParentObject), where before it
 * cost one more sync per status write — the last of a large convergence's came after the last
 * Ready with nothing changed. That is right only if the hook never needs to see its own status
 * to answer: for every golden case, the sync that would follow the status write (same
 * children, same related objects, the status just written) answers the same children and the
 * same status, so no answer waits for it.
 */
import { describe, expect, it } from 'vitest';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { compositeControllerFor } from '../../hooks/engine/manifests.js';
import { runSync } from '../../hooks/testing/index.js';
import { goldenCases } from '../support/golden.js';

describe('InferenceService: its own status write asks for no sync (ignoreStatusChanges)', () => {
  it('the CompositeController ignores status-only changes of the parent', () => {
    const cc = compositeControllerFor(inferenceservice, 'default', { hookBaseUrl: 'http://h' }) as { spec: { parentResource: Record<string, unknown> } };
    expect(cc.spec.parentResource.ignoreStatusChanges).toBe(true);
  });
  const cases = goldenCases('inferenceservice');
  it.each(cases.map((c) => [c.name, c] as const))('%s: the sync after its status write answers the same', (_name, c) => {
    const first = runSync(inferenceservice, c.options);
    const parent = c.options.parent as KubeObject;
    const written = { ...parent, status: first.status };
    const again = runSync(inferenceservice, { ...c.options, parent: written });
    expect(again.children).toEqual(first.children);
    expect(again.status).toEqual(first.status);
  });
});
