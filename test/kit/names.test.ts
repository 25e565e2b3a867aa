import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { childName, isDns1123Label, isLabelPair, labelValue, shortHash, standardLabels } from '../../hooks/kit/index.js';
import { isDns1035Label, isDns1123Subdomain, NAME_HASH_LENGTH } from '../../hooks/kit/children/names.js';
import { isLabelValue } from '../../hooks/kit/children/labels.js';

describe('childName', () => {
  const cases = [
    { reason: 'short names are kept as written', parts: ['demo', 'predictor'], want: 'demo-predictor' },
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
    expect(a).toMatch(/-[0-9a-f]{12}$/);
  });

  it('carries at least a 48-bit hash (12 hex characters) of the original input whenever it changes a name', () => {
    expect(NAME_HASH_LENGTH).toBeGreaterThanOrEqual(12);
    // Dots and capitals are replaced: the hash of what was written tells the results apart.
    expect(childName(['My.Model'])).toBe(`my-model-${shortHash('My.Model', 12)}`);
    expect(childName(['a'.repeat(80)])).toBe(`${'a'.repeat(50)}-${shortHash('a'.repeat(80), 12)}`);
    expect(childName(['1model'], { dns1035: true })).toBe(`x1model-${shortHash('1model', 12)}`);
  });

  // Pairs the issue found colliding: each pair once gave one name to two parents.
  const pairs: Array<[string, string[], string[], boolean?]> = [
    ['`.` vs `-`', ['foo.bar'], ['foo-bar']],
    ['upper vs lower case', ['Foo'], ['foo']],
    ['a digit-first name vs its x-prefixed twin (DNS-1035)', ['1foo', 'service'], ['x1foo', 'service'], true],
    ['long names that differ only at the end', [`${'n'.repeat(70)}a`, 'predictor'], [`${'n'.repeat(70)}b`, 'predictor']],
    ['long names that differ only in a dot at the end', [`${'n'.repeat(70)}.a`], [`${'n'.repeat(70)}-a`]],
  ];
  for (const [what, a, b, dns1035] of pairs) {
    it(`never gives two inputs that sanitise alike the same name: ${what}`, () => {
      const x = childName(a, { dns1035 });
      const y = childName(b, { dns1035 });
      expect(x).not.toBe(y);
      for (const n of [x, y]) expect(dns1035 ? isDns1035Label(n) : isDns1123Label(n)).toBe(true);
    });
  }

  it('keeps names that need no change exactly as written', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]([-a-z0-9]{0,40}[a-z0-9])?$/), (name) => {
        expect(childName([name])).toBe(name);
        expect(childName([name], { dns1035: true })).toBe(name);
      }),
    );
  });

  it('a changed name ends with the hash of the original input (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 80 }), { minLength: 1, maxLength: 3 }), (parts) => {
        const joined = parts.filter((p) => p !== '').join('-');
        const name = childName(parts);
        if (name !== joined) expect(name.endsWith(shortHash(joined, NAME_HASH_LENGTH))).toBe(true);
      }),
      { numRuns: 1000 },
    );
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
  it('a valid value is kept; an invalid or long one is cut and given a 48-bit hash of the whole', () => {
    expect(labelValue('My_model.v1')).toBe('My_model.v1');
    const long = 'x'.repeat(70);
    expect(labelValue(long)).toBe(`${'x'.repeat(50)}-${shortHash(long, 12)}`);
    expect(labelValue(`${long}a`)).not.toBe(labelValue(`${long}b`));
    expect(labelValue('-a b-')).toBe(`a-b-${shortHash('-a b-', 12)}`);
  });
  it('every label value is valid and distinct inputs stay distinct (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), fc.string({ maxLength: 120 }), (a, b) => {
        expect(isLabelValue(labelValue(a))).toBe(true);
        if (a !== b) expect(labelValue(a)).not.toBe(labelValue(b));
      }),
      { numRuns: 2000 },
    );
  });
  it('the instance label of a long parent name is hashed, not cut', () => {
    const a = standardLabels({ name: 'n', instance: `${'p'.repeat(63)}a`, component: 'c', partOf: 'p' })['app.kubernetes.io/instance'];
    const b = standardLabels({ name: 'n', instance: `${'p'.repeat(63)}b`, component: 'c', partOf: 'p' })['app.kubernetes.io/instance'];
    expect(a).not.toBe(b);
    expect(isLabelValue(a ?? '')).toBe(true);
  });
  it('standard labels carry managed-by modelhooks', () => {
    expect(standardLabels({ name: 'n', instance: 'i', component: 'c', partOf: 'p' })['app.kubernetes.io/managed-by']).toBe('modelhooks');
  });
});

describe('the DNS rules every name check uses', () => {
  it('isLabelPair: namespace/name, each a DNS-1123 label (a Gateway reference)', () => {
    for (const ok of ['kserve/kserve-ingress-gateway', 'a/b', `${'a'.repeat(63)}/x`]) expect(isLabelPair(ok), ok).toBe(true);
    for (const bad of ['no-slash', 'a/b/c', '-a/b', 'a/b-', 'A/b', 'a.b/c', '/b', 'a/', `${'a'.repeat(64)}/x`]) expect(isLabelPair(bad), bad).toBe(false);
  });
  it('isDns1123Subdomain: dots allowed, at most 253 characters', () => {
    for (const ok of ['aws-secret', 'my.secret', 'a'.repeat(253)]) expect(isDns1123Subdomain(ok), ok).toBe(true);
    for (const bad of ['', 'Upper', '-a', 'a-', 'a_b', 'a'.repeat(254)]) expect(isDns1123Subdomain(bad), bad).toBe(false);
  });
});
