import { describe, expect, it } from 'vitest';
import { condition, readyFrom, stampConditions } from '../../hooks/kit/index.js';

const NOW = '2026-02-02T00:00:00Z';
const BEFORE = '2026-01-01T00:00:00Z';

describe('readyFrom', () => {
  const cases = [
    { reason: 'all True → True', others: [condition.true('A', 'Ok'), condition.true('B', 'Ok')], want: ['True', 'Ready'] },
    { reason: 'False outranks Unknown even when later', others: [condition.unknown('A', 'Wait'), condition.false('B', 'Broken', 'b is broken')], want: ['False', 'Broken'] },
    { reason: 'the first Unknown in pipeline order', others: [condition.true('A', 'Ok'), condition.unknown('B', 'Pending'), condition.unknown('C', 'Later')], want: ['Unknown', 'Pending'] },
    { reason: 'nothing to wait for → True', others: [], want: ['True', 'Ready'] },
  ];
  for (const c of cases) {
    it(c.reason, () => {
      const r = readyFrom(c.others);
      expect([r.status, r.reason]).toEqual(c.want);
    });
  }
});

describe('stampConditions', () => {
  const previous = [{ type: 'A', status: 'True' as const, reason: 'Ok', message: '', lastTransitionTime: BEFORE }];
  it('keeps lastTransitionTime when the status did not change, even if the reason did', () => {
    const [a] = stampConditions([condition.true('A', 'StillOk', 'new message')], previous, NOW, 3);
    expect(a).toEqual({ type: 'A', status: 'True', reason: 'StillOk', message: 'new message', lastTransitionTime: BEFORE, observedGeneration: 3 });
  });
  it('takes now when the status changed', () => {
    expect(stampConditions([condition.false('A', 'Broken')], previous, NOW)[0]?.lastTransitionTime).toBe(NOW);
  });
  it('takes now for a condition seen for the first time', () => {
    expect(stampConditions([condition.unknown('B', 'New')], previous, NOW)[0]?.lastTransitionTime).toBe(NOW);
  });
});
