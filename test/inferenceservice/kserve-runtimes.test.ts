import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INFERENCESERVICE_IMAGES } from '../../hooks/inferenceservice/config.js';
import { kserveRuntimes } from '../../hooks/inferenceservice/runtime/kserve-runtimes.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { loadYamlFile, repoRoot, vendorDir } from '../support/reference.js';
import { expectValid } from '../support/validate.js';

/*
 * The built-in runtimes are KServe v0.20.0's config/runtimes/*.yaml (vendored as
 * test/vendor/samples/kserveruntime-*.yaml), field for field; only the image differs: the
 * kustomization's image (newName, and newTag `latest` pinned to the release, v0.20.0) in
 * place of `<name>:replace`.
 */
const dir = path.join(vendorDir(), 'samples');
const upstream = readdirSync(dir)
  .filter((f) => f.startsWith('kserveruntime-kserve-'))
  .flatMap((f) => loadYamlFile(path.join(dir, f))) as Array<{ metadata: { name: string; annotations?: Record<string, string> }; spec: unknown }>;
const [kustomization] = loadYamlFile(path.join(vendorDir(), 'kserve', 'config-runtimes-kustomization.yaml')) as unknown as Array<{
  resources: string[];
  images: Array<{ name: string; newName: string; newTag: string }>;
}>;
const builtin = kserveRuntimes(INFERENCESERVICE_IMAGES);
const imageOf = (replace: string) => {
  const name = replace.replace(/:replace$/, '');
  const entry = kustomization?.images.find((i) => i.name === name);
  return entry ? `${entry.newName}:${entry.newTag === 'latest' && entry.newName.startsWith('kserve/') ? 'v0.20.0' : entry.newTag}` : undefined;
};
const withoutImages = (spec: any) => ({ ...spec, containers: spec.containers.map(({ image: _i, ...c }: any) => c) });

describe("the built-in runtimes are KServe v0.20.0's shipped ClusterServingRuntimes", () => {
  it('one per resource of config/runtimes/kustomization.yaml, in its order', () => {
    expect(builtin.map((r) => `${r.metadata.name}.yaml`)).toEqual(kustomization?.resources);
  });
  it.each(upstream.filter((u) => u.metadata.name !== 'kserve-huggingfaceserver-multinode').map((u) => [u.metadata.name, u] as const))(
    '%s: same spec and annotations',
    (name, u) => {
      const ours = builtin.find((r) => r.metadata.name === name);
      expect(ours?.metadata.annotations).toEqual(u.metadata.annotations);
      expect(withoutImages(ours?.spec)).toEqual(withoutImages(u.spec));
      expect(ours?.spec.containers?.[0]?.image).toBe(imageOf((u.spec as any).containers[0].image));
    },
  );
  it('the multi-node runtime: formats, protocols and a workerSpec (so selection skips it as KServe does)', () => {
    const u = upstream.find((x) => x.metadata.name === 'kserve-huggingfaceserver-multinode') as any;
    const ours = builtin.find((r) => r.metadata.name === u.metadata.name);
    expect(ours?.spec.supportedModelFormats).toEqual(u.spec.supportedModelFormats);
    expect(ours?.spec.protocolVersions).toEqual(u.spec.protocolVersions);
    expect(ours?.spec.workerSpec).toBeDefined();
    expect(ours?.spec.containers?.[0]?.image).toBe('kserve/huggingfaceserver:v0.20.0-gpu');
  });
});

describe("KServe's own CRDs accept the runtimes modelhooks ships and shows", () => {
  it.each(builtin.map((r) => [r.metadata.name, r] as const))('built-in %s', (_, r) => expectValid(r as unknown as KubeObject), 20_000);
  it('(the check has teeth: a runtime KServe would refuse is refused)', () => {
    expect(() =>
      expectValid({ apiVersion: 'serving.kserve.io/v1alpha1', kind: 'ClusterServingRuntime', metadata: { name: 'x' }, spec: { containers: 'nope' } }),
    ).toThrow();
  });
  it('examples/servingruntime.yaml', () => {
    for (const o of loadYamlFile(path.join(repoRoot(), 'examples', 'servingruntime.yaml'))) expectValid(o);
  }, 20_000);
});
