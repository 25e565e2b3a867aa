import { beforeAll, describe, expect, it } from 'vitest';
import { kube } from './support/context.js';
import { installCrds, ourCrds, referenceCrds } from './support/install.js';

const ours = ourCrds();

describe('CRDs', () => {
  it('crds/ holds our generated CRDs', () => {
    expect(ours.map((c) => c.metadata.name), 'crds/ is empty or missing: run `npm run manifests`').not.toHaveLength(0);
  });

  describe('are accepted by the API server and Established', () => {
    const k = kube();
    // Our CRDs and the upstream ones they depend on are applied together, as a cluster would.
    beforeAll(() => installCrds(k));

    it.each([...ours, ...referenceCrds()].map((c) => [c.metadata.name]))('%s', async (name) => {
      await k.waitForCrdEstablished(name);
      const crd = await k.call<{ status: { acceptedNames: { kind: string } } }>(
        'GET',
        `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`,
      );
      expect(crd.status.acceptedNames.kind).not.toBe('');
    });
  });
});
