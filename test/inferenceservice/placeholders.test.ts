import { describe, expect, it } from 'vitest';
import type { V1Container } from '@kubernetes/client-node';
import { replacePlaceholders, type TemplateMeta } from '../../hooks/inferenceservice/runtime/container.js';

/*
 * replacePlaceholders rewrites only the strings that hold a placeholder. Its answer must be
 * the template over the container's whole JSON text (KServe's ReplacePlaceholders), which
 * this reference computes directly, for every container, odd ones included.
 */
function overWholeText(container: unknown, meta: TemplateMeta): unknown {
  let error: string | undefined;
  const text = JSON.stringify(container).replace(/\{\{(.*?)\}\}/g, (whole, inner: string) => {
    const m = /^\s*\.(Name|Namespace|Labels\.([\w-]+)|Annotations\.([\w-]+))\s*$/.exec(inner);
    if (!m) {
      error ??= `placeholder ${whole} is not one of {{.Name}}, {{.Namespace}}, {{.Labels.<key>}}, {{.Annotations.<key>}}`;
      return whole;
    }
    const value =
      m[1] === 'Name' ? meta.name : m[1] === 'Namespace' ? meta.namespace : m[2] !== undefined ? meta.labels[m[2]] : meta.annotations[m[3] as string];
    return JSON.stringify(value ?? '<no value>').slice(1, -1);
  });
  return error ? { error } : JSON.parse(text);
}

const meta: TemplateMeta = {
  name: 'llm',
  namespace: 'ml',
  labels: { team: 'a"b\\c', line: 'x\ny' },
  annotations: { modelFormat: 'huggingface', 'a-b': '{{.Name}}' },
};

const deepFreeze = <T>(v: T): T => {
  if (typeof v === 'object' && v !== null) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
};

const cases: Array<{ why: string; container: Record<string, unknown> }> = [
  { why: 'no placeholder', container: { name: 'c', image: 'i:1', args: ['--a=1'], resources: { limits: { cpu: '1' } }, ports: [{ containerPort: 8080 }] } },
  {
    why: 'the usual ones',
    container: {
      name: 'c',
      args: ['--model_name={{.Name}}', '--ns={{ .Namespace }}'],
      env: [
        { name: 'T', value: '{{.Labels.team}}' },
        { name: 'F', value: '{{.Annotations.modelFormat}}' },
      ],
    },
  },
  { why: 'a missing key', container: { args: ['{{.Labels.none}}', '{{.Annotations.none}}'] } },
  { why: 'values that need escaping', container: { args: ['{{.Labels.line}}-{{.Labels.team}}'] } },
  { why: 'a value that looks like a placeholder is not templated again', container: { args: ['{{.Annotations.a-b}}'] } },
  { why: 'several in one string', container: { command: ['sh', '-c', 'serve {{.Name}} in {{.Namespace}} for {{.Labels.team}}'] } },
  { why: 'an action refused', container: { args: ['{{.Name}}', '{{ if .Name }}x{{ end }}'] } },
  { why: 'a refused action in a later field', container: { image: 'i', env: [{ name: 'X', value: '{{printf "%s" .Name}}' }] } },
  { why: 'a {{ whose match runs into the next string', container: { args: ['a{{', '}}b', '{{.Name}}'] } },
  { why: 'a {{ left open at the end', container: { args: ['{{.Name}} and {{'] } },
  { why: 'a placeholder in a key', container: { resources: { limits: { '{{.Name}}': '1' } } } },
  { why: 'a newline inside the braces', container: { args: ['{{.Name\n}}', '{{\n.Name}}'] } },
  { why: 'a quote inside the braces', container: { args: ['{{."Name"}}'] } },
  { why: 'a line separator inside the braces', container: { args: ['{{.Name\u2028}} {{.Name}}'] } },
  {
    why: 'nested lists and objects',
    container: {
      name: 'c',
      volumeMounts: [{ name: 'v', mountPath: '/mnt/{{.Name}}' }],
      lifecycle: { preStop: { exec: { command: ['{{.Namespace}}'] } } },
      n: [1, true, null, [['{{.Name}}']]],
    },
  },
  { why: 'numbers, booleans and null are kept', container: { ports: [{ containerPort: 9000, hostPort: 0 }], tty: false, stdin: null } },
];

describe('replacePlaceholders', () => {
  it.each(cases)('answers as the template over the whole JSON text: $why', ({ container }) => {
    const frozen = deepFreeze(structuredClone(container));
    expect(replacePlaceholders(frozen as unknown as V1Container, meta)).toEqual(overWholeText(container, meta));
  });

  it('leaves the runtime container it reads unchanged', () => {
    const container = { name: 'c', args: ['--model_name={{.Name}}', '--x'], env: [{ name: 'A', value: '{{.Namespace}}' }] };
    const before = structuredClone(container);
    const out = replacePlaceholders(container, meta) as V1Container;
    expect(container).toEqual(before);
    expect(out.args).toEqual(['--model_name=llm', '--x']);
    expect(out.env).toEqual([{ name: 'A', value: 'ml' }]);
  });
});
