import { describe, expect, it } from 'vitest';
import { ObjectIndex, type KubeObject, type Parent } from '../../hooks/kit/index.js';
import { CHILD_NAME_CONFLICT, childConflicts, withConflicts } from '../../hooks/engine/conflicts.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import { mlmodel } from '../../hooks/mlmodel/index.js';
import { runCustomize, runSync } from '../../hooks/testing/index.js';
import { tfserv } from '../../hooks/tfserv/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';
import { key, NS, ownedBy, parentOf, secondParent } from '../support/two-parents.js';

const modelsConf = 'model_config_list { config { name: "m" base_path: "/models/m" model_platform: "tensorflow" } }';
const tfsConfigMap: KubeObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'models', namespace: NS },
  data: { 'models.conf': modelsConf },
} as KubeObject;
const tfs = (name: string) => ({ composition: tfserv, parent: parentOf(tfserv, name, { configMap: 'models' }), related: [tfsConfigMap] });
const trusty = (name: string) => ({
  composition: trustyai,
  parent: parentOf(trustyai, name, {
    storage: { format: 'PVC', folder: '/inputs', size: '1Gi' },
    data: { filename: 'data.csv', format: 'CSV' },
    metrics: { schedule: '5s' },
  }),
});
const model = (name: string) => ({ composition: mlmodel, parent: parentOf(mlmodel, name, { modelURL: 'https://example.com/m.tar.gz' }) });
const isvc = (name: string) => ({
  composition: inferenceservice,
  parent: parentOf(inferenceservice, name, { predictor: { sklearn: { storageUri: 'gs://b/m' } } }),
});

describe('customize asks for same-named objects of each child kind, in the namespace', () => {
  it('Tfserv foo asks for Deployment foo and Service foo-service in its namespace', () => {
    const rules = runCustomize(tfserv, { parent: tfs('foo').parent });
    expect(rules).toContainEqual({ apiVersion: 'apps/v1', resource: 'deployments', namespace: NS, names: ['foo'] });
    expect(rules).toContainEqual({ apiVersion: 'v1', resource: 'services', namespace: NS, names: ['foo-service'] });
  });
  it('asks no more once the parent is Ready on its generation (every child exists; kit isConverged)', () => {
    const ready = (generation: number, observed: number, status: string) => ({
      ...tfs('foo').parent,
      metadata: { ...tfs('foo').parent.metadata, generation },
      status: { observedGeneration: observed, conditions: [{ type: 'Ready', status }] },
    });
    const named = (parent: KubeObject) => runCustomize(tfserv, { parent }).filter((r) => r.resource === 'deployments' || r.resource === 'services');
    expect(named(ready(2, 2, 'True') as KubeObject)).toEqual([]);
    // A new generation (its children may be renamed) or a parent not Ready (one may be missing): asked.
    expect(named(ready(3, 2, 'True') as KubeObject)).toHaveLength(2);
    expect(named(ready(2, 2, 'False') as KubeObject)).toHaveLength(2);
  });
  it('asks only for the optional kinds the CompositeController declares', () => {
    const plain = runCustomize(trustyai, { parent: trusty('foo').parent });
    expect(plain.some((r) => r.resource === 'routes')).toBe(false);
    const openshift = runCustomize(trustyai, { parent: trusty('foo').parent, variant: 'openshift' });
    expect(openshift).toContainEqual({ apiVersion: 'route.openshift.io/v1', resource: 'routes', namespace: NS, names: ['foo'] });
  });
});

describe('ChildNameConflict', () => {
  type Side = { composition: typeof tfserv | typeof trustyai | typeof mlmodel | typeof inferenceservice; parent: KubeObject; related?: KubeObject[] };
  const cases: Array<{ what: string; a: Side; b: Side; taken: string; owner: string }> = [
    { what: 'Tfserv foo, then TrustyAIService foo: Deployment foo', a: tfs('foo'), b: trusty('foo'), taken: 'Deployment/foo', owner: 'Tfserv/foo' },
    { what: 'TrustyAIService foo, then Tfserv foo: Deployment foo', a: trusty('foo'), b: tfs('foo'), taken: 'Deployment/foo', owner: 'TrustyAIService/foo' },
    {
      what: 'TrustyAIService foo, then MLModel foo: PVC foo-pvc',
      a: trusty('foo'),
      b: model('foo'),
      taken: 'PersistentVolumeClaim/foo-pvc',
      owner: 'TrustyAIService/foo',
    },
    {
      what: 'MLModel foo, then TrustyAIService foo: PVC foo-pvc',
      a: model('foo'),
      b: trusty('foo'),
      taken: 'PersistentVolumeClaim/foo-pvc',
      owner: 'MLModel/foo',
    },
    {
      what: 'Tfserv foo-predictor, then InferenceService foo: Deployment foo-predictor',
      a: tfs('foo-predictor'),
      b: isvc('foo'),
      taken: 'Deployment/foo-predictor',
      owner: 'Tfserv/foo-predictor',
    },
  ];
  for (const c of cases) {
    it(`${c.what}: left out, Ready=False names kind, name and owner; the other children converge`, () => {
      const { first, second } = secondParent(c.a, c.b);
      const alone = runSync(c.b.composition, { parent: c.b.parent, related: c.b.related ?? [] });
      const ready = second.condition('Ready');
      expect(ready?.status).toBe('False');
      expect(ready?.reason).toBe(CHILD_NAME_CONFLICT);
      const [kind, name] = c.taken.split('/');
      expect(ready?.message).toContain(`${kind} ${name} exists and is not ours (owner: ${c.owner})`);
      expect(first.map(key)).toContain(c.taken);
      expect(second.children.map(key)).not.toContain(c.taken);
      // Everything else B wants is still answered, unchanged.
      const firstKeys = new Set(first.map(key));
      expect(second.children).toEqual(alone.children.filter((ch) => !firstKeys.has(key(ch))));
    });
  }

  it('an object with no owner is named as such', () => {
    const orphan = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'foo', namespace: NS } } as KubeObject;
    const out = runSync(tfserv, { parent: tfs('foo').parent, related: [tfsConfigMap, orphan] });
    expect(out.condition('Ready')?.message).toContain('Deployment foo exists and is not ours (owner: no owner)');
    expect(out.childrenOf('Deployment')).toEqual([]);
    expect(out.childrenOf('Service')).toHaveLength(1);
  });

  it('our own child, seen as related (observed or not yet), is no conflict', () => {
    const p = tfs('foo');
    const mine = runSync(tfserv, { parent: p.parent, related: p.related }).children.map((c) => ownedBy(p.parent, c));
    const out = runSync(tfserv, { parent: p.parent, related: [tfsConfigMap, ...mine] });
    expect(out.condition('Ready')?.reason).not.toBe(CHILD_NAME_CONFLICT);
    expect(out.children.map(key).sort()).toEqual(mine.map(key).sort());
  });

  it('a lasting conflict keeps its lastTransitionTime, so the status settles', () => {
    const { second } = secondParent(tfs('foo'), trusty('foo'));
    const parent = { ...trusty('foo').parent, status: second.status };
    const conflicts = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'foo', owner: 'Tfserv/foo' }];
    const later = withConflicts({ conditions: [] }, conflicts, { parent: parent as unknown as Parent<unknown>, now: '2030-01-01T00:00:00Z' });
    expect((later.conditions as Array<{ lastTransitionTime: string }>)[0]?.lastTransitionTime).toBe(second.condition('Ready')?.lastTransitionTime);
  });

  it('childConflicts is pure: same input, same answer; an object of another namespace never counts', () => {
    const parent = { ...trusty('foo').parent, status: {} } as unknown as Parent<unknown>;
    const desired = [{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'foo', namespace: NS } } as KubeObject];
    const elsewhere = new ObjectIndex([{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'foo', namespace: 'other' } } as KubeObject], NS);
    expect(childConflicts(parent, desired, new ObjectIndex([], NS), elsewhere)).toEqual([]);
  });
});
