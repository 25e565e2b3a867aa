import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { isDns1123Label } from '../../hooks/kit/index.js';
import { isDns1035Label } from '../../hooks/kit/children/names.js';
import { variantNames } from '../../hooks/engine/manifests.js';
import { runSync } from '../../hooks/testing/index.js';
import { appliedOptions } from '../support/golden.js';
import { specArbitraries } from '../support/arbitraries.js';
import { labelProblems, podNameProblems } from '../support/labels.js';
import { validateObject } from '../support/validate.js';

const RUNS = 1000;
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'Node',
  'PersistentVolume',
  'StorageClass',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PriorityClass',
  'IngressClass',
  'GatewayClass',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
]);
const config = defaultHookConfig();

// Parent names as users choose them: up to 253 characters of DNS subdomain.
const parentName = fc.oneof(
  fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?$/),
  fc
    .array(fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?$/), { minLength: 3, maxLength: 12 })
    .map((labels) => labels.join('.'))
    .filter((n) => n.length >= 60 && n.length <= 253),
);
const namespace = fc.stringMatching(/^[a-z]([a-z0-9-]{0,20}[a-z0-9])?$/);
const variants = variantNames(builtinCompositions);

for (const composition of builtinCompositions) {
  const specs = specArbitraries[composition.name];
  describe(`${composition.name}: ${RUNS} random valid specs`, () => {
    it('has an arbitrary of valid specs', () => expect(specs).toBeDefined());
    if (!specs) return;
    it('render valid children in the parent namespace, with valid names and label values, converging to a fixed point', () => {
      fc.assert(
        fc.property(
          specs,
          parentName,
          namespace,
          fc.constantFrom(...variants),
          fc.constantFrom(...composition.parent.versions),
          (spec, name, ns, variant, version) => {
            const parent = {
              apiVersion: `${composition.parent.group}/${version}`,
              kind: composition.parent.kind,
              metadata: { name, namespace: ns, generation: 1, uid: 'u' },
              spec,
            };
            const options = { parent, config, variant };
            const out = runSync(composition, options);
            expect(out.condition('Ready')?.reason, JSON.stringify(out.condition('Ready'))).not.toBe('InvalidSpec');
            for (const child of out.children) {
              expect(child.metadata.namespace).toBe(ns);
              expect(CLUSTER_SCOPED.has(child.kind)).toBe(false);
              const valid = child.kind === 'Service' ? isDns1035Label(child.metadata.name) : isDns1123Label(child.metadata.name);
              expect(valid, `${child.kind} name ${child.metadata.name}`).toBe(true);
              expect(labelProblems(child)).toEqual([]);
              expect(podNameProblems(child)).toEqual([]);
              expect(validateObject(child)).toEqual([]);
            }
            const again = runSync(composition, appliedOptions(options, out));
            expect(again.children).toEqual(out.children);
          },
        ),
        { numRuns: RUNS },
      );
    });
  });
}
