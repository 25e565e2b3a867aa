import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../hooks/compositions.js';
import { checkManifests, manifestFiles } from '../hooks/cli/manifests.js';
import { childTypesFor, compositeControllerFor, crdFor, variantNames } from '../hooks/kit/index.js';
import { expectValid } from './support/validate.js';

const root = path.resolve(import.meta.dirname, '..');

/** Every place in a CRD schema that Kubernetes' structural-schema rules forbid. */
function structuralProblems(node: Record<string, unknown>, at: string): string[] {
  const problems: string[] = [];
  for (const banned of ['$ref', 'anyOf', 'oneOf', 'allOf', 'not', 'const', '$schema']) if (banned in node) problems.push(`${at}: ${banned}`);
  const typed = typeof node.type === 'string' || node['x-kubernetes-int-or-string'] === true || node['x-kubernetes-preserve-unknown-fields'] === true;
  if (!typed) problems.push(`${at}: no type`);
  if (node.properties && node.additionalProperties) problems.push(`${at}: properties and additionalProperties`);
  for (const [k, v] of Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>)) problems.push(...structuralProblems(v, `${at}.${k}`));
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

      for (const variant of variantNames(builtinCompositions)) {
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
        });
      }
    });
  }
});
