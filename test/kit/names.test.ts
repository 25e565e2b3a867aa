import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { childName, isDns1035Label, isDns1123Label, labelValue, standardLabels } from '../../hooks/kit/index.js';

describe('childName', () => {
  const cases = [
    { reason: 'short names are kept as written', parts: ['demo', 'predictor'], want: 'demo-predictor' },
    { reason: 'capitals and dots are not DNS labels', parts: ['My.Model'], want: 'my-model' },
    { reason: 'empty parts are skipped', parts: ['demo', '', 'pvc'], want: 'demo-pvc' },
  ];
  for (const c of cases) it(c.reason, () => expect(childName(c.parts)).toBe(c.want));

  it('a Service name starts with a letter (DNS-1035)', () => {
    expect(childName(['1model'], { dns1035: true })).toMatch(/^[a-z]/);
    expect(isDns1035Label(childName(['1model'], { dns1035: true }))).toBe(true);
  });

  it('truncates long names to 63 characters with a hash of the full name', () => {
    const a = childName(['a'.repeat(70), 'predictor']);
    const b = childName(['a'.repeat(71), 'predictor']);
    expect(a.length).toBeLessThanOrEqual(63);
    expect(a).not.toBe(b);
    expect(a).toMatch(/-[0-9a-f]{8}$/);
  });

  it('always gives a valid label for any input (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 80 }), { minLength: 1, maxLength: 4 }), fc.boolean(), (parts, dns1035) => {
        const name = childName(parts, { dns1035 });
        expect(dns1035 ? isDns1035Label(name) : isDns1123Label(name)).toBe(true);
        expect(childName(parts, { dns1035 })).toBe(name);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('labels', () => {
  it('label values are at most 63 characters and end alphanumeric', () => {
    const v = labelValue(`${'x'.repeat(62)}-yyy`);
    expect(v.length).toBeLessThanOrEqual(63);
    expect(v).toMatch(/[a-z0-9]$/);
  });
  it('standard labels carry managed-by modelhooks', () => {
    expect(standardLabels({ name: 'n', instance: 'i', component: 'c', partOf: 'p' })['app.kubernetes.io/managed-by']).toBe('modelhooks');
  });
});
