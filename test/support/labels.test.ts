import { describe, expect, it } from 'vitest';
import { labelProblems, podNameProblems } from './labels.js';

describe('labelProblems (the property tests’ label check)', () => {
  const deployment = (labels: Record<string, string>) => ({
    kind: 'Deployment',
    metadata: { name: 'd', labels },
    spec: { selector: { matchLabels: labels }, template: { metadata: { labels } } },
  });
  it('accepts valid keys and values, the empty value included', () => {
    expect(labelProblems(deployment({ app: 'a', 'app.kubernetes.io/instance': 'x'.repeat(63), empty: '' }))).toEqual([]);
  });
  it('finds a value over 63 characters, one ending in a dash, and a bad key, in every label map', () => {
    expect(labelProblems(deployment({ app: 'x'.repeat(64) }))).toHaveLength(3);
    expect(labelProblems(deployment({ app: 'a-' }))).toHaveLength(3);
    expect(labelProblems({ kind: 'Service', metadata: { name: 's' }, spec: { selector: { 'Bad_Prefix/app': 'a' } } })).toEqual([
      'Service/s spec.selector: key Bad_Prefix/app: prefix is not a DNS subdomain',
    ]);
  });
});

describe('podNameProblems', () => {
  it('finds a dotted or long volume name, in the volumes and the mounts', () => {
    const pod = (volume: string) => ({
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { template: { spec: { volumes: [{ name: volume }], containers: [{ name: 'c', volumeMounts: [{ name: volume }] }] } } },
    });
    expect(podNameProblems(pod('a-b-internal'))).toEqual([]);
    expect(podNameProblems(pod('a.b-internal'))).toHaveLength(2);
    expect(podNameProblems(pod('x'.repeat(64)))).toHaveLength(2);
  });
});
