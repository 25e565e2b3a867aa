/**
 * The golden pairs namespace-team-a / namespace-team-b: the same parent in two namespaces with
 * different modelhooks.dev/* annotations gets different images, hosts, ingress classes and
 * gateways; image-not-allowed keeps exactly what runs.
 */
import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../hooks/compositions.js';
import type { KubeObject } from '../hooks/kit/index.js';
import { containerImages } from '../hooks/engine/namespace-settings.js';
import { runSync } from '../hooks/testing/index.js';
import { goldenCases } from './support/golden.js';

const run = (composition: string, name: string) => {
  const c = goldenCases(composition).find((g) => g.name === name);
  if (!c) throw new Error(`${composition}/${name}: no such golden case`);
  return { options: c.options, out: runSync(builtinCompositions.find((b) => b.name === composition) as (typeof builtinCompositions)[number], c.options) };
};
const images = (children: KubeObject[]) => children.flatMap(containerImages).map((c) => c.image);

for (const composition of builtinCompositions.map((c) => c.name)) {
  describe(`${composition}: one parent, two namespaces`, () => {
    const a = run(composition, 'namespace-team-a').out;
    const b = run(composition, 'namespace-team-b').out;
    it("pulls every image it chooses from its namespace's registry", () => {
      expect(images(a.children).length).toBeGreaterThan(0);
      expect(images(a.children).every((i) => i.startsWith('registry.team-a.corp/'))).toBe(true);
      expect(images(b.children).every((i) => i.startsWith('mirror.team-b.corp:5000/hub/'))).toBe(true);
    });
    it('an image outside allowed-images: ImageNotAllowed, the observed children answered unchanged', () => {
      const { options, out } = run(composition, 'image-not-allowed');
      expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: 'ImageNotAllowed' });
      const kept = (options.observed ?? []).map((o) => `${o.kind}/${o.metadata.name}`).sort();
      expect(out.children.map((c) => `${c.kind}/${c.metadata.name}`).sort()).toEqual(kept);
    });
  });
}

describe('inferenceservice: hosts, ingress classes and gateways per namespace', () => {
  const ingress = (name: string) =>
    run('inferenceservice', name).out.childrenOf<{ spec: { ingressClassName?: string; rules: Array<{ host: string }> } }>('Ingress')[0];
  const routes = (name: string) =>
    run('inferenceservice', name).out.childrenOf<{ spec: { hostnames: string[]; parentRefs: Array<{ namespace: string; name: string }> } }>('HTTPRoute');
  it('different hosts and classes', () => {
    const [a, b] = [ingress('namespace-team-a'), ingress('namespace-team-b')];
    expect([a?.spec.ingressClassName, b?.spec.ingressClassName]).toEqual(['nginx-team-a', 'haproxy-b']);
    expect(a?.spec.rules.map((r) => r.host)).toContain('sklearn-model-team-a.team-a.ml.corp');
    expect(b?.spec.rules.map((r) => r.host)).toContain('sklearn-model.team-b.ml.team-b.corp');
  });
  it('different gateways', () => {
    expect(routes('namespace-team-a-gateway').flatMap((r) => r.spec.parentRefs.map((p) => `${p.namespace}/${p.name}`))).toContain('team-a/gw-a');
    expect(new Set(routes('namespace-team-b-gateway').flatMap((r) => r.spec.parentRefs.map((p) => `${p.namespace}/${p.name}`)))).toEqual(
      new Set(['gateways/team-b']),
    );
  });
  it('the URL scheme of the namespace: a URL already reported with it is kept, one with another scheme is not', () => {
    // status.url is set once the Ingress exists (KServe); until then a previous one is kept only if it is still right.
    const withUrl = (name: string, url: string) => {
      const c = goldenCases('inferenceservice').find((g) => g.name === name)?.options;
      const parent = c?.parent as KubeObject;
      return runSync(builtinCompositions.find((b) => b.name === 'inferenceservice') as (typeof builtinCompositions)[number], {
        ...c,
        parent: { ...parent, status: { url } },
      }).status.url;
    };
    expect(withUrl('namespace-team-a', 'https://sklearn-model-team-a.team-a.ml.corp')).toBe('https://sklearn-model-team-a.team-a.ml.corp');
    expect(withUrl('namespace-team-a', 'http://sklearn-model-team-a.team-a.ml.corp')).toBeUndefined();
    expect(withUrl('namespace-team-b', 'http://sklearn-model.team-b.ml.team-b.corp')).toBe('http://sklearn-model.team-b.ml.team-b.corp');
  });
});
