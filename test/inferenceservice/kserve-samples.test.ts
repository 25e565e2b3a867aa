import { describe, expect, it } from 'vitest';
import { runSync } from '../../hooks/testing.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import { goldenCases, readYamlDocs } from '../support/golden.js';
import path from 'node:path';

/*
 * The KServe docs samples' golden cases (test/fixtures/inferenceservice/sample-*) carry a
 * `fidelity` table in case.yaml: a field of the predictor's kserve-container (or
 * `status.<field>`), the value KServe v0.20.0's code gives it, and the upstream file. Every
 * row is checked here, so the table cannot drift from the answer.
 */
type Row = { field: string; value: unknown; source: string };

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

const fidelityOf = (dir: string) => ((readYamlDocs(path.join(dir, 'case.yaml'))[0] as { fidelity?: Row[] }).fidelity ?? []) as Row[];
const cases = goldenCases('inferenceservice').filter((c) => fidelityOf(c.dir).length > 0);

describe('KServe docs samples: every fidelity row holds', () => {
  it('covers sklearn v1 and v2, xgboost v2, tensorflow, torchserve, triton and the Hugging Face LLM', () => {
    expect(cases.map((c) => c.name).sort()).toEqual(
      ['sample-huggingface-llama2', 'sample-sklearn', 'sample-sklearn-v2', 'sample-tensorflow-prometheus', 'sample-torchserve', 'sample-triton', 'sample-xgboost-v2'],
    );
  });
  describe.each(cases)('$name', (c) => {
    const rows = fidelityOf(c.dir);
    const out = runSync(inferenceservice, c.options);
    const deployment = out.children.find((d) => d.kind === 'Deployment') as unknown as { spec: { template: { spec: { containers: Array<{ name: string }> } } } };
    const server = deployment.spec.template.spec.containers.find((k) => k.name === 'kserve-container');
    it('has a table citing a source per row', () => {
      expect(rows.length).toBeGreaterThanOrEqual(4);
      for (const r of rows) expect(r.source, r.field).toMatch(/\w\.(go|yaml)\b|README/);
    });
    it.each(rows.map((r) => [r.field, r] as const))('%s', (_, r) => {
      const actual = r.field.startsWith('status.') ? at(out.status, r.field.slice('status.'.length)) : at(server, r.field);
      expect(actual ?? null).toEqual(r.value);
    });
  });
});
