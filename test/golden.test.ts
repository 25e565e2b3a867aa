import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../hooks/compositions.js';
import { runSync } from '../hooks/testing/index.js';
import { appliedOptions, expectedDocuments, goldenCases, renderDocuments } from './support/golden.js';
import { expectValid } from './support/validate.js';

// Every composition's golden cases: the answer equals expected.yaml, every child is valid
// against the real schemas, and applying the answer changes nothing (a fixed point).
for (const composition of builtinCompositions) {
  const cases = goldenCases(composition.name);
  describe(`${composition.name} golden cases`, () => {
    it('has golden cases', () => expect(cases.length).toBeGreaterThan(0));
    for (const c of cases) {
      describe(c.name, () => {
        const result = runSync(composition, c.options);
        it(`renders expected.yaml (${c.reason})`, () => {
          const actual = renderDocuments(result);
          expect(actual).toBe(expectedDocuments(c, actual));
        });
        it('emits only valid children', () => {
          for (const child of result.children) expectValid(child);
        });
        it('is a fixed point once applied', () => {
          const again = runSync(composition, appliedOptions(c.options, result));
          expect(again.children).toEqual(result.children);
        });
      });
    }
  });
}
