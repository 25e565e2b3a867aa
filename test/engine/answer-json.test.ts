import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { deepFreeze } from '../../hooks/kit/index.js';
import { answerJson } from '../../hooks/engine/answer-json.js';
import { isFrozenData } from '../../hooks/kit/spec-memo.js';

/**
 * answerJson must write exactly what JSON.stringify writes, while keeping the text of children
 * that are frozen plain data (kit deepFreeze) from one answer to the next.
 */
const child = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });
const answer = fc.record(
  {
    status: fc.jsonValue({ maxDepth: 3 }),
    // Each child frozen through deepFreeze, or not.
    children: fc.array(
      fc.tuple(child, fc.boolean()).map(([c, freeze]) => (freeze ? deepFreeze(c) : c)),
      { maxLength: 6 },
    ),
    resyncAfterSeconds: fc.option(fc.integer(), { nil: undefined }),
    finalized: fc.boolean(),
  },
  { requiredKeys: ['children'] },
);

describe('answerJson', () => {
  it('writes what JSON.stringify writes, the first time and again', () => {
    fc.assert(
      fc.property(answer, (a) => {
        expect(answerJson(a)).toBe(JSON.stringify(a));
        expect(answerJson(a)).toBe(JSON.stringify(a));
        // The same frozen children, in another answer.
        const other = { children: [...a.children].reverse(), status: { n: 1 } };
        expect(answerJson(other)).toBe(JSON.stringify(other));
      }),
    );
  });

  it('writes any other answer as JSON.stringify does: no children array, odd members, keys that look like indices', () => {
    const odd = [
      { relatedResources: [{ apiVersion: 'v1', resource: 'pods' }] },
      { children: [undefined, () => 1, null, 'x'], status: undefined, 2: 'two', 1: 'one' },
      { children: 'not an array' },
      {},
    ];
    for (const a of odd) expect(answerJson(a as Record<string, unknown>)).toBe(JSON.stringify(a));
  });

  it('writes a frozen child once: the next answer holding it takes the text kept', () => {
    const frozen = deepFreeze({ kind: 'Deployment', metadata: { name: 'kept-once' } });
    answerJson({ status: {}, children: [frozen] });
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const text = answerJson({ status: { n: 2 }, children: [frozen] });
      expect(stringify.mock.calls.some(([v]) => v === frozen)).toBe(false);
      expect(text).toBe('{"status":{"n":2},"children":[{"kind":"Deployment","metadata":{"name":"kept-once"}}]}');
    } finally {
      stringify.mockRestore();
    }
  });

  it('writes a child built for this answer anew: a change to it shows', () => {
    const mutable = { kind: 'Service', spec: { ports: [80] } };
    const a = { status: {}, children: [mutable] };
    answerJson(a);
    mutable.spec.ports.push(81);
    expect(answerJson(a)).toBe(JSON.stringify(a));
  });

  it('keeps no text for an object frozen one level deep, whose insides may still change', () => {
    const inner = { replicas: 1 };
    const shallow = Object.freeze({ kind: 'Deployment', spec: inner });
    expect(isFrozenData(shallow)).toBe(false);
    const a = { children: [shallow] };
    answerJson(a);
    inner.replicas = 2;
    expect(answerJson(a)).toBe(JSON.stringify(a));
  });
});

describe('deepFreeze: what answerJson may keep', () => {
  it('freezes the insides of an object frozen before, and then takes it for plain data', () => {
    const inner = { replicas: 1 };
    const v = deepFreeze({ child: Object.freeze({ spec: inner }) });
    expect(Object.isFrozen(inner)).toBe(true);
    expect(isFrozenData(v)).toBe(true);
  });

  it('never takes for plain data what JSON.stringify could write otherwise later: a Date, a Map, a class instance, a function', () => {
    class Box {
      n = 1;
    }
    for (const odd of [new Date(0), new Map([[1, 2]]), new Box(), { toJSON: () => 'x' }]) {
      const v = deepFreeze({ kind: 'Service', odd });
      expect(isFrozenData(v)).toBe(false);
    }
    const date = new Date(0);
    const a = { children: [deepFreeze({ at: date })] };
    answerJson(a);
    date.setTime(1000);
    expect(answerJson(a)).toBe(JSON.stringify(a));
  });

  it('ends on a cycle, and does not take it for plain data', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    expect(isFrozenData(deepFreeze(a))).toBe(false);
    expect(Object.isFrozen(a)).toBe(true);
  });
});
