import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineComposition } from '../../hooks/kit/index.js';
import { managedFieldsArrays, parentIdentityOf, parseRequestText } from '../../hooks/engine/request-json.js';
import { runSync } from '../../hooks/testing/index.js';

/** What a hook must see: JSON.parse's body with metadata.managedFields of each request object undefined, written here apart from the code. */
function expected(text: string): unknown {
  const body = JSON.parse(text);
  const objects = [
    body.controller,
    body.parent,
    ...[body.children, body.related].flatMap((m) => Object.values(m ?? {}).flatMap((g) => Object.values((g as object) ?? {}))),
  ];
  for (const o of objects) if (o?.metadata && typeof o.metadata === 'object' && o.metadata.managedFields !== undefined) o.metadata.managedFields = undefined;
  return body;
}

/** A managedFields entry as the API server writes one (server-side apply's FieldsV1). */
const entry = (manager: string) => ({
  apiVersion: 'apps/v1',
  fieldsType: 'FieldsV1',
  fieldsV1: {
    'f:metadata': { 'f:annotations': { '.': {}, 'f:deployment.kubernetes.io/revision': {} } },
    'f:status': { 'f:conditions': { 'k:{"type":"Available"}': { '.': {}, 'f:status': {} } } },
  },
  manager,
  operation: 'Update',
  subresource: 'status',
  time: '2025-11-03T09:14:02Z',
});

const object = (kind: string, name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind,
  metadata: {
    annotations: { note: 'x' },
    managedFields: [entry('kube-controller-manager'), entry('metacontroller')],
    name,
    namespace: 'team-a',
    uid: `uid-${name}`,
  },
  ...extra,
});

const request = (extra: Record<string, unknown> = {}) => ({
  controller: object('CompositeController', 'c'),
  parent: object('Parent', 'p', { spec: { replicas: 2 } }),
  children: { 'Deployment.apps/v1': { 'team-a/p': object('Deployment', 'p', { status: { readyReplicas: 1 } }) } },
  related: { 'Secret.v1': { 'team-a/s': object('Secret', 's') }, 'ConfigMap.v1': null },
  finalizing: false,
  ...extra,
});

describe('parseRequestText: the body without metadata.managedFields', () => {
  it('reads every object of a request as JSON.parse does, but metadata.managedFields (undefined)', () => {
    const text = JSON.stringify(request());
    const parse = vi.spyOn(JSON, 'parse');
    const body = parseRequestText(text) as ReturnType<typeof request>;
    // One parse, of the text with the arrays cut: never a second of the whole.
    expect(parse).toHaveBeenCalledTimes(1);
    expect((parse.mock.calls[0]?.[0] as string).length).toBeLessThan(text.length / 2);
    parse.mockRestore();
    expect(body).toStrictEqual(expected(text));
    expect(body.children['Deployment.apps/v1']['team-a/p'].metadata.managedFields).toBeUndefined();
    expect((body.children['Deployment.apps/v1']['team-a/p'] as Record<string, unknown>).status).toEqual({ readyReplicas: 1 });
    expect(JSON.stringify(body)).not.toContain('managedFields');
    // Found in the text, and each one well-formed: the arrays were never parsed.
    expect(managedFieldsArrays(Buffer.from(text))).toHaveLength(2 * 4);
  });

  // Each row: a body that must read exactly as `expected` says, and why it is there.
  const table: [string, string][] = [
    ['pretty-printed (JSON whitespace around the key, the colon and inside the array)', JSON.stringify(request(), null, 2)],
    [
      '"managedFields" inside a string (a last-applied annotation) stays in the string',
      JSON.stringify(
        request({
          parent: object('Parent', 'p', {
            metadata: { name: 'p', namespace: 'team-a', annotations: { a: '{"metadata":{"managedFields":[1]}}', b: ',"managedFields":[' } },
          }),
        }),
      ),
    ],
    [
      'a CRD field named managedFields outside metadata is kept (the text is parsed again, whole)',
      JSON.stringify(request({ parent: object('Parent', 'p', { spec: { managedFields: [{ keep: true }] } }) })),
    ],
    [
      'managedFields in a pod template, not a request object, is kept',
      JSON.stringify(request({ parent: object('Parent', 'p', { spec: { template: { metadata: { managedFields: [entry('x')] } } } }) })),
    ],
    [
      'a metadata.managedFields that is not an array reads undefined too',
      JSON.stringify(request({ related: { 'Secret.v1': { 'team-a/s': { kind: 'Secret', metadata: { name: 's', managedFields: null } } } } })),
    ],
    [
      'a forged metadata.managedFields where an array was also cut from another field',
      JSON.stringify(request({ controller: { metadata: { name: 'c', managedFields: 0 } }, parent: object('Parent', 'p', { spec: { managedFields: [] } }) })),
    ],
    [
      'the same key twice in one metadata (JSON.parse keeps the last)',
      `{"parent":{"kind":"P","metadata":{"managedFields":[1],"name":"p","managedFields":[2]}}}`,
    ],
    [
      'arrays nested deeper than the scanner goes',
      JSON.stringify(
        request({ parent: object('Parent', 'p', { metadata: { name: 'p', managedFields: JSON.parse(`${'['.repeat(200)}${']'.repeat(200)}`) } }) }),
      ),
    ],
    [
      'numbers, literals and escapes of every kind inside the array',
      `{"parent":{"metadata":{"name":"p","managedFields":[-0.5e+3,0,12,1E9,true,false,null,"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9é",{}, [ ] ,{"a" : [ {} ] }]}}}`,
    ],
    [
      'characters of two, three and four bytes before, inside and after the arrays (offsets are bytes)',
      JSON.stringify(
        request({
          parent: object('Parent', 'p', { spec: { note: 'é€😀' } }),
          related: { 'Secret.v1': { 'team-a/ü': { kind: 'Secret', metadata: { name: 'ü€', managedFields: [{ manager: '😀' }] }, data: { k: '€' } } } },
        }),
      ),
    ],
    ['no managedFields at all', JSON.stringify({ parent: { kind: 'P', metadata: { name: 'p' } }, children: null, related: {} })],
    ['a body that is not an object', '[{"metadata":{"managedFields":[1]}}]'],
  ];
  it.each(table)('%s', (_why, text) => {
    expect(parseRequestText(text)).toStrictEqual(expected(text));
  });

  // Each row: a malformed body that must be refused with JSON.parse's own message for the text as it came.
  const malformed: [string, string][] = [
    ['a bad number inside the array', '{"parent":{"metadata":{"managedFields":[01]}}}'],
    ['a missing comma inside the array', '{"parent":{"metadata":{"managedFields":[1 2]}}}'],
    ['a trailing comma inside the array', '{"parent":{"metadata":{"managedFields":[1,]}}}'],
    ['a key without a value inside the array', '{"parent":{"metadata":{"managedFields":[{"a"}]}}}'],
    ['a bad escape inside the array', '{"parent":{"metadata":{"managedFields":["\\x"]}}}'],
    ['a control character inside a string of the array', `{"parent":{"metadata":{"managedFields":["a${String.fromCharCode(1)}b"]}}}`],
    ['an unclosed array', '{"parent":{"metadata":{"managedFields":[[1]}}}'],
    ['a mismatched bracket', '{"parent":{"metadata":{"managedFields":[1}}}'],
    ['a literal that is not one', '{"parent":{"metadata":{"managedFields":[nul]}}}'],
    ['malformed after a well-formed array', '{"parent":{"metadata":{"managedFields":[1]},}}'],
    ['a key that is really inside a string whose array would fit there', '{"s":"{"managedFields":[1]}"}'],
  ];
  it.each(malformed)('refuses %s as JSON.parse does', (_why, text) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(() => parseRequestText(text)).toThrow(thrown(() => JSON.parse(text)));
  });

  const request$ = fc
    .record({
      controller: objectArb(),
      parent: objectArb(),
      children: fc.dictionary(fc.constantFrom('Deployment.apps/v1', 'Service.v1'), fc.dictionary(fc.string(), objectArb(), { maxKeys: 3 }), { maxKeys: 2 }),
      related: fc.dictionary(fc.constantFrom('Secret.v1', 'Pod.v1'), fc.oneof(fc.constant(null), fc.dictionary(fc.string(), objectArb(), { maxKeys: 3 })), {
        maxKeys: 2,
      }),
      finalizing: fc.boolean(),
    })
    .chain((body) => fc.constantFrom(0, 1, '\t', ' \n ').map((indent) => JSON.stringify(body, null, indent)));

  it('reads any request as JSON.parse does but metadata.managedFields, which it never parses (property)', () => {
    fc.assert(
      fc.property(request$, (text) => {
        expect(parseRequestText(text)).toStrictEqual(expected(text));
        // Every array it cut is one the text really holds there, and JSON.
        const raw = Buffer.from(text);
        const cuts = managedFieldsArrays(raw);
        for (let i = 0; i < cuts.length; i += 2) expect(() => JSON.parse(raw.toString('utf8', cuts[i], cuts[i + 1]))).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a request with one character changed exactly when JSON.parse does, with its message (property)', () => {
    const changed$ = request$.chain((text) =>
      fc.record({
        text: fc.constant(text),
        // Half the changes land in a managedFields array, where the scanner alone reads them.
        at: fc.oneof(
          fc.nat(text.length - 1),
          fc.nat(text.length - 1).map((n) => inManagedFields(text, n)),
        ),
        change: fc.oneof(fc.constant(''), fc.constantFrom(...'[]{}",:0-.eE\\ tfnu1a'.split(''))),
        insert: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(changed$, ({ text, at, change, insert }) => {
        const changed = text.slice(0, at) + change + text.slice(insert ? at : at + 1);
        // The text as it was, first: its arrays are known (kit/request-json.ts knownArrayEnd)
        // when the changed one, which may begin as they do, comes.
        parseRequestText(text);
        try {
          JSON.parse(changed);
        } catch (err) {
          expect(() => parseRequestText(changed)).toThrow((err as Error).message);
          return;
        }
        expect(parseRequestText(changed)).toStrictEqual(expected(changed));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('runSync (the testing helpers and `modelhooks render`) drops them as the server does', () => {
  it('a hook sees no metadata.managedFields of the parent or an observed child, and a spec field of that name', () => {
    const seen: unknown[] = [];
    const echo = defineComposition({
      name: 'echo',
      parent: { group: 'x.dev', kind: 'X', plural: 'xs', singular: 'x', versions: ['v1'] },
      spec: z.object({ managedFields: z.array(z.string()) }),
      children: [{ apiVersion: 'v1', kind: 'ConfigMap', resource: 'configmaps' }],
      sync: (input) => {
        seen.push(input.parent.metadata.managedFields, input.parent.spec.managedFields, input.observed.get('v1', 'ConfigMap', 'c')?.metadata.managedFields);
        return { status: {}, children: [] };
      },
    });
    const parent = {
      apiVersion: 'x.dev/v1',
      kind: 'X',
      metadata: { name: 'p', namespace: 'ns', managedFields: [entry('kubectl')] },
      spec: { managedFields: ['kept'] },
    };
    const observed = [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns', managedFields: [entry('modelhooks')] } }];
    runSync(echo, { parent, observed: observed as never });
    expect(seen).toEqual([undefined, ['kept'], undefined]);
  });
});

/** An object as Metacontroller sends one: metadata with a managedFields array (often), sometimes a field of that name elsewhere. */
function objectArb() {
  const fields = fc.array(fc.oneof(fc.constant(entry('kubectl')), fc.jsonValue({ maxDepth: 3 })), { maxLength: 3 });
  return fc.record(
    {
      kind: fc.constantFrom('Deployment', 'Secret'),
      metadata: fc.record(
        { name: fc.string(), managedFields: fields, annotations: fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.constant('{"managedFields":[1]}'))) },
        { requiredKeys: ['name'] },
      ),
      spec: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.record({ managedFields: fields })),
    },
    { requiredKeys: ['metadata'] },
  );
}

/** The offset n lands on, moved into the first managedFields array at or after it, if there is one. */
function inManagedFields(text: string, n: number): number {
  const start = text.indexOf('"managedFields"', n);
  if (start < 0) return n;
  const open = text.indexOf('[', start);
  return open < 0 ? n : Math.min(text.length - 1, open + (n % 40));
}

function thrown(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    return (err as Error).message;
  }
  return '';
}

describe('parentIdentityOf: the parent a body names, from its bytes (the queue it waits in; the parent a 413 names)', () => {
  const scan = (text: string) => parentIdentityOf(Buffer.from(text));

  it.each([
    [
      "Metacontroller's order: controller, then the parent's sorted metadata",
      '{"controller":{"metadata":{"name":"c","namespace":"x"}},"parent":{"apiVersion":"v1","kind":"K","metadata":{"annotations":{"a":"b"},"generation":1,"name":"svc","namespace":"team-a"}}}',
      { namespace: 'team-a', name: 'svc' },
    ],
    [
      'labels and annotations named namespace and name are a level too deep',
      '{"parent":{"metadata":{"annotations":{"namespace":"no","name":"no"},"labels":{"namespace":"no","name":"no"},"name":"n","namespace":"yes"}}}',
      { namespace: 'yes', name: 'n' },
    ],
    [
      'an annotation whose value holds the keys, escaped quotes and braces',
      '{"parent":{"metadata":{"annotations":{"x":"{\\\"parent\\\":{\\\"metadata\\\":{\\\"namespace\\\":\\\"no\\\"}}}}}"},"namespace":"yes","name":"n"}}}',
      { namespace: 'yes', name: 'n' },
    ],
    [
      'a value "parent" or "namespace" is not a key',
      '{"kind":"parent","parent":{"metadata":{"x":"namespace","namespace":"yes"}}}',
      { namespace: 'yes', name: undefined },
    ],
    [
      'a spec holding metadata.namespace',
      '{"parent":{"spec":{"metadata":{"namespace":"no","name":"no"}},"metadata":{"name":"n","namespace":"yes"}}}',
      { namespace: 'yes', name: 'n' },
    ],
    [
      "not Metacontroller's order: parent first, namespace before name, metadata last",
      '{"parent":{"spec":{},"metadata":{"namespace":"yes","name":"n"}},"controller":{"metadata":{"namespace":"no"}}}',
      { namespace: 'yes', name: 'n' },
    ],
    ['with spaces and new lines', '{ "parent" :\n { "metadata" : { "name" : "n" ,\t"namespace" : "yes" } } }', { namespace: 'yes', name: 'n' }],
    ['no parent', '{"controller":{},"x":{"metadata":{"namespace":"no"}}}', { namespace: undefined, name: undefined }],
    ['a parent of null', '{"parent":null,"y":{"metadata":{"namespace":"no"}}}', { namespace: undefined, name: undefined }],
    ['a metadata that is not an object', '{"parent":{"metadata":"x","namespace":"no"},"z":{"namespace":"no"}}', { namespace: undefined, name: undefined }],
    [
      'none in the parent: nothing from what follows it',
      '{"parent":{"metadata":{"name":"n"}},"x":{"metadata":{"namespace":"no"}}}',
      { namespace: undefined, name: 'n' },
    ],
    // JSON.parse reads these as parent.metadata.namespace; the scan does not recognise escapes (the request waits in the shared queue).
    ['a key written with a unicode escape', '{"parent":{"metadata":{"namesp\\u0061ce":"team-a"}}}', { namespace: undefined, name: undefined }],
    ['a parent key written with a unicode escape', '{"\\u0070arent":{"metadata":{"namespace":"team-a"}}}', { namespace: undefined, name: undefined }],
    ['a value written with an escape', '{"parent":{"metadata":{"namespace":"te\\u0061m","name":"a\\/b"}}}', { namespace: undefined, name: undefined }],
    ['a value that is not a name', '{"parent":{"metadata":{"namespace":"Team A","name":7}}}', { namespace: undefined, name: undefined }],
  ])('%s', (_what, text, want) => {
    expect(JSON.parse(text)).toBeDefined();
    expect(scan(text)).toEqual(want);
  });

  it('does not recurse: 100,000 levels of nesting before the parent', () => {
    const text = `{"controller":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}},"parent":{"metadata":{"name":"n","namespace":"yes"}}}`;
    expect(scan(text)).toEqual({ namespace: 'yes', name: 'n' });
  });

  it('a prefix of the bytes gives what it holds: the first bytes of a body refused for its size', () => {
    const text = '{"controller":{},"parent":{"metadata":{"name":"svc","namespace":"team-a","uid":"u"},"spec":{"x":"';
    expect(scan(text)).toEqual({ namespace: 'team-a', name: 'svc' });
    expect(scan(text.slice(0, text.indexOf('"namespace"') + 5))).toEqual({ namespace: undefined, name: 'svc' });
    expect(scan(text.slice(0, text.indexOf('team-a') + 3))).toEqual({ namespace: undefined, name: 'svc' });
  });

  it('property: whatever it gives is what JSON.parse reads (keys shuffled, decoy keys at every other depth)', () => {
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
    const decoyKey = fc.constantFrom('namespace', 'name', 'parent', 'metadata', 'x');
    const decoys = fc.dictionary(decoyKey, fc.oneof(label, fc.constant({ namespace: 'decoy' }), fc.constant(['namespace', 'parent'])), { maxKeys: 4 });
    fc.assert(
      fc.property(label, label, decoys, decoys, decoys, fc.boolean(), fc.boolean(), (namespace, name, labels, spec, controller, parentFirst, nameFirst) => {
        const metadata = nameFirst ? { labels, annotations: labels, name, namespace } : { namespace, labels, name, annotations: labels };
        const parent = { spec, metadata, status: labels };
        const body = parentFirst ? { parent, controller: { metadata: controller } } : { controller: { metadata: controller, spec }, parent };
        const text = JSON.stringify(body);
        const parsed = JSON.parse(text).parent.metadata;
        expect(scan(text)).toEqual({ namespace: parsed.namespace, name: parsed.name });
      }),
      { numRuns: 300 },
    );
  });
});
