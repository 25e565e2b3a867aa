import { describe, expect, it } from 'vitest';
import { parseNamespaceSelector, SelectorError, selectorMatches } from '../../hooks/engine/namespace-selector.js';

// Expected matches follow k8s.io/apimachinery pkg/labels/selector.go: `!=` and `notin` hold
// for a missing key, `in` and `=` need it, and every requirement must hold.
const cases: Array<{ selector: string; labels: Record<string, string>; want: boolean }> = [
  { selector: '', labels: {}, want: true },
  { selector: 'modelhooks.dev/enabled=true', labels: { 'modelhooks.dev/enabled': 'true' }, want: true },
  { selector: 'modelhooks.dev/enabled=true', labels: { 'modelhooks.dev/enabled': 'false' }, want: false },
  { selector: 'modelhooks.dev/enabled=true', labels: {}, want: false },
  { selector: 'modelhooks.dev/enabled==true', labels: { 'modelhooks.dev/enabled': 'true' }, want: true },
  { selector: 'tier!=sandbox', labels: {}, want: true },
  { selector: 'tier!=sandbox', labels: { tier: 'sandbox' }, want: false },
  { selector: 'team in (a, b)', labels: { team: 'b' }, want: true },
  { selector: 'team in (a,b)', labels: { team: 'c' }, want: false },
  { selector: 'team notin (a,b)', labels: {}, want: true },
  { selector: 'team notin (a,b)', labels: { team: 'a' }, want: false },
  { selector: 'kubernetes.io/metadata.name', labels: { 'kubernetes.io/metadata.name': 'x' }, want: true },
  { selector: 'kubernetes.io/metadata.name', labels: {}, want: false },
  { selector: '!legacy', labels: { legacy: '' }, want: false },
  { selector: '!legacy', labels: {}, want: true },
  { selector: 'team in (a,b), env=prod, !legacy', labels: { team: 'a', env: 'prod' }, want: true },
  { selector: 'team in (a,b), env=prod, !legacy', labels: { team: 'a', env: 'dev' }, want: false },
  { selector: 'empty=', labels: { empty: '' }, want: true },
];

describe('namespace selector (Kubernetes label selector syntax)', () => {
  for (const c of cases) {
    it(`"${c.selector}" ${c.want ? 'matches' : 'does not match'} ${JSON.stringify(c.labels)}`, () => {
      expect(selectorMatches(parseNamespaceSelector(c.selector), c.labels)).toBe(c.want);
    });
  }
  for (const bad of ['team in (a,b', 'team in ()', 'a,,b', 'Bad Key=1', 'k=bad value!', '-a=b', 'a=b)']) {
    it(`refuses "${bad}" with a SelectorError quoting it`, () => {
      expect(() => parseNamespaceSelector(bad)).toThrow(SelectorError);
      expect(() => parseNamespaceSelector(bad)).toThrow(bad);
    });
  }
});
