import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { mlmodel } from '../../hooks/mlmodel/index.js';
import { modelHash } from '../../hooks/mlmodel/names.js';
import { runCustomize, runSync } from '../../hooks/testing/index.js';
import { asObserved, claimSize, storageClass } from '../support/storage-updates.js';
import { compositionRules } from '../support/rules.js';

// storageSize after creation: the claim grows in place only where its StorageClass allows it;
// otherwise it keeps its size and StorageReady=False/ResizeNotSupported names the field, so Ready
// is never True for a generation that was not applied (rules: test/kit/updates.test.ts).
const config = defaultHookConfig();
const URL = 'https://models.example.com/resnet/v1.tar.gz';
const parent = (storageSize: string, generation: number, status?: Record<string, unknown>): KubeObject =>
  ({
    apiVersion: 'oda.tmforum.org.oda.tmforum.org/v1beta1',
    kind: 'MLModel',
    metadata: { name: 'resnet', namespace: 'ml', generation },
    spec: { modelURL: URL, storageSize },
    ...(status ? { status } : {}),
  }) as KubeObject;

/** A model served from a 1Gi claim in class `standard`, the download Job gone. */
const serving = asObserved(runSync(mlmodel, { parent: parent('1Gi', 1, { downloadedHash: modelHash(URL) }), config }).children);

describe('MLModel storageSize changes', () => {
  it('asks for the StorageClasses (cluster-scoped) to know whether the claim may grow', () => {
    expect(compositionRules(runCustomize(mlmodel, { parent: parent('1Gi', 1), config }))).toEqual([
      { apiVersion: 'storage.k8s.io/v1', resource: 'storageclasses' },
    ]);
  });

  it('unchanged: Ready', () => {
    const out = runSync(mlmodel, { parent: parent('1Gi', 1, { downloadedHash: modelHash(URL) }), observed: serving, related: [storageClass(false)], config });
    expect(out.status.phase).toBe('Ready');
    expect(out.condition('Ready')?.status).toBe('True');
  });

  const cases = [
    {
      reason: 'grows where the class allows expansion: the claim is asked 2Gi, still Ready',
      size: '2Gi',
      expand: true,
      claim: '2Gi',
      ready: 'True',
      phase: 'Ready',
    },
    {
      reason: 'grows where the class does not: the claim keeps 1Gi, StorageReady and Ready False, Serving',
      size: '2Gi',
      expand: false,
      claim: '1Gi',
      ready: 'False',
      phase: 'Serving',
      message: 'spec.storageSize: 2Gi cannot be applied: StorageClass standard does not allow volume expansion; the claim keeps 1Gi',
    },
    {
      reason: 'shrinks: never asked, whatever the class',
      size: '500Mi',
      expand: true,
      claim: '1Gi',
      ready: 'False',
      phase: 'Serving',
      message: 'spec.storageSize: 500Mi cannot be applied: PersistentVolumeClaim resnet-pvc cannot shrink; the claim keeps 1Gi',
    },
  ];
  it.each(cases)('$reason', (c) => {
    const out = runSync(mlmodel, {
      parent: parent(c.size, 2, { downloadedHash: modelHash(URL) }),
      observed: serving,
      related: [storageClass(c.expand)],
      config,
    });
    expect(claimSize(out.children)).toBe(c.claim);
    expect(out.condition('Ready')).toMatchObject({ status: c.ready, observedGeneration: 2 });
    expect(out.status.phase).toBe(c.phase);
    if (c.message) {
      expect(out.condition('StorageReady')).toMatchObject({ status: 'False', reason: 'ResizeNotSupported', message: c.message });
      expect(out.condition('Ready')).toMatchObject({ reason: 'ResizeNotSupported', message: c.message });
    }
    // The model keeps being served either way.
    expect(out.children.map((x) => x.kind)).toEqual(['Deployment', 'PersistentVolumeClaim', 'Service']);
  });

  it('the claim is updated in place (InPlace), so an allowed growth reaches the API server', () => {
    expect(mlmodel.children.find((t) => t.kind === 'PersistentVolumeClaim')?.updateStrategy).toBeUndefined();
  });
});

describe('MLModel immutable fields', () => {
  it('a server Deployment with another selector (an older labelling) keeps it: DeploymentReady=False/ImmutableField, not Ready', () => {
    const older = serving.map((o) => {
      if (o.kind !== 'Deployment') return o;
      const spec = structuredClone(o.spec) as { selector: { matchLabels: Record<string, string> } };
      spec.selector.matchLabels = { app: 'resnet' };
      return { ...o, spec };
    });
    const out = runSync(mlmodel, { parent: parent('1Gi', 2, { downloadedHash: modelHash(URL) }), observed: older, related: [storageClass(false)], config });
    const d = out.child<any>('Deployment', 'resnet-server');
    expect(d?.spec.selector).toEqual({ matchLabels: { app: 'resnet' } });
    expect(d?.spec.template.metadata.labels.app).toBe('resnet');
    expect(out.condition('DeploymentReady')).toMatchObject({ status: 'False', reason: 'ImmutableField' });
    expect(out.condition('Ready')?.status).toBe('False');
    expect(out.status.phase).toBe('Serving');
  });
});
