import { describe, expect, it } from 'vitest';
import { condition, fromReadiness, readyConditions } from '../../hooks/kit/index.js';
import { composedFrom } from '../../hooks/kit/types.js';
import { readyFrom, stampConditions } from '../../hooks/kit/status/conditions.js';

const NOW = '2026-02-02T00:00:00Z';
const BEFORE = '2026-01-01T00:00:00Z';

describe('readyFrom', () => {
  const cases = [
    { reason: 'all True → True', others: [condition.true('A', 'Ok'), condition.true('B', 'Ok')], want: ['True', 'Ready'] },
    {
      reason: 'False outranks Unknown even when later',
      others: [condition.unknown('A', 'Wait'), condition.false('B', 'Broken', 'b is broken')],
      want: ['False', 'Broken'],
    },
    {
      reason: 'the first Unknown in pipeline order',
      others: [condition.true('A', 'Ok'), condition.unknown('B', 'Pending'), condition.unknown('C', 'Later')],
      want: ['Unknown', 'Pending'],
    },
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

describe('readyConditions (the condition tree as data)', () => {
  const tree = readyConditions(
    [
      { type: 'A', means: 'first in the pipeline' },
      { type: 'B', means: 'second' },
    ],
    {
      ready: { reason: 'AllGood', message: 'all good' },
      phase: { ready: 'Ready', notReady: 'Not Ready' },
      informational: [{ type: 'Note', means: 'never blocks' }],
    },
  );
  const input = (conditions: unknown[] = []) => ({ parent: { metadata: { generation: 2 }, status: { conditions } }, now: NOW });
  const cases = [
    {
      reason: 'every dependency True → Ready True with the declared reason',
      decided: [condition.true('A', 'Ok'), condition.true('B', 'Ok')],
      want: ['True', 'AllGood', 'Ready'],
    },
    {
      reason: 'False outranks Unknown whatever the order decided',
      decided: [condition.unknown('A', 'Wait'), condition.false('B', 'Broken')],
      want: ['False', 'Broken', 'Not Ready'],
    },
    {
      reason: 'an informational False does not block Ready',
      decided: [condition.false('Note', 'Meh'), condition.true('A', 'Ok'), condition.true('B', 'Ok')],
      want: ['True', 'AllGood', 'Ready'],
    },
    { reason: 'a dependency not decided (e.g. an undeclared child) does not count', decided: [condition.true('B', 'Ok')], want: ['True', 'AllGood', 'Ready'] },
  ];
  for (const c of cases) {
    it(c.reason, () => {
      const out = tree.summarise(input(), c.decided);
      expect([out.ready.status, out.ready.reason, out.phase]).toEqual(c.want);
    });
  }
  it('writes Ready first, then dependencies in declared order, then informational ones', () => {
    const out = tree.summarise(input(), [condition.true('Note', 'N'), condition.true('B', 'Ok'), condition.true('A', 'Ok')]);
    expect(out.conditions.map((c) => c.type)).toEqual(['Ready', 'A', 'B', 'Note']);
    expect(out.conditions.every((c) => c.observedGeneration === 2)).toBe(true);
  });
  it('keeps lastTransitionTime of Ready while its status is unchanged', () => {
    const previous = [{ type: 'Ready', status: 'True', reason: 'AllGood', message: '', lastTransitionTime: BEFORE }];
    const out = tree.summarise(input(previous), [condition.true('A', 'Ok'), condition.true('B', 'Ok')]);
    expect(out.conditions[0]?.lastTransitionTime).toBe(BEFORE);
  });
  it('refuses a condition that is not in the tree', () => {
    expect(() => tree.summarise(input(), [condition.true('Stray', 'Ok')])).toThrow(/Stray is not in the condition tree/);
  });
  it('lists its types, Ready first', () => {
    expect(tree.types).toEqual(['Ready', 'A', 'B', 'Note']);
  });

  describe('inputs found beside the dependencies (ReadyInputs)', () => {
    const ok = [condition.true('A', 'Ok'), condition.true('B', 'Ok')];
    const crash = { reason: 'CrashLoopBackOff', message: 'pod p: back-off' };
    const taken = condition.false('B', 'HostConflict', 'host h is already routed by Ingress/other');
    const cases = [
      {
        reason: 'a blocker tells a Ready that is not True why',
        decided: [condition.unknown('A', 'Wait'), condition.true('B', 'Ok')],
        inputs: { blocker: crash },
        want: ['False', 'CrashLoopBackOff', 'pod p: back-off'],
      },
      { reason: 'a blocker leaves a True Ready alone', decided: ok, inputs: { blocker: crash }, want: ['True', 'AllGood', 'all good'] },
      { reason: 'an override makes a True Ready False with it', decided: ok, inputs: { overrides: [taken] }, want: ['False', 'HostConflict', taken.message] },
      {
        reason: 'an override makes an Unknown Ready False with it',
        decided: [condition.unknown('A', 'Wait'), condition.true('B', 'Ok')],
        inputs: { overrides: [taken] },
        want: ['False', 'HostConflict', taken.message],
      },
      {
        reason: 'an override leaves a Ready False for another reason',
        decided: [condition.false('A', 'Broken', 'a'), condition.true('B', 'Ok')],
        inputs: { overrides: [taken] },
        want: ['False', 'Broken', 'a'],
      },
      {
        reason: 'the blocker is told before an override',
        decided: [condition.unknown('A', 'Wait'), condition.true('B', 'Ok')],
        inputs: { blocker: crash, overrides: [taken] },
        want: ['False', 'CrashLoopBackOff', 'pod p: back-off'],
      },
    ];
    for (const c of cases) {
      it(c.reason, () => {
        const out = tree.summarise(input(), c.decided, c.inputs);
        expect([out.ready.status, out.ready.reason, out.ready.message]).toEqual(c.want);
        expect(out.conditions[0]).toMatchObject({ type: 'Ready', status: c.want[0], reason: c.want[1] });
      });
    }
    it("an override takes its dependency's place; `derived` is Ready from the decided dependencies alone", () => {
      const out = tree.summarise(input(), ok, { overrides: [taken] });
      expect(out.conditions.map((c) => [c.type, c.reason])).toEqual([
        ['Ready', 'HostConflict'],
        ['A', 'Ok'],
        ['B', 'HostConflict'],
      ]);
      expect([out.derived.status, out.derived.reason]).toEqual(['True', 'AllGood']);
      expect(out.phase).toBe('Not Ready');
    });
    it('a condition beside the tree is written last and does not gate Ready; one decided of its type wins', () => {
      const beside = condition.false('A', 'NotYet', 'reported only');
      const out = tree.summarise(input(), [condition.true('B', 'Ok'), condition.true('Note', 'N')], { beside: [beside] });
      expect(out.conditions.map((c) => [c.type, c.status])).toEqual([
        ['Ready', 'True'],
        ['B', 'True'],
        ['Note', 'True'],
        ['A', 'False'],
      ]);
      const decided = tree.summarise(input(), ok, { beside: [beside] });
      expect(decided.conditions.map((c) => [c.type, c.reason])).toEqual([
        ['Ready', 'AllGood'],
        ['A', 'Ok'],
        ['B', 'Ok'],
      ]);
    });
    it('refuses an input that is not in the tree', () => {
      expect(() => tree.summarise(input(), ok, { overrides: [condition.false('Stray', 'X')] })).toThrow(/Stray is not in the condition tree/);
      expect(() => tree.summarise(input(), ok, { beside: [condition.false('Stray', 'X')] })).toThrow(/Stray is not in the condition tree/);
    });
  });
});

describe('fromReadiness', () => {
  it('names a readiness judgement', () => {
    expect(fromReadiness('X', { status: 'Unknown', reason: 'Pending', message: 'm' })).toEqual({
      type: 'X',
      status: 'Unknown',
      reason: 'Pending',
      message: 'm',
    });
  });
});

describe('composedFrom (typed object → wire object)', () => {
  it('passes an object that names its type and itself', () => {
    const obj = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: {} };
    expect(composedFrom(obj)).toBe(obj);
  });
  it('refuses one without a kind or a name', () => {
    expect(() => composedFrom({ apiVersion: 'v1', metadata: { name: 's' } })).toThrow(/apiVersion, kind and metadata.name/);
    expect(() => composedFrom({ apiVersion: 'v1', kind: 'Service', metadata: {} })).toThrow(/Service\/\?/);
  });
});
