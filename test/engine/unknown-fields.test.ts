import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { nearest } from '../../hooks/engine/fields/suggest.js';
import { crdSchemaOf } from '../../hooks/engine/schema.js';
import { describeUnknown, unknownFields } from '../../hooks/engine/fields/unknown-fields.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import { builtinCompositions } from '../../hooks/compositions.js';
import { runSync } from '../../hooks/testing/index.js';

const root = path.resolve(import.meta.dirname, '../..');
const isvc = (spec: Record<string, unknown>) => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'typo', namespace: 'models', generation: 1 },
  spec,
});
const NOW = '2026-01-01T00:00:00Z';

describe('nearest: the "did you mean" of the CLI and of unknown fields', () => {
  it('finds a case-only difference, a missing letter, a swap; nothing for a word too far', () => {
    expect(nearest('storageURI', ['storageUri', 'storage', 'runtime'])).toBe('storageUri');
    expect(nearest('predictr', ['predictor', 'transformer', 'explainer'])).toBe('predictor');
    expect(nearest('rendr', ['serve', 'render', 'manifests'])).toBe('render');
    expect(nearest('mainfests', ['serve', 'render', 'manifests'])).toBe('manifests');
    expect(nearest('banana', ['serve', 'render', 'manifests'])).toBeUndefined();
  });
});

describe('unknownFields: the fields a spec has that its schema does not name', () => {
  const schema = z.object({
    name: z.string(),
    items: z.array(z.looseObject({ port: z.number() }).meta({ 'x-modelhooks-kept': ['hostPort'] })).optional(),
    labels: z.record(z.string(), z.string()).optional(),
    free: z.unknown().optional(),
    nested: z.object({ deep: z.object({ x: z.number() }).default({ x: 1 }) }).optional(),
  });

  it('names each by its JSON path, in arrays and nested objects, with the nearest known sibling', () => {
    const found = unknownFields(schema, { nmae: 'a', items: [{ port: 1, prot: 2, hostPort: 3 }], nested: { deep: { y: 1 } } });
    expect(found).toEqual([
      { path: 'spec.nmae', suggestion: 'spec.name' },
      { path: 'spec.items[0].prot', suggestion: 'spec.items[0].port' },
      { path: 'spec.nested.deep.y', suggestion: 'spec.nested.deep.x' },
    ]);
    expect(describeUnknown(found[0] as { path: string })).toBe('unknown field spec.nmae, did you mean spec.name?');
  });

  it("takes any key of a map, anything under z.unknown(), and a kept field's content as written", () => {
    expect(unknownFields(schema, { name: 'a', labels: { anything: 'x' }, free: { what: 'ever' }, items: [{ port: 1, hostPort: { odd: 1 } }] })).toEqual([]);
  });

  it('says nothing of a field far from every known one but names it', () => {
    expect(unknownFields(schema, { name: 'a', zzzzzzzz: 1 })).toEqual([{ path: 'spec.zzzzzzzz' }]);
  });
});

describe('InferenceService: storageURI (issue 33)', () => {
  it('a served parent says UnknownFields=True with the path and the nearest field, without touching Ready', () => {
    const out = runSync(inferenceservice, { parent: isvc({ predictor: { sklearn: { storageURI: 'gs://a/b' } } }), now: NOW });
    expect(out.condition('UnknownFields')).toMatchObject({
      status: 'True',
      reason: 'FieldsUnknown',
      message: 'not in the schema, so nothing reads them: unknown field spec.predictor.sklearn.storageURI, did you mean spec.predictor.sklearn.storageUri?',
      lastTransitionTime: NOW,
    });
    expect(out.condition('Ready')?.reason).not.toBe('InvalidSpec');
    // Kept while it holds, gone once fixed.
    const again = runSync(inferenceservice, {
      parent: { ...isvc({ predictor: { sklearn: { storageURI: 'gs://a/b' } } }), status: { conditions: out.status.conditions } },
      now: '2026-01-02T00:00:00Z',
    });
    expect(again.condition('UnknownFields')?.lastTransitionTime).toBe(NOW);
    const fixed = runSync(inferenceservice, { parent: { ...isvc({ predictor: { sklearn: { storageUri: 'gs://a/b' } } }), status: out.status }, now: NOW });
    expect(fixed.condition('UnknownFields')).toBeUndefined();
  });

  it('a misspelt required field names the key and the one meant: InvalidSpec says both', () => {
    const out = runSync(inferenceservice, { parent: isvc({ predictr: { sklearn: { storageUri: 'gs://a/b' } } }), now: NOW });
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(out.condition('Ready')?.message).toMatch(/^unknown field spec\.predictr, did you mean spec\.predictor\?; spec\.predictor: /);
  });

  it('container and PodSpec fields KServe has are known, not reported', () => {
    const container = {
      name: 'c',
      image: 'x',
      volumeMounts: [],
      livenessProbe: {},
      env: [{ name: 'A', valueFrom: {} }],
      ports: [{ containerPort: 1, hostPort: 2 }],
    };
    const spec = { predictor: { tolerations: [], nodeSelector: {}, affinity: {}, containers: [container] } };
    expect(unknownFields(inferenceservice.spec, spec)).toEqual([]);
  });

  it('every built-in example is free of unknown fields', () => {
    for (const file of ['inferenceservice', 'inferencegraph', 'trustyai', 'tfserv', 'mlmodel']) {
      const parent = parse(readFileSync(path.join(root, `examples/${file}.yaml`), 'utf8')) as { kind: string; spec: unknown };
      const composition = builtinCompositions.find((c) => c.parent.kind === parent.kind);
      expect(composition, file).toBeDefined();
      expect(unknownFields(composition?.spec as z.ZodType, parent.spec), file).toEqual([]);
    }
  });
});

describe("the CRD closes what KServe's full CRD closes (config/crd/full/serving.kserve.io_inferenceservices.yaml)", () => {
  const crd = parse(readFileSync(path.join(root, 'crds/inferenceservices.serving.kserve.io.yaml'), 'utf8'), { maxAliasCount: -1 }) as {
    spec: { versions: Array<{ schema: { openAPIV3Schema: { properties: { spec: Record<string, unknown> } } } }> };
  };
  const spec = crd.spec.versions[0]?.schema.openAPIV3Schema.properties.spec as Record<string, unknown>;

  it('has no object with named fields that also keeps unknown ones, under spec', () => {
    const open: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) return node.forEach((n) => walk(n, at));
      if (typeof node !== 'object' || node === null) return;
      const n = node as Record<string, unknown>;
      if (n.properties && n['x-kubernetes-preserve-unknown-fields']) open.push(at);
      for (const [k, v] of Object.entries(n)) walk(v, `${at}/${k}`);
    };
    walk(spec, 'spec');
    expect(open).toEqual([]);
  });

  it('names the container fields of a framework (storageUri, volumeMounts) and a component (tolerations), keeping the latter as written', () => {
    const predictor = (spec.properties as Record<string, { properties: Record<string, { properties: Record<string, unknown> }> }>).predictor;
    expect(predictor?.properties.sklearn?.properties.storageUri).toMatchObject({ type: 'string' });
    expect(predictor?.properties.sklearn?.properties.volumeMounts).toEqual({ 'x-kubernetes-preserve-unknown-fields': true });
    expect(predictor?.properties.tolerations).toEqual({ 'x-kubernetes-preserve-unknown-fields': true });
  });

  it("stays far below etcd's 1.5 MiB request limit and kubectl's 256 KiB last-applied annotation", () => {
    const bytes = JSON.stringify(crd).length;
    expect(bytes).toBeLessThan(256 * 1024);
  });

  it('a kept field written into a CRD schema is kept whole (x-kubernetes-preserve-unknown-fields), not typed', () => {
    const schema = crdSchemaOf(z.looseObject({ a: z.string() }).meta({ 'x-kubernetes-preserve-unknown-fields': false, 'x-modelhooks-kept': ['b'] }));
    expect(schema).toEqual({ type: 'object', properties: { a: { type: 'string' }, b: { 'x-kubernetes-preserve-unknown-fields': true } }, required: ['a'] });
  });
});
