import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import { isRecord, type KubeObject } from '../../hooks/kit/index.js';
import { podSecurityViolations } from '../../hooks/inferenceservice/input/pod-security-standards.js';
import { runSync } from '../../hooks/testing/index.js';
import { specArbitraries } from '../support/arbitraries.js';
import { inferenceserviceSpecWithSecurity } from './inferenceservice.arb.js';

const RUNS = 500;
// The restricted level asked for (the default builds pods as KServe does: a Namespace's enforce label decides).
const config = loadConfig({ MODELHOOKS_POD_SECURITY: 'restricted' }).hooks;

/** The pod templates of a composition's children (Deployments, Jobs, …). */
function podsOf(children: KubeObject[]): Array<{ id: string; pod: Record<string, unknown> }> {
  return children.flatMap((c) => {
    const spec = (c as { spec?: { template?: { spec?: unknown } } }).spec;
    return isRecord(spec?.template?.spec) ? [{ id: `${c.kind}/${c.metadata.name}`, pod: spec.template.spec }] : [];
  });
}

/** The value at `spec.a.b[0].c["key"]` in the parent (undefined when the path leads nowhere). */
function valueAt(root: Record<string, unknown>, path: string): unknown {
  const steps = [...path.matchAll(/\.([A-Za-z0-9_]+)|\[(\d+)\]|\["([^"]+)"\]/g)].map((m) => m[1] ?? (m[2] !== undefined ? Number(m[2]) : m[3]));
  let here: unknown = root;
  for (const step of [path.split(/[.[]/)[0], ...steps]) {
    if (!isRecord(here) && !Array.isArray(here)) return undefined;
    here = (here as Record<string | number, unknown>)[step as string];
  }
  return here;
}

describe('pod security of every composition', () => {
  for (const composition of builtinCompositions) {
    const specs = specArbitraries[composition.name];
    if (!specs) continue;
    it(`${composition.name}: every pod of a valid spec keeps the restricted level`, () => {
      fc.assert(
        fc.property(specs, (spec) => {
          const parent = {
            apiVersion: `${composition.parent.group}/${composition.parent.versions[0]}`,
            kind: composition.parent.kind,
            metadata: { name: 'p', namespace: 'ns', generation: 1, uid: 'u' },
            spec,
          };
          for (const { id, pod } of podsOf(runSync(composition, { parent, config }).children)) {
            expect(podSecurityViolations(pod, 'restricted', id)).toEqual([]);
          }
        }),
        { numRuns: RUNS / 5 },
      );
    });
  }

  it(`inferenceservice: ${RUNS} specs with random security fields are either restricted or InvalidSpec naming fields the spec has`, () => {
    let refused = 0;
    let checked = 0;
    fc.assert(
      fc.property(inferenceserviceSpecWithSecurity, (spec) => {
        const parent = {
          apiVersion: 'serving.kserve.io/v1beta1',
          kind: 'InferenceService',
          metadata: { name: 'p', namespace: 'ns', generation: 1, uid: 'u' },
          spec,
        };
        const out = runSync(inferenceservice, { parent, config });
        const ready = out.condition('Ready');
        if (ready?.reason === 'InvalidSpec') {
          refused++;
          const problems = (ready.message ?? '').split('; ');
          for (const problem of problems) {
            const [path = '', message = ''] = problem.split(': ');
            expect(message, problem).toMatch(/restricted pod security level \(MODELHOOKS_POD_SECURITY\)/);
            expect(valueAt({ spec }, path), problem).not.toBeUndefined();
          }
          expect(out.children).toEqual([]);
          return;
        }
        // (A model no runtime serves has no pods: nothing to check.)
        for (const { id, pod } of podsOf(out.children)) {
          checked++;
          expect(podSecurityViolations(pod, 'restricted', id)).toEqual([]);
        }
      }),
      { numRuns: RUNS },
    );
    // Both outcomes occur: the arbitrary is not all-forbidden or all-allowed.
    expect(refused).toBeGreaterThan(RUNS / 10);
    expect(refused).toBeLessThan(RUNS);
    expect(checked).toBeGreaterThan(RUNS / 10);
  });
});
