import { describe, expect, it } from 'vitest';
import { kube } from './support/context.js';
import { installCrd, ourCrds, referenceCrds, type Crd } from './support/install.js';

const ours = ourCrds();

describe('CRDs', () => {
  it('crds/ holds our generated CRDs', () => {
    expect(
      ours.map((c) => c.metadata.name),
      'crds/ is empty or missing: run `npm run manifests`',
    ).not.toHaveLength(0);
  });

  describe('are accepted by the API server and Established', () => {
    const k = kube();

    it.each([...ours, ...referenceCrds()].map((c) => [c.metadata.name, c] as const))('%s', async (name, crd) => {
      await installCrd(k, crd);
      const stored = await k.call<Crd & { status: { acceptedNames: { kind: string } } }>(
        'GET',
        `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`,
      );
      expect(stored.status.acceptedNames.kind).toBe(crd.spec.names.kind);
    });
  });
});
