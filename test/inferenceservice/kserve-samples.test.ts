import { describe, expect, it } from 'vitest';
import { converge } from '../../hooks/testing/index.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import { goldenCases, readYamlDocs } from '../support/golden.js';
import { loadYamlFile, vendorDir } from '../support/reference.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/*
 * The KServe docs samples' golden cases (test/fixtures/inferenceservice/sample-*) carry a
 * `fidelity` table in case.yaml: the value KServe v0.20.0's code gives a field, and the
 * upstream file. A row names a field of a component's kserve-container (`component`, the
 * predictor's by default), of a child (`object: Kind/name`), of the status (`status.<field>`),
 * or the backend of an Ingress host (`ingressHost`). Where modelhooks differs on purpose the
 * row keeps KServe's value in `kserve`, ours in `value`, and in `differs` words of docs/inferenceservice.md's
 * differences that explain it. Every row is checked here, so the table cannot drift from the
 * answer.
 */
type Row = { field?: string; component?: string; object?: string; ingressHost?: string; value: unknown; kserve?: unknown; differs?: string; source: string };
type Child = { kind: string; metadata: { name: string }; spec?: unknown };
type IngressRule = { host?: string; http?: { paths?: Array<{ backend?: { service?: unknown } }> } };

const readme = readFileSync(new URL('../../docs/inferenceservice.md', import.meta.url), 'utf8');

/** `a.b[0].c` in an object. */
function at(obj: unknown, field: string): unknown {
  return field
    .split(/\.|(?=\[)/)
    .filter(Boolean)
    .reduce<unknown>((o, key) => {
      if (o === undefined || o === null) return undefined;
      const index = /^\[(\d+)\]$/.exec(key);
      return index ? (o as unknown[])[Number(index[1])] : (o as Record<string, unknown>)[key];
    }, obj);
}

/** The vendored docs sample a case is built from (`sample:` in case.yaml, under test/vendor/samples). */
const sampleOf = (dir: string) => (readYamlDocs(path.join(dir, 'case.yaml'))[0] as { sample?: string }).sample;
const fidelityOf = (dir: string) => ((readYamlDocs(path.join(dir, 'case.yaml'))[0] as { fidelity?: Row[] }).fidelity ?? []) as Row[];
const cases = goldenCases('inferenceservice').filter((c) => fidelityOf(c.dir).length > 0);

describe('KServe docs samples: every fidelity row holds', () => {
  it('covers sklearn v1 and v2, xgboost v2, tensorflow, torchserve, triton, the Hugging Face LLM and the transformer', () => {
    expect(cases.map((c) => c.name).sort()).toEqual([
      'sample-huggingface-llama2',
      'sample-sklearn',
      'sample-sklearn-v2',
      'sample-tensorflow-prometheus',
      'sample-torchserve',
      'sample-transformer',
      'sample-triton',
      'sample-xgboost-v2',
    ]);
  });
  describe.each(cases)('$name', (c) => {
    const rows = fidelityOf(c.dir);
    // Converged: the Ingress, whose hosts some rows read, is made once the components are ready (kube_ingress_reconciler.go createRawIngress).
    const out = converge(inferenceservice, c.options).result;
    const children = out.children as unknown as Child[];
    const parentName = (c.options.parent as { metadata: { name: string } }).metadata.name;
    const serverOf = (component = 'predictor') => {
      const deployment = children.find((d) => d.kind === 'Deployment' && d.metadata.name === `${parentName}-${component}`) as
        | { spec: { template: { spec: { containers: Array<{ name: string }> } } } }
        | undefined;
      return deployment?.spec.template.spec.containers.find((k) => k.name === 'kserve-container');
    };
    const actualOf = (r: Row): unknown => {
      if (r.ingressHost !== undefined) {
        const rules = children.filter((k) => k.kind === 'Ingress').flatMap((k) => (k.spec as { rules?: IngressRule[] }).rules ?? []);
        return rules.find((rule) => rule.host === r.ingressHost)?.http?.paths?.[0]?.backend?.service;
      }
      const field = r.field ?? '';
      if (r.object !== undefined) {
        const [kind, name] = r.object.split('/');
        return at(
          children.find((k) => k.kind === kind && k.metadata.name === name),
          field,
        );
      }
      return field.startsWith('status.') ? at(out.status, field.slice('status.'.length)) : at(serverOf(r.component), field);
    };
    const label = (r: Row) => [r.component ?? r.object ?? (r.ingressHost ? `Ingress host ${r.ingressHost}` : undefined), r.field].filter(Boolean).join(' ');
    const sampleFile = sampleOf(c.dir);
    if (sampleFile !== undefined)
      it(`is the vendored docs sample ${sampleFile} (name and spec)`, () => {
        const [sample] = loadYamlFile(path.join(vendorDir(), 'samples', sampleFile)) as Array<{ spec: unknown; metadata: { name: string } }>;
        expect((c.options.parent as { spec: unknown }).spec).toEqual(sample?.spec);
        expect(parentName).toBe(sample?.metadata.name);
      });
    it('has a table citing a source per row', () => {
      expect(rows.length).toBeGreaterThanOrEqual(4);
      for (const r of rows) expect(r.source, label(r)).toMatch(/\w\.(go|yaml)\b|README/);
    });
    it.each(rows.map((r) => [label(r), r] as const))('%s', (_, r) => {
      expect(actualOf(r) ?? null).toEqual(r.value);
      if (r.differs === undefined) {
        expect(r, "a row without `differs` asserts KServe's value itself").not.toHaveProperty('kserve');
        return;
      }
      // A kept difference: KServe's value really differs, and docs/inferenceservice.md says why.
      expect(r).toHaveProperty('kserve');
      expect(r.kserve ?? null).not.toEqual(r.value);
      expect(readme).toContain(r.differs);
    });
  });
});
