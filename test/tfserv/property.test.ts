import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { runSync } from '../../hooks/testing/index.js';
import { tfserv } from '../../hooks/tfserv/index.js';
import { tfservSpec as tfservSpecSchema } from '../../hooks/tfserv/spec.js';
import { tfservSpec } from '../property/tfserv.arb.js';
import { appliedOptions } from '../support/golden.js';
import { validateObject } from '../support/validate.js';

// The shared property test runs without related objects, so it sees a Tfserv waiting for its
// ConfigMap; this one gives every spec its ConfigMap, so the Deployment is covered too.
const config = defaultHookConfig();
const modelsFile = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/).map((n) => `model_config_list { config { name: "${n}" base_path: "/models/${n}" } }`),
  fc.string({ maxLength: 200 }),
);

describe('Tfserv with its ConfigMap, for any valid spec', () => {
  it('parses, emits valid children in the namespace, and is a fixed point', () => {
    fc.assert(
      fc.property(tfservSpec, modelsFile, (spec, content) => {
        expect(tfservSpecSchema.safeParse(spec).success).toBe(true);
        const parent = { apiVersion: 'servapi.dev-state.com/v1alpha1', kind: 'Tfserv', metadata: { name: 'p', namespace: 'ns', generation: 1 }, spec };
        const parsed = tfservSpecSchema.parse(spec);
        const related = [
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: parsed.configMap, namespace: 'ns' }, data: { [parsed.configFileName]: content } },
        ];
        const options = { parent, related, config };
        const out = runSync(tfserv, options);
        expect(out.children.map((c) => c.kind)).toEqual(['Deployment', 'Service']);
        for (const child of out.children) {
          expect(child.metadata.namespace).toBe('ns');
          expect(validateObject(child)).toEqual([]);
        }
        expect(runSync(tfserv, appliedOptions(options, out)).children).toEqual(out.children);
      }),
      { numRuns: 300 },
    );
  });
});
