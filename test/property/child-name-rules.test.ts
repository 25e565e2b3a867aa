/**
 * Conflict detection sees only what customize asks for: a child whose (kind, name) no rule
 * names would never be seen held by another owner, and two parents could emit it both
 * (Metacontroller swallows the AlreadyExists). So, over random parents of every composition
 * with every variant, every child emitted on the way to convergence is named, by kind, by a
 * customize rule in the parent's namespace.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { defaultHookConfig } from '../../hooks/server/config.js';
import type { AnyComposition, KubeObject, RelatedRule } from '../../hooks/kit/index.js';
import { converge, runCustomize } from '../../hooks/testing/index.js';
import { specArbitraries } from '../support/arbitraries.js';

const RUNS = 60;
const config = defaultHookConfig();
const NS = 'tenant';
const names = fc.oneof(fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?$/), fc.constantFrom('foo.bar', '1foo', 'x'.repeat(70), `a.${'b'.repeat(60)}`));

/** A Tfserv's ConfigMap, so that a Tfserv emits its Deployment too. */
function relatedFor(parent: KubeObject): KubeObject[] {
  const spec = parent.spec as { configMap?: string; configFileName?: string };
  if (parent.kind !== 'Tfserv' || !spec.configMap) return [];
  const models = 'model_config_list { config { name: "m" base_path: "/models/m" model_platform: "tensorflow" } }';
  return [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: spec.configMap, namespace: NS },
      data: { [spec.configFileName ?? 'models.conf']: models },
    } as KubeObject,
  ];
}

function resourceOf(composition: AnyComposition, child: KubeObject): string | undefined {
  return [...composition.children, ...(composition.optionalChildren ?? [])].find((t) => t.apiVersion === child.apiVersion && t.kind === child.kind)?.resource;
}

for (const composition of builtinCompositions as AnyComposition[]) {
  const specs = specArbitraries[composition.name];
  const variant = composition.variants?.map((v) => v.name) ?? [];
  describe(`${composition.name}: customize names every child it may emit`, () => {
    it('every child of a converging parent is asked for by name, by kind, in the namespace', () => {
      if (!specs) throw new Error(`no spec arbitrary for ${composition.name}`);
      let checked = 0;
      fc.assert(
        fc.property(specs, names, (spec, name) => {
          const { group, versions, kind } = composition.parent;
          const parent = { apiVersion: `${group}/${versions[0]}`, kind, metadata: { name, namespace: NS, uid: 'uid-p', generation: 1 }, spec } as KubeObject;
          const options = { parent, config, related: relatedFor(parent), ...(variant.length > 0 ? { variant } : {}) };
          const rules: RelatedRule[] = runCustomize(composition, options);
          const { result } = converge(composition, { ...options, maxRounds: 12 });
          for (const child of result.children) {
            const resource = resourceOf(composition, child);
            const asked = rules.some(
              (r) => r.apiVersion === child.apiVersion && r.resource === resource && r.namespace === NS && (r.names ?? []).includes(child.metadata.name),
            );
            expect(asked, `${child.kind}/${child.metadata.name} is not named by any customize rule`).toBe(true);
            checked++;
          }
        }),
        { numRuns: RUNS },
      );
      expect(checked).toBeGreaterThan(0);
    });
  });
}
