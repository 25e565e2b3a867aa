import { beforeAll, describe, expect, it } from 'vitest';
import { kube } from './support/context.js';
import { compositionManifests, installCrds } from './support/install.js';

const manifests = compositionManifests();

interface ResourceRef {
  apiVersion: string;
  resource: string;
}

describe('compositions/', () => {
  const k = kube();
  beforeAll(() => installCrds(k));

  it('holds the CompositeController manifests', () => {
    expect(manifests, 'compositions/ is empty or missing: run `npm run manifests`').not.toHaveLength(0);
  });

  // Metacontroller's CRD validates each one; strict field validation catches unknown fields.
  it.each(manifests.map((m) => [`${m.file}: ${m.obj.kind} ${m.obj.metadata.name}`, m.obj] as const))(
    'applies %s',
    async (_, obj) => {
      const applied = await k.apply(obj);
      expect(applied.metadata.name).toBe(obj.metadata.name);
    },
  );

  // A resource the cluster does not serve makes Metacontroller skip the controller at runtime.
  it.each(manifests.map((m) => [`${m.file}: ${m.obj.metadata.name}`, m.obj] as const))(
    'names only resources the API server serves: %s',
    async (_, obj) => {
      const spec = obj.spec as { parentResource: ResourceRef; childResources?: ResourceRef[] };
      for (const ref of [spec.parentResource, ...(spec.childResources ?? [])]) {
        expect(await k.kindOf(ref.apiVersion, ref.resource), `${ref.apiVersion} ${ref.resource}`).toBeTruthy();
      }
    },
  );
});
