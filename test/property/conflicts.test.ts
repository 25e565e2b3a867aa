import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { CHILD_NAME_CONFLICT } from '../../hooks/engine/conflicts.js';
import { runSync } from '../../hooks/testing/index.js';
import { specArbitraries } from '../support/arbitraries.js';
import { key, NS, parentOf, secondParent } from '../support/two-parents.js';

// Names chosen to collide: one composition's child names are another's parent names.
const names = fc.constantFrom('foo', 'foo-pvc', 'foo-server', 'foo-service', 'foo-predictor', 'foo-transformer', 'foo.bar', 'foo-bar', 'x1foo', '1foo');
const composition = fc.constantFrom(...builtinCompositions);
const OTHER_NS = 'qqz-elsewhere';

/** A Tfserv's ConfigMap, so Tfservs emit their Deployment too. */
function configMapsFor(parent: KubeObject): KubeObject[] {
  const spec = parent.spec as { configMap?: string; configFileName?: string } | undefined;
  if (parent.kind !== 'Tfserv' || !spec?.configMap) return [];
  const data = { [spec.configFileName ?? 'models.conf']: 'model_config_list { config { name: "m" base_path: "/models/m" model_platform: "tensorflow" } }' };
  return [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: spec.configMap, namespace: NS }, data } as KubeObject];
}

describe('two parents in one namespace', () => {
  it('never emit the same child (kind, name) unless the second reports ChildNameConflict; same-named objects of another namespace never count (property)', () => {
    const side = composition.chain((c) =>
      fc.record({ name: names, spec: specArbitraries[c.name] as fc.Arbitrary<Record<string, unknown>> }).map(({ name, spec }) => {
        const parent = parentOf(c, name, spec);
        return { composition: c, parent, related: configMapsFor(parent) };
      }),
    );
    let conflicts = 0;
    fc.assert(
      fc.property(side, side, fc.constantFrom(undefined, 'openshift', 'gateway-api'), (a, b, variant) => {
        fc.pre(a.composition !== b.composition || a.parent.metadata.name !== b.parent.metadata.name);
        for (const [x, y] of [
          [a, b],
          [b, a],
        ] as const) {
          const v = variant && y.composition.variants?.some((w) => w.name === variant) ? variant : undefined;
          const { first, second } = secondParent(x, y, v);
          const firstKeys = new Set(first.map(key));
          // model-serving-config is shared on purpose: only one TrustyAIService writes it.
          const clash = (k: string) => firstKeys.has(k) && k !== 'ConfigMap/model-serving-config';
          expect(second.children.map(key).filter(clash)).toEqual([]);
          // Whenever B alone would want one of A's children, B says so.
          const alone = runSync(y.composition, { parent: y.parent, related: y.related, variant: v });
          if (alone.children.map(key).some(clash)) {
            conflicts++;
            expect(second.condition('Ready')).toMatchObject({ status: 'False', reason: CHILD_NAME_CONFLICT });
          }
          // Objects of another namespace carrying B's child names, owned by strangers, offered to B
          // as Metacontroller v2 offers a rule without a namespace: never a conflict, never mentioned.
          const strangers = [...first, ...alone.children].map((c) => ({
            ...c,
            metadata: {
              ...c.metadata,
              namespace: OTHER_NS,
              ownerReferences: [{ apiVersion: 'x.dev/v1', kind: 'Stranger', name: 'stranger', uid: 'uid-stranger', controller: true }],
            },
          }));
          const offered = runSync(y.composition, { parent: y.parent, related: [...(y.related ?? []), ...strangers], variant: v });
          expect(offered.children).toEqual(alone.children);
          expect(JSON.stringify(offered.status)).not.toContain(OTHER_NS);
          expect(JSON.stringify(offered.status)).not.toContain('Stranger');
          if (!alone.children.map(key).some((k) => firstKeys.has(k))) expect(second.condition('Ready')?.reason).not.toBe(CHILD_NAME_CONFLICT);
        }
      }),
      { numRuns: 300 },
    );
    // The names are chosen so that collisions happen: the property was exercised.
    expect(conflicts).toBeGreaterThan(0);
  });
});
