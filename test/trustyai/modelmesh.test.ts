/**
 * model-serving-config's payloadProcessors: which entries are ours to write, and that no
 * entry of anyone else is ever lost or rewritten.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { defaultHookConfig } from '../../hooks/config.js';
import { ObjectIndex, type KubeObject, type SyncInput } from '../../hooks/kit/index.js';
import { runSync } from '../../hooks/testing.js';
import { modelMeshFor } from '../../hooks/trustyai/configmap.js';
import { trustyai } from '../../hooks/trustyai/index.js';
import type { TrustyAISpec } from '../../hooks/trustyai/spec.js';

const config = defaultHookConfig();
const spec = { storage: { format: 'PVC' }, metrics: { schedule: '5s' } };
const service = (name: string, namespace = 'team', deleting = false): KubeObject => ({
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  metadata: { name, namespace, uid: `uid-${name}`, generation: 1, ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  spec,
});
const url = (name: string, namespace = 'team') => `http://${name}.${namespace}.svc.cluster.local/consumer/kserve/v2`;
/** Our model-serving-config as observed, with this payloadProcessors line. */
const ours = (processors: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'model-serving-config', namespace: 'team', labels: { 'app.kubernetes.io/managed-by': 'modelhooks' } },
  data: { 'config.yaml': `podsPerRuntime: 2\npayloadProcessors: ${processors}\n` },
});
const processorsIn = (out: ReturnType<typeof runSync>) => {
  const cm = out.child<KubeObject & { data: Record<string, string> }>('ConfigMap', 'model-serving-config');
  return String(parse(cm?.data['config.yaml'] ?? '').payloadProcessors).split(' ');
};
const sync = (processors: string, related: KubeObject[]) =>
  runSync(trustyai, { parent: service('a'), observed: [ours(processors)], related: [service('a'), ...related], config });

describe('payload processors: what is ours', () => {
  it('keeps an entry shaped like a TrustyAIService URL of this namespace when no such service exists, byte-for-byte', () => {
    const foreign = [url('x'), 'http://y.team.svc.cluster.local/consumer/kserve/v2?tenant=%C3%BC', url('z', 'other')];
    expect(processorsIn(sync(foreign.join(' '), []))).toEqual([...foreign, url('a')]);
  });
  it('lists every live TrustyAIService of the namespace and removes the URL of one being deleted', () => {
    const out = sync(`${url('gone')} http://audit:8080/p`, [service('b'), service('gone', 'team', true)]);
    expect(processorsIn(out)).toEqual(['http://audit:8080/p', url('a'), url('b')]);
  });
  it('never lists a TrustyAIService of another namespace, even when Metacontroller offers one', () => {
    const out = runSync(trustyai, { parent: service('a'), observed: [ours('')], related: [service('a'), service('intruder', 'other')], config });
    expect(JSON.stringify(out.response)).not.toContain('intruder');
    expect(processorsIn(out)).toEqual([url('a')]);
  });
  it('keeps the same entry again on the next sync (a fixed point), so nothing drifts', () => {
    const first = sync(`${url('x')} http://audit:8080/p`, [service('b')]);
    const line = processorsIn(first).join(' ');
    expect(processorsIn(sync(line, [service('b')]))).toEqual(processorsIn(first));
  });
});

describe('payload processors: no regex is built from input', () => {
  it('answers instantly and correctly for a namespace and names full of regex metacharacters', () => {
    // Not reachable over the wire (the namespace must be a DNS label), so called directly.
    const namespace = '(a+)+$|.*[';
    const evil = `http://${'a'.repeat(40)}!.${namespace}.svc.cluster.local/consumer/kserve/v2`;
    const configMap = { ...ours(`${evil} ${'a'.repeat(5000)}`), metadata: { ...ours('').metadata, namespace } };
    const parent = { ...service('a'), metadata: { ...service('a').metadata, namespace } };
    const input = {
      parent: { ...parent, status: {} },
      observed: new ObjectIndex([configMap], namespace),
      related: new ObjectIndex([{ ...service('b(.*)+'), metadata: { ...service('b(.*)+').metadata, namespace } }], namespace),
      declares: () => true,
      now: '2026-01-01T00:00:00Z',
      config: config.trustyai,
      finalizing: false,
    } as unknown as SyncInput<TrustyAISpec>;
    const start = performance.now();
    const decision = modelMeshFor(input);
    expect(performance.now() - start).toBeLessThan(200);
    const written = String(parse(decision.configMap?.data?.['config.yaml'] ?? '').payloadProcessors).split(' ');
    // The look-alike entries are kept as they are; the two services' URLs are listed after them.
    expect(written.slice(0, 2)).toEqual([evil, 'a'.repeat(5000)]);
    expect(written).toHaveLength(4);
    expect(written.slice(2).every((u) => u.includes(`.${namespace}.svc.cluster.local/`))).toBe(true);
  });
});
