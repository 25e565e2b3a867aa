import { readFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseDump, pluralOf, yamlLoader, yamlPackageLoader } from '../../hooks/cli/plan/dump.js';

const root = path.resolve(import.meta.dirname, '../..');

describe('reading a dump', () => {
  // kubectl writes YAML through sigs.k8s.io/yaml (go-yaml): strings that would read as other
  // types are quoted, long strings stay on one line, multi-line ones are block literals.
  const kubectlLike = `apiVersion: v1
items:
- apiVersion: v1
  data:
    config.json: |
      {"a": 1,
       "b": "two"}
    flag: "true"
    mode: "0777"
    octal: "010"
    version: "1.0"
    word: "yes"
    "on": "off"
  kind: ConfigMap
  metadata:
    annotations:
      note: 'it''s quoted'
    creationTimestamp: "2026-01-01T00:00:00Z"
    name: cm
    namespace: ns
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: d
    namespace: ns
  spec:
    replicas: 2
    template:
      spec:
        containers:
        - args: []
          image: x
          name: c
kind: List
metadata:
  resourceVersion: ""
`;

  it('js-yaml (the fast reader) reads what the yaml package reads, on kubectl-like output and on a whole example cluster', async () => {
    const load = await yamlLoader();
    expect(parseDump('k', kubectlLike, load)).toEqual(parseDump('k', kubectlLike, yamlPackageLoader));
    const examples = ['inferenceservice.yaml', 'trustyai.yaml', 'servingruntime.yaml']
      .map((f) => readFileSync(path.join(root, 'examples', f), 'utf8'))
      .join('---\n');
    expect(parseDump('e', examples, load)).toEqual(parseDump('e', examples, yamlPackageLoader));
    const roundTrip = stringify({ apiVersion: 'v1', kind: 'List', items: parseDump('k', kubectlLike) });
    expect(parseDump('r', roundTrip, load)).toEqual(parseDump('k', kubectlLike));
  });

  it('every string stays a string', async () => {
    const [cm] = parseDump('k', kubectlLike, await yamlLoader());
    expect(cm?.data).toEqual({ 'config.json': '{"a": 1,\n "b": "two"}\n', flag: 'true', mode: '0777', octal: '010', version: '1.0', word: 'yes', on: 'off' });
    expect(cm?.metadata.creationTimestamp).toBe('2026-01-01T00:00:00Z');
  });

  it('reads JSON, and refuses what is not a Kubernetes object', () => {
    expect(parseDump('j', JSON.stringify({ kind: 'List', items: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } }] }))).toHaveLength(1);
    expect(() => parseDump('bad', 'a: 1\n')).toThrow('bad: every object must be a Kubernetes object');
  });

  it('names plurals as the API server does for the usual kinds', () => {
    expect(['Secret', 'Ingress', 'Endpoints', 'NetworkPolicy', 'Policy', 'Class', 'StorageClass', 'Gateway'].map(pluralOf)).toEqual([
      'secrets',
      'ingresses',
      'endpoints',
      'networkpolicies',
      'policies',
      'classes',
      'storageclasses',
      'gateways',
    ]);
  });
});
