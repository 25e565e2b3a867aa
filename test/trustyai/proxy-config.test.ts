import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Parent } from '../../hooks/kit/index.js';
import { proxyConfigFor } from '../../hooks/trustyai/proxy.js';

const parent = (name: string, namespace: string): Parent<unknown> => ({
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  metadata: { name, namespace },
  spec: {},
  status: {},
});
const attributesOf = (p: Parent<unknown>) => parse(proxyConfigFor(p, 'v').data?.['config.yaml'] ?? '').authorization.resourceAttributes;

// The config text is written once per namespace and service, then reused (proxy.ts): each
// service must still get its own, however many came before it.
describe('kube-rbac-proxy config of many services', () => {
  it('each names its own namespace and Service, in any order and again', () => {
    const order = [parent('a', 'one'), parent('b', 'one'), parent('a', 'two'), parent('a', 'one'), parent('b', 'two')];
    for (const p of order)
      expect(attributesOf(p)).toEqual({ namespace: p.metadata.namespace, resource: 'services', resourceName: p.metadata.name, verb: 'get', apiGroup: '' });
  });
  it('the same text for the same service, and still the right one after more services than the table holds', () => {
    const first = proxyConfigFor(parent('keep', 'ns'), 'v').data?.['config.yaml'];
    for (let i = 0; i < 1500; i++) expect(attributesOf(parent(`s${i}`, `ns${i % 7}`)).resourceName).toBe(`s${i}`);
    expect(proxyConfigFor(parent('keep', 'ns'), 'v').data?.['config.yaml']).toBe(first);
    expect(attributesOf(parent('keep', 'ns'))).toMatchObject({ namespace: 'ns', resourceName: 'keep' });
  });
});
