import { describe, expect, it } from 'vitest';
import { firstModelName, modelsFileOf } from '../../hooks/tfserv/models-file.js';

const cases: Array<{ reason: string; content: string; want: string | undefined }> = [
  {
    reason: 'the original sample: name first, double quotes, colons after blocks',
    content: 'model_config_list: {\n  config: {\n    name: "resnet",\n    base_path: "gs://b/resnet"\n  }\n}',
    want: 'resnet',
  },
  { reason: 'single quotes and no colons after blocks', content: "model_config_list { config { name: 'mnist' base_path: '/m' } }", want: 'mnist' },
  {
    reason: 'the first of several models is probed',
    content: 'model_config_list { config { name: "a" } config { name: "b" } }',
    want: 'a',
  },
  { reason: 'base_path before name does not confuse the match', content: 'config { base_path: "/models/x", name: "x" }', want: 'x' },
  { reason: 'a commented-out name is ignored', content: '# name: "old"\nconfig { name: "new" }', want: 'new' },
  { reason: 'a # inside a quoted path is not a comment', content: 'config { base_path: "/m/#1" name: "hash" }', want: 'hash' },
  { reason: 'model_name is another field, not name', content: 'config { model_name: "no" base_path: "/m" }', want: undefined },
  { reason: 'no name at all', content: 'model_config_list {}', want: undefined },
  { reason: 'a name that cannot go in a URL path unescaped gets no HTTP probe', content: 'config { name: "a b/c" }', want: undefined },
  { reason: 'an empty name is no name', content: 'config { name: "" }', want: undefined },
];

describe('firstModelName', () => {
  it.each(cases)('$reason', ({ content, want }) => {
    expect(firstModelName(content)).toBe(want);
  });
});

describe('modelsFileOf', () => {
  const configMap = (data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'm' }, data });

  it('is undefined without the ConfigMap, without data, or without the key', () => {
    expect(modelsFileOf(undefined, 'models.conf')).toBeUndefined();
    expect(modelsFileOf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'm' } }, 'models.conf')).toBeUndefined();
    expect(modelsFileOf(configMap({ other: 'x' }), 'models.conf')).toBeUndefined();
  });

  it('hashes the content only: another key in the ConfigMap does not roll the pods', () => {
    const a = modelsFileOf(configMap({ 'models.conf': 'config { name: "a" }' }), 'models.conf');
    const b = modelsFileOf(configMap({ 'models.conf': 'config { name: "a" }', unrelated: 'x' }), 'models.conf');
    const c = modelsFileOf(configMap({ 'models.conf': 'config { name: "b" }' }), 'models.conf');
    expect(a?.checksum).toBe(b?.checksum);
    expect(a?.checksum).not.toBe(c?.checksum);
    expect(a?.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it('an empty file is still a file (TF Serving reports the problem, not us)', () => {
    expect(modelsFileOf(configMap({ 'models.conf': '' }), 'models.conf')).toEqual({ checksum: expect.any(String), firstModel: undefined });
  });
});
