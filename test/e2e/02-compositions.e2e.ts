import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binDir, kube } from './support/context.js';
import { fromRoot, subdirs } from './support/files.js';
import { compositionManifests, installCrds } from './support/install.js';
import type { KubeObject } from './support/kube.js';

interface ResourceRef {
  apiVersion: string;
  resource: string;
}

// compositions/base and its components as kustomize combines them: each component alone, the
// combination docs/install.md shows, and all of them (the variants' and `https`, the TLS hook URLs).
const components = subdirs(fromRoot('compositions', 'components'));
const combinations = [[], ...components.map((c) => [c]), ['openshift', 'prometheus'], components];
const scratch = mkdtempSync(path.join(tmpdir(), 'modelhooks-e2e-compositions-'));
cpSync(fromRoot('compositions'), path.join(scratch, 'compositions'), { recursive: true });

function build(enabled: string[], i: number): KubeObject[] {
  const dir = path.join(scratch, `combination-${i}`);
  cpSync(path.join(scratch, 'compositions'), path.join(dir, 'compositions'), { recursive: true });
  const kustomization = {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    resources: ['compositions/base'],
    components: enabled.map((c) => `compositions/components/${c}`),
  };
  writeFileSync(path.join(dir, 'kustomization.yaml'), stringify(kustomization));
  const out = execFileSync(path.join(binDir(), 'kustomize'), ['build', dir], { encoding: 'utf8', stdio: 'pipe' });
  return parseAllDocuments(out)
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null);
}

describe('compositions/', () => {
  const k = kube();
  beforeAll(() => installCrds(k));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('holds the CompositeController manifests, a component per variant and the https one', () => {
    expect(compositionManifests(), 'compositions/ is empty or missing: run `npm run manifests`').not.toHaveLength(0);
    expect(components).toEqual(['cert-manager', 'gateway-api', 'https', 'openshift', 'prometheus']);
  });

  describe.each(combinations.map((enabled, i) => [enabled.length === 0 ? 'base' : `base + ${enabled.join(' + ')}`, enabled, i] as const))(
    '%s',
    (_name, enabled, i) => {
      const manifests = build(enabled, i);

      it('builds one CompositeController per composition, and the DecoratorControllers beside them', () => {
        expect(manifests.length).toBeGreaterThan(0);
        expect(manifests.every((m) => m.kind === 'CompositeController' || m.kind === 'DecoratorController')).toBe(true);
        expect(manifests.filter((m) => m.kind === 'DecoratorController').map((m) => m.metadata.name)).toEqual(['modelhooks-inferenceservice-credentials']);
      });

      it(`calls every hook over ${enabled.includes('https') ? 'https' : 'http'}`, () => {
        const urls = manifests.flatMap((m) =>
          Object.values((m.spec as { hooks: Record<string, { webhook: { url: string } }> }).hooks).map((h) => h.webhook.url),
        );
        expect(urls.length).toBeGreaterThan(manifests.length);
        for (const url of urls) expect(new URL(url).protocol).toBe(enabled.includes('https') ? 'https:' : 'http:');
      });

      // Metacontroller's CRD validates each one; strict field validation catches unknown fields.
      it.each(manifests.map((m) => [m.metadata.name, m] as const))('applies %s', async (_, obj) => {
        const applied = await k.apply(obj);
        expect(applied.metadata.name).toBe(obj.metadata.name);
      });

      // A resource the cluster does not serve makes Metacontroller skip the controller at runtime.
      it.each(manifests.map((m) => [m.metadata.name, m] as const))('names only resources the API server serves, each once: %s', async (_, obj) => {
        const spec = obj.spec as { parentResource?: ResourceRef; childResources?: ResourceRef[]; resources?: ResourceRef[] };
        // A DecoratorController names `resources` (and no children here).
        for (const ref of [...(spec.parentResource ? [spec.parentResource] : []), ...(spec.resources ?? []), ...(spec.childResources ?? [])]) {
          expect(await k.kindOf(ref.apiVersion, ref.resource), `${ref.apiVersion} ${ref.resource}`).toBeTruthy();
        }
        const children = (spec.childResources ?? []).map((r) => `${r.apiVersion}/${r.resource}`);
        expect(new Set(children).size).toBe(children.length);
      });
    },
  );
});
