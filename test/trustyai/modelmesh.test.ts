/**
 * model-serving-config's payloadProcessors: which entries are ours to write, and that no
 * entry of anyone else is ever lost or rewritten.
 */
import { describe, expect, it } from 'vitest';
import { defaultHookConfig, loadConfig } from '../../hooks/server/config.js';
import { modelMeshPayloadProcessors } from './modelmesh-parser.js';
import { ObjectIndex, type KubeObject, type SyncInput } from '../../hooks/kit/index.js';
import { runSync } from '../../hooks/testing/index.js';
import { modelMeshFor } from '../../hooks/trustyai/configmap.js';
import { trustyai } from '../../hooks/trustyai/index.js';
import type { TrustyAISpec } from '../../hooks/trustyai/spec.js';

// ModelMesh's controller runs in `team` here: the only namespace whose model-serving-config it reads.
const defaults = defaultHookConfig();
const config = { ...defaults, trustyai: { ...defaults.trustyai, modelMeshNamespace: 'team' } };
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
  return modelMeshPayloadProcessors(cm?.data['config.yaml'] ?? '');
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
      config: { ...config.trustyai, modelMeshNamespace: namespace },
      finalizing: false,
    } as unknown as SyncInput<TrustyAISpec, typeof config.trustyai>;
    const start = performance.now();
    const decision = modelMeshFor(input);
    expect(performance.now() - start).toBeLessThan(200);
    const cm = decision.configMap as KubeObject & { data: Record<string, string> };
    const written = modelMeshPayloadProcessors(cm.data['config.yaml'] ?? '');
    // The look-alike entries are kept as they are; the two services' URLs are listed after them.
    expect(written.slice(0, 2)).toEqual([evil, 'a'.repeat(5000)]);
    expect(written).toHaveLength(4);
    expect(written.slice(2).every((u) => u.includes(`.${namespace}.svc.cluster.local/`))).toBe(true);
  });
});

describe("payload processors in the form ModelMesh's parser accepts", () => {
  for (const names of [
    ['a', 'b'],
    ['a', 'b', 'c'],
  ]) {
    it(`${names.length} TrustyAIServices in ModelMesh's namespace: one list entry each, no spaces`, () => {
      const services = names.map((n) => service(n));
      const out = runSync(trustyai, { parent: services[0] as KubeObject, related: services, config });
      const cm = out.child<KubeObject & { data: Record<string, string> }>('ConfigMap', 'model-serving-config');
      expect(modelMeshPayloadProcessors(cm?.data['config.yaml'] ?? '')).toEqual(names.map((n) => url(n)));
    });
  }
  it('rewrites the space-separated string earlier modelhooks wrote (which ModelMesh rejects) as a list', () => {
    const old = `${url('a')} ${url('b')}`;
    expect(() => modelMeshPayloadProcessors((ours(old).data as Record<string, string>)['config.yaml'] as string)).toThrow(/must not contain spaces/);
    expect(processorsIn(sync(old, [service('b')]))).toEqual([url('a'), url('b')]);
  });
});

describe('only where ModelMesh reads its config', () => {
  it('in any other namespace: no ConfigMap, ModelMeshReady=False saying where ModelMesh reads it and how to wire it', () => {
    const out = runSync(trustyai, { parent: service('a', 'elsewhere'), related: [service('a', 'elsewhere')], config });
    expect(out.child('ConfigMap', 'model-serving-config')).toBeUndefined();
    const c = out.condition('ModelMeshReady');
    expect(c).toMatchObject({ status: 'False', reason: 'NotModelMeshNamespace' });
    for (const part of ['model-serving-config', "controller's namespace team", url('a', 'elsewhere'), 'MODELHOOKS_MODELMESH_NAMESPACE=elsewhere'])
      expect(c?.message).toContain(part);
    // ModelMesh is optional: the service itself is not held back by it.
    expect(out.condition('Ready')?.reason).not.toBe('NotModelMeshNamespace');
  });
  it('keeps, unchanged, a model-serving-config an earlier modelhooks wrote in such a namespace', () => {
    const earlier = { ...ours(url('a')), metadata: { ...ours('').metadata, namespace: 'elsewhere' } };
    const out = runSync(trustyai, { parent: service('a', 'elsewhere'), observed: [earlier], related: [service('a', 'elsewhere')], config });
    expect(out.child('ConfigMap', 'model-serving-config')).toEqual(earlier);
  });
  it('takes the namespace from MODELHOOKS_MODELMESH_NAMESPACE, modelmesh-serving by default', () => {
    expect(loadConfig({}).hooks.trustyai.modelMeshNamespace).toBe('modelmesh-serving');
    expect(loadConfig({ MODELHOOKS_MODELMESH_NAMESPACE: 'opendatahub' }).hooks.trustyai.modelMeshNamespace).toBe('opendatahub');
    expect(() => loadConfig({ MODELHOOKS_MODELMESH_NAMESPACE: 'Not_A_Namespace' })).toThrow(/MODELHOOKS_MODELMESH_NAMESPACE/);
  });
});

describe('a TrustyAIService deleted without being the owner', () => {
  it('its URL, recorded as written by us, leaves the list; a look-alike we never wrote stays', () => {
    const first = runSync(trustyai, { parent: service('a'), related: [service('a'), service('b')], config });
    const written = first.child('ConfigMap', 'model-serving-config') as KubeObject;
    expect(written.metadata.annotations?.['modelhooks.dev/payload-processors']).toBe(`${url('a')} ${url('b')}`);
    // b is gone (no finalizer: it vanished from related); someone else added x by hand.
    const cm = written as KubeObject & { data: Record<string, string> };
    const withForeign = { ...cm, data: { 'config.yaml': `payloadProcessors:\n  - ${url('x')}\n  - ${url('a')}\n  - ${url('b')}\n` } };
    const out = runSync(trustyai, { parent: service('a'), observed: [withForeign], related: [service('a')], config });
    expect(processorsIn(out)).toEqual([url('x'), url('a')]);
  });
});

/** 9 anchors, each a list of 9 aliases of the one before: 600 bytes that resolve to 9^9 strings. */
function aliasBomb(): string {
  const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < 9; i++) {
    const [name, before] = [String.fromCharCode(97 + i), String.fromCharCode(96 + i)];
    lines.push(`${name}: &${name} [${Array(9).fill(`*${before}`).join(',')}]`);
  }
  return `${lines.join('\n')}\npayloadProcessors: [*i]\n`;
}

describe('a model-serving-config whose config.yaml we cannot read is never rewritten', () => {
  // ModelMesh's own settings (podsPerRuntime) and another team's processor sit beside ours.
  const withText = (text: string, managed = true): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'model-serving-config', namespace: 'team', ...(managed ? { labels: { 'app.kubernetes.io/managed-by': 'modelhooks' } } : {}) },
    data: { 'config.yaml': text },
  });
  it.each([
    ['does not parse', 'podsPerRuntime: 2\npayloadProcessors: [http://other/x\n', 'does not parse as YAML'],
    ['holds a duplicate key', 'podsPerRuntime: 2\npodsPerRuntime: 3\npayloadProcessors:\n  - http://other/x\n', 'Map keys must be unique'],
    ['holds a second document', 'podsPerRuntime: 2\npayloadProcessors:\n  - http://other/x\n---\npodsPerRuntime: 4\n', 'multiple documents'],
    ['has a map where a list is expected', 'podsPerRuntime: 2\npayloadProcessors:\n  other: http://other/x\n', 'payloadProcessors of the wrong type (a map)'],
    ['is a list, not a map', '- podsPerRuntime: 2\n', 'is not a YAML map'],
    // Issue 32 item 1: 0.95 MiB the API server stores, which exhausted the heap; a 600-byte alias bomb, which was a 500 (kit/bounded.ts).
    ['is 0.95 MiB of nested brackets', `${'['.repeat(5e5)}${']'.repeat(5e5)}`, 'is 1000000 bytes, more than the 131072 modelhooks reads'],
    ['nests flow collections 200 deep', `payloadProcessors: ${'['.repeat(200)}${']'.repeat(200)}\n`, 'nests flow collections deeper than 100 levels'],
    ['nests blocks 2,000 deep', `payloadProcessors:\n${'- '.repeat(2000)}x\n`, 'nests blocks past column 256'],
    ['is an alias bomb', aliasBomb(), 'Excessive alias count'],
  ])('ours, when it %s: kept as observed, ModelMeshReady=False ConfigMapUnreadable naming the problem', (_what, text, problem) => {
    const observed = withText(text);
    const out = runSync(trustyai, { parent: service('a'), observed: [observed], related: [service('a')], config });
    expect(out.child('ConfigMap', 'model-serving-config')).toEqual(observed);
    const c = out.condition('ModelMeshReady');
    expect(c).toMatchObject({ status: 'False', reason: 'ConfigMapUnreadable' });
    expect(c?.message).toContain(problem);
    expect(c?.message).toContain(url('a'));
  });
  it("someone else's, when it does not parse: not written, ModelMeshReady=False naming the problem", () => {
    const out = runSync(trustyai, { parent: service('a'), related: [service('a'), withText('podsPerRuntime: 2\npodsPerRuntime: 3\n', false)], config });
    expect(out.child('ConfigMap', 'model-serving-config')).toBeUndefined();
    expect(out.condition('ModelMeshReady')).toMatchObject({ status: 'False', reason: 'ConfigMapUnreadable' });
  });
  it('an empty config.yaml is still ours to fill', () => {
    const out = runSync(trustyai, { parent: service('a'), observed: [withText('')], related: [service('a')], config });
    expect(processorsIn(out)).toEqual([url('a')]);
    expect(out.condition('ModelMeshReady')?.status).toBe('True');
  });
});
