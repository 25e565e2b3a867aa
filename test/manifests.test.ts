import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../hooks/compositions.js';
import { checkManifests, IN_CLUSTER_HOOK_URL, IN_CLUSTER_HTTPS_HOOK_URL, manifestFiles } from '../hooks/cli/manifests.js';
import { defineComposition } from '../hooks/kit/index.js';
import {
  childTypesFor,
  compositeControllerFor,
  decoratorControllerFor,
  crdFor,
  DEFAULT_VARIANT,
  METACONTROLLER_RELIST_SECONDS,
  parseVariants,
  variantNames,
  variantProblems,
} from '../hooks/engine/manifests.js';
import { loadYamlFile } from './support/reference.js';
import { readKustomization } from './deploy/kustomize.js';
import { parse as parseYaml } from 'yaml';
import { expectValid } from './support/validate.js';

const root = path.resolve(import.meta.dirname, '..');
const named = variantNames(builtinCompositions).filter((v) => v !== DEFAULT_VARIANT);
/** `default`, each variant, and every combination of them. */
const selections = [[], ...named.reduce<string[][]>((acc, v) => [...acc, [v], ...acc.map((s) => [...s, v])], [])].map((s) =>
  s.length === 0 ? DEFAULT_VARIANT : s.join(','),
);

/** Every place in a CRD schema that Kubernetes' structural-schema rules forbid. */
function structuralProblems(node: Record<string, unknown>, at: string): string[] {
  const problems: string[] = [];
  for (const banned of ['$ref', 'anyOf', 'oneOf', 'allOf', 'not', 'const', '$schema']) if (banned in node) problems.push(`${at}: ${banned}`);
  const typed = typeof node.type === 'string' || node['x-kubernetes-int-or-string'] === true || node['x-kubernetes-preserve-unknown-fields'] === true;
  if (!typed) problems.push(`${at}: no type`);
  if (node.properties && node.additionalProperties) problems.push(`${at}: properties and additionalProperties`);
  for (const [k, v] of Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>))
    problems.push(...structuralProblems(v, `${at}.${k}`));
  if (node.items) problems.push(...structuralProblems(node.items as Record<string, unknown>, `${at}[]`));
  if (node.additionalProperties && typeof node.additionalProperties === 'object') {
    problems.push(...structuralProblems(node.additionalProperties as Record<string, unknown>, `${at}.*`));
  }
  return problems;
}

describe('generated manifests', () => {
  it('crds/ and compositions/ are what the definitions generate (`modelhooks manifests --check`)', () => {
    expect(checkManifests(root, manifestFiles(builtinCompositions))).toEqual([]);
  });

  for (const c of builtinCompositions) {
    describe(c.name, () => {
      const crd = crdFor(c) as { spec: { versions: Array<Record<string, any>>; names: Record<string, unknown> } };
      it('has a structural schema on every version, the status subresource and printer columns', () => {
        for (const v of crd.spec.versions) {
          expect(structuralProblems(v.schema.openAPIV3Schema, v.name)).toEqual([]);
          expect(v.subresources).toEqual({ status: {} });
          expect(v.additionalPrinterColumns.map((col: { name: string }) => col.name)).toContain('Age');
        }
        expect(crd.spec.versions.filter((v) => v.storage)).toHaveLength(1);
      });

      for (const variant of selections) {
        it(`${variant}: the CompositeController is valid and declares what the hook may emit`, () => {
          const cc = compositeControllerFor(c, variant, { hookBaseUrl: 'http://x' }) as { spec: Record<string, any> };
          expectValid(cc);
          expect(cc.spec.generateSelector).toBe(true);
          expect(cc.spec.hooks.sync.version).toBe('v2');
          expect(cc.spec.hooks.sync.webhook.etag.enabled).toBe(true);
          expect(Boolean(cc.spec.hooks.customize)).toBe(Boolean(c.customize));
          const declared = cc.spec.childResources.map((r: { apiVersion: string; resource: string }) => `${r.apiVersion}/${r.resource}`);
          expect(declared).toEqual(childTypesFor(c, variant).map((t) => `${t.apiVersion}/${t.resource}`));
          // OnDelete never applies a change: only for kinds whose spec is immutable once created.
          const immutable = new Set(['batch/v1/jobs', 'v1/persistentvolumeclaims']);
          for (const r of cc.spec.childResources) {
            if (r.updateStrategy.method === 'OnDelete') expect(immutable.has(`${r.apiVersion}/${r.resource}`), r.resource).toBe(true);
            else expect(r.updateStrategy.method).toBe('InPlace');
          }
          for (const t of c.children) expect(declared).toContain(`${t.apiVersion}/${t.resource}`);
          expect(new Set(declared).size, 'no child type twice').toBe(declared.length);
          // Every variant's children are there: combining never drops one.
          for (const v of parseVariants(variant)) for (const t of childTypesFor(c, v)) expect(declared).toContain(`${t.apiVersion}/${t.resource}`);
        });
      }

      it('has variants that combine: no child type in two of them, each an optional child', () => {
        expect(variantProblems(c)).toEqual([]);
      });
    });
  }
});

describe('compositions/ as installed', () => {
  const baseDir = path.join(root, 'compositions', 'base');
  const generated = readdirSync(baseDir)
    .filter((f) => f !== 'kustomization.yaml')
    .flatMap((f) => loadYamlFile(path.join(baseDir, f)).map((o) => ({ file: f, cc: o as { kind: string; spec: Record<string, any> } })));

  it('holds one default CompositeController per composition, and its DecoratorController beside it where it has one', () => {
    const of = (kind: string) =>
      generated
        .filter((g) => g.cc.kind === kind)
        .map((g) => g.file)
        .sort();
    expect(of('CompositeController')).toEqual(builtinCompositions.map((c) => `${c.name}.yaml`).sort());
    expect(of('DecoratorController')).toEqual(builtinCompositions.filter((c) => c.decorator).map((c) => `${c.name}.yaml`));
    expect(generated.filter((g) => g.cc.kind === 'DecoratorController').map((g) => g.cc)).toEqual(
      builtinCompositions.flatMap((c) => decoratorControllerFor(c, { hookBaseUrl: IN_CLUSTER_HOOK_URL }) ?? []),
    );
  });

  // Metacontroller stores a hook answer with its ETag on a 200 and does not extend it on a 304
  // (pkg/hooks/webhook_etag.go): an entry that expires before the next resync makes every
  // steady-state call a full 200.
  it.each(generated.map((g) => [g.file, g.cc] as const))('%s: every ETag cache entry outlives two resync periods', (_file, cc) => {
    const resync = (cc.spec.resyncPeriodSeconds as number | undefined) ?? METACONTROLLER_RELIST_SECONDS;
    const hooks = Object.entries(
      cc.spec.hooks as Record<string, { webhook: { etag: { enabled: boolean; cacheTimeoutSeconds: number; cacheCleanupSeconds: number } } }>,
    );
    expect(hooks.length).toBeGreaterThan(0);
    for (const [name, hook] of hooks) {
      expect(hook.webhook.etag.enabled, name).toBe(true);
      expect(hook.webhook.etag.cacheTimeoutSeconds, name).toBeGreaterThanOrEqual(2 * resync + 60);
    }
  });

  it("assumes Metacontroller's default relist of 30 minutes where a composition sets no resync period", () => {
    expect(METACONTROLLER_RELIST_SECONDS).toBe(30 * 60);
    expect(generated.some((g) => g.cc.spec.resyncPeriodSeconds === undefined)).toBe(true);
  });

  it.each(named.map((v) => [v]))('compositions/components/%s is a Component that only appends child types', (variant) => {
    const k = readKustomization(path.join(root, 'compositions', 'components', variant));
    expect(k.apiVersion).toBe('kustomize.config.k8s.io/v1alpha1');
    expect(k.kind).toBe('Component');
    expect(k.patches?.length).toBeGreaterThan(0);
    for (const p of k.patches ?? []) {
      expect(p.target).toMatchObject({ group: 'metacontroller.k8s.io', version: 'v1alpha1', kind: 'CompositeController' });
      const ops = loadOps(p.patch as string);
      for (const op of ops) expect(op).toMatchObject({ op: 'add', path: '/spec/childResources/-' });
    }
  });
});

function loadOps(patch: string): Array<Record<string, unknown>> {
  // The patch is YAML: a list of operations.
  return JSON.parse(JSON.stringify(parseYaml(patch))) as Array<Record<string, unknown>>;
}

describe('variant names', () => {
  it('are one name, a comma list or an array; default alone is none', () => {
    expect(parseVariants(undefined)).toEqual([]);
    expect(parseVariants('default')).toEqual([]);
    expect(parseVariants('openshift')).toEqual(['openshift']);
    expect(parseVariants('openshift, prometheus,openshift')).toEqual(['openshift', 'prometheus']);
    expect(parseVariants(['openshift', 'prometheus,gateway-api'])).toEqual(['openshift', 'prometheus', 'gateway-api']);
    expect(() => parseVariants('default,openshift')).toThrow(/cannot be combined/);
    expect(() => parseVariants('Open Shift')).toThrow(/invalid variant name/);
  });

  it('are the same for every kind: one a composition does not declare adds nothing to it', () => {
    for (const c of builtinCompositions) {
      const declared = new Set((c.variants ?? []).map((v) => v.name));
      for (const v of named.filter((n) => !declared.has(n))) expect(childTypesFor(c, v)).toEqual(c.children);
    }
  });

  it('refuses variants that would declare a child twice when combined', () => {
    const route = { apiVersion: 'route.openshift.io/v1', kind: 'Route', resource: 'routes' };
    const c = defineComposition({
      ...builtinCompositions[0]!,
      optionalChildren: [route],
      variants: [
        { name: 'a', description: 'a', optionalChildren: ['routes'] },
        { name: 'b', description: 'b', optionalChildren: ['routes', 'widgets'] },
      ],
    });
    expect(variantProblems(c)).toEqual([
      `${c.name}: routes is in variants a and b; combined they would declare it twice`,
      `${c.name}: variant b names widgets, not an optional child`,
    ]);
    expect(() => manifestFiles([c])).toThrow(/variants that cannot combine/);
  });

  it('writes compositions/components/https: a replace of every hook URL of every CompositeController to the HTTPS one', () => {
    const file = manifestFiles(builtinCompositions).get('compositions/components/https/kustomization.yaml');
    const component = parseYaml(file ?? '') as { kind: string; patches: { target: { name: string }; patch: string }[] };
    expect(component.kind).toBe('Component');
    const expected = builtinCompositions.flatMap((c) => {
      const cc = compositeControllerFor(c, DEFAULT_VARIANT, { hookBaseUrl: IN_CLUSTER_HOOK_URL }) as {
        metadata: { name: string };
        spec: { hooks: Record<string, { webhook: { url: string } }> };
      };
      return Object.entries(cc.spec.hooks).map(([hook, h]) => ({
        name: cc.metadata.name,
        path: `/spec/hooks/${hook}/webhook/url`,
        value: h.webhook.url.replace('http://', 'https://'),
      }));
    });
    // Then the DecoratorControllers' hooks.
    for (const c of builtinCompositions) {
      const dc = decoratorControllerFor(c, { hookBaseUrl: IN_CLUSTER_HOOK_URL }) as
        | { metadata: { name: string }; spec: { hooks: Record<string, { webhook: { url: string } }> } }
        | undefined;
      for (const [hook, h] of Object.entries(dc?.spec.hooks ?? {}))
        expected.push({ name: dc?.metadata.name ?? '', path: `/spec/hooks/${hook}/webhook/url`, value: h.webhook.url.replace('http://', 'https://') });
    }
    const patched = component.patches.flatMap((p) =>
      (parseYaml(p.patch) as { op: string; path: string; value: string }[]).map((op) => {
        expect(op.op).toBe('replace');
        return { name: p.target.name, path: op.path, value: op.value };
      }),
    );
    expect(patched).toEqual(expected);
    expect(patched.every((p) => p.value.startsWith(`${IN_CLUSTER_HTTPS_HOOK_URL}/hooks/`))).toBe(true);
    // Generated for the in-cluster URL only: another base URL has no Service of deploy/ behind it.
    expect(manifestFiles(builtinCompositions, 'http://localhost:8080').has('compositions/components/https/kustomization.yaml')).toBe(false);
  });

  it('refuses a variant named https, the name of the TLS URLs component', () => {
    const route = { apiVersion: 'route.openshift.io/v1', kind: 'Route', resource: 'routes' };
    const c = defineComposition({
      ...builtinCompositions[0]!,
      optionalChildren: [route],
      variants: [{ name: 'https', description: 'x', optionalChildren: ['routes'] }],
    });
    expect(() => manifestFiles([c])).toThrow(/cannot be named https/);
  });
});
