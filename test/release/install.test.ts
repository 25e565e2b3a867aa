// dist/release/install.yaml (`npm run release`): the objects of `kustomize build deploy/` in one file that
// `kubectl apply -f` applies in one pass. `npm run release` builds it with the kustomize binary;
// here the same functions run on test/deploy/kustomize.ts's model of it (which deploy.test.ts
// checks against the binary), so this needs no Go.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { installManifest, installProblems } from '../../release/install.js';
import { build } from '../deploy/kustomize.js';
import { loadYamlFile, repoRoot } from '../support/reference.js';

const root = repoRoot();
const objects = build(path.join(root, 'deploy'));
const text = installManifest(objects, '0.2.0');
const docs = parseAllDocuments(text).map((d) => d.toJS() as { kind: string; metadata: { name: string; namespace?: string } });
const yamlIn = (dir: string) => readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');

describe('dist/install.yaml', () => {
  it('is valid YAML with nothing wrong (installProblems)', () => {
    expect(installProblems(text, root)).toEqual([]);
    expect(docs).toHaveLength(objects.length);
  });

  it('holds every CRD of crds/ and every CompositeController of compositions/base, each once, as generated', () => {
    const expected = [
      ...yamlIn('crds').flatMap((f) => loadYamlFile(path.join(root, 'crds', f))),
      ...yamlIn('compositions/base').flatMap((f) => loadYamlFile(path.join(root, 'compositions/base', f))),
    ];
    expect(expected.length).toBeGreaterThanOrEqual(10);
    for (const o of expected)
      expect(
        docs.filter((d) => JSON.stringify(d) === JSON.stringify(o)),
        `${o.kind}`,
      ).toHaveLength(1);
  });

  it('holds the hook server as deploy/ makes it (objects equal, the image tagged)', () => {
    const key = (o: { kind: string; metadata: { name: string; namespace?: string } }) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`;
    expect(docs.map(key).sort()).toEqual(objects.map((o) => key(o as never)).sort());
    const deployment = docs.find((d) => d.kind === 'Deployment') as any;
    expect(deployment.spec.template.spec.containers[0].image).toMatch(/^ghcr\.io\/modelhooks\/modelhooks:\d+\.\d+\.\d+$/);
  });

  it('applies in one pass: the Namespace first, CRDs before anything namespaced, the Composite- and DecoratorControllers last', () => {
    const kinds = docs.map((d) => d.kind);
    expect(kinds[0]).toBe('Namespace');
    const lastCrd = kinds.lastIndexOf('CustomResourceDefinition');
    expect(kinds.slice(0, lastCrd + 1).filter((k) => k !== 'CustomResourceDefinition')).toEqual(['Namespace']);
    const firstCc = kinds.indexOf('CompositeController');
    expect(kinds.slice(firstCc).every((k) => k === 'CompositeController' || k === 'DecoratorController')).toBe(true);
    expect(kinds).toContain('DecoratorController');
    expect(kinds.indexOf('Deployment')).toBeLessThan(firstCc);
  });

  it('says which version it installs and how', () => {
    expect(text.split('\n')[0]).toBe('# modelhooks 0.2.0: the hook server, the CRDs of its compositions and their CompositeControllers.');
    expect(text).toContain('kubectl apply -f install.yaml');
  });
});

describe('installProblems', () => {
  const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: modelhooks, namespace: modelhooks-system}\n';
  it.each([
    { reason: 'an object twice', edit: (t: string) => `${t}---\n${deployment}`, want: 'Deployment/modelhooks-system/modelhooks: more than once' },
    {
      reason: 'a CRD missing',
      edit: (t: string) => t.replace('name: tfservs.servapi.dev-state.com', 'name: other.example.com'),
      want: 'CustomResourceDefinition/tfservs.servapi.dev-state.com (crds/tfservs.servapi.dev-state.com.yaml): missing',
    },
    {
      reason: 'a CompositeController missing',
      edit: (t: string) => t.replace('name: modelhooks-mlmodel', 'name: other'),
      want: 'CompositeController/modelhooks-mlmodel (compositions/base/mlmodel.yaml): missing',
    },
    { reason: 'YAML that does not parse', edit: (t: string) => `${t}---\nkey: [unclosed\n`, want: 'document' },
  ])('$reason', ({ edit, want }) => {
    const problems = installProblems(edit(text), root);
    expect(
      problems.some((p) => p.startsWith(want)),
      problems.join('\n'),
    ).toBe(true);
  });
});
