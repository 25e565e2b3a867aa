import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { quantity } from '../../hooks/kit/index.js';
import { crdSchemaOf } from '../../hooks/engine/schema.js';

describe('crdSchemaOf', () => {
  it('turns string|number into int-or-string and drops JSON-schema-only keywords', () => {
    const s = crdSchemaOf(z.object({ size: z.union([z.string(), z.number()]).default('1Gi'), n: z.number().int() }));
    expect(s.properties).toEqual({ size: { default: '1Gi', 'x-kubernetes-int-or-string': true }, n: { type: 'integer' } });
  });
  it('keeps unknown fields where the schema passes them through, and for unknown values', () => {
    const s = crdSchemaOf(z.object({ free: z.record(z.string(), z.unknown()), any: z.unknown(), open: z.object({ a: z.string() }).passthrough() }));
    const p = s.properties as Record<string, Record<string, unknown>>;
    expect(p.free).toMatchObject({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    expect(p.any).toEqual({ 'x-kubernetes-preserve-unknown-fields': true });
    expect(p.open).toMatchObject({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    expect(p.open).not.toHaveProperty('additionalProperties');
  });
  it('writes a typed map as additionalProperties', () => {
    const s = crdSchemaOf(z.object({ labels: z.record(z.string(), z.string()) }));
    expect((s.properties as Record<string, unknown>).labels).toEqual({ type: 'object', additionalProperties: { type: 'string' } });
  });
  it('refuses an object-level union, which a structural schema cannot hold', () => {
    expect(() => crdSchemaOf(z.object({ u: z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]) }))).toThrow(/\.u: a union/);
  });
});

describe('quantity', () => {
  it('accepts the quantity syntax and bare numbers, hands builders a string', () => {
    const q = quantity('1Gi');
    expect(q.parse('500m')).toBe('500m');
    expect(q.parse(1073741824)).toBe('1073741824');
    expect(q.safeParse('lots').success).toBe(false);
    expect(q.safeParse('1GB').success).toBe(false);
  });
  it('shows its default in the CRD as int-or-string', () => {
    const s = crdSchemaOf(z.object({ size: quantity('1Gi', '1Gi') }));
    expect((s.properties as Record<string, unknown>).size).toEqual({ default: '1Gi', 'x-kubernetes-int-or-string': true });
  });
});
