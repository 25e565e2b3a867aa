import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { mlmodel } from '../../hooks/mlmodel/index.js';
import { PHASES } from '../../hooks/mlmodel/lifecycle.js';
import { runSync } from '../../hooks/testing/index.js';
import { mlmodelSpec } from '../property/mlmodel.arb.js';
import { appliedOptions } from '../support/golden.js';
import { validateObject } from '../support/validate.js';

// The shared property test sees only the first sync; this one walks a random spec through
// its download (claim bound, Job succeeded), so the Deployment and Service are covered too.
const config = defaultHookConfig();
const name = fc.oneof(fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?$/), fc.constant(`m${'x'.repeat(70)}`));

describe('MLModel for any valid spec, once downloaded', () => {
  it('emits valid children in the namespace, a known phase, and a fixed point', () => {
    fc.assert(
      fc.property(mlmodelSpec, name, (spec, n) => {
        const parent = { apiVersion: 'oda.tmforum.org.oda.tmforum.org/v1beta1', kind: 'MLModel', metadata: { name: n, namespace: 'ns', generation: 1 }, spec };
        const first = runSync(mlmodel, { parent, config });
        const observed = first.children.map((c) =>
          c.kind === 'Job' ? { ...c, status: { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] } } : { ...c, status: { phase: 'Bound' } },
        );
        const options = { parent: { ...parent, status: first.status }, observed, config };
        const out = runSync(mlmodel, options);
        expect(PHASES).toContain(out.status.phase);
        expect(out.childrenOf('Deployment')).toHaveLength(1);
        expect(out.childrenOf('Service')).toHaveLength(spec.expose === false ? 0 : 1);
        for (const child of out.children) {
          expect(child.metadata.namespace).toBe('ns');
          expect(validateObject(child)).toEqual([]);
        }
        expect(runSync(mlmodel, appliedOptions(options, out)).children).toEqual(out.children);
      }),
      { numRuns: 200 },
    );
  });
});
