import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { runSync } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';
import { asObserved, claimSize, storageClass } from '../support/storage-updates.js';

// storage.size and storage.pv after creation: never an update the API server refuses (the issue:
// Metacontroller retried a refused PVC update 15 times in 72 s while the parent said Ready=True).
// The rules themselves: test/kit/updates.test.ts.
const config = defaultHookConfig();
const parent = (storage: Record<string, unknown>, generation: number): KubeObject =>
  ({
    apiVersion: 'trustyai.opendatahub.io/v1',
    kind: 'TrustyAIService',
    metadata: { name: 'tas', namespace: 'team', generation },
    spec: { storage: { format: 'PVC', folder: '/inputs', ...storage }, metrics: { schedule: '5s' } },
  }) as KubeObject;

const created = (storage: Record<string, unknown>) => asObserved(runSync(trustyai, { parent: parent(storage, 1), config }).children);

describe('TrustyAIService storage changes', () => {
  const cases = [
    { reason: 'grows where the class allows expansion: asked in place', from: { size: '1Gi' }, to: { size: '2Gi' }, expand: true, claim: '2Gi' },
    {
      reason: 'grows where the class does not: the claim keeps 1Gi and Ready is False naming the field',
      from: { size: '1Gi' },
      to: { size: '2Gi' },
      expand: false,
      claim: '1Gi',
      refused: {
        reason: 'ResizeNotSupported',
        message: 'spec.storage.size: 2Gi cannot be applied: StorageClass standard does not allow volume expansion; the claim keeps 1Gi',
      },
    },
    {
      reason: 'shrinks: never asked',
      from: { size: '2Gi' },
      to: { size: '1Gi' },
      expand: true,
      claim: '2Gi',
      refused: {
        reason: 'ResizeNotSupported',
        message: 'spec.storage.size: 1Gi cannot be applied: PersistentVolumeClaim tas-pvc cannot shrink; the claim keeps 2Gi',
      },
    },
    {
      reason: 'another pv for a bound claim: volumeName is kept',
      from: { size: '1Gi', pv: 'pv-a' },
      to: { size: '1Gi', pv: 'pv-b' },
      expand: true,
      claim: '1Gi',
      volumeName: 'pv-a',
      refused: { reason: 'ImmutableField', message: 'spec.storage.pv: cannot change PersistentVolumeClaim tas-pvc after creation; it keeps volumeName "pv-a"' },
    },
  ];
  it.each(cases)('$reason', (c) => {
    const observed = created(c.from).map((o) =>
      o.kind === 'PersistentVolumeClaim' && c.volumeName ? { ...o, spec: { ...(o.spec as object), volumeName: c.volumeName } } : o,
    );
    const out = runSync(trustyai, { parent: parent(c.to, 2), observed, related: [storageClass(c.expand)], config });
    expect(claimSize(out.children)).toBe(c.claim);
    const claim = out.children.find((x) => x.kind === 'PersistentVolumeClaim') as { spec: { volumeName?: string } } | undefined;
    if (c.volumeName) expect(claim?.spec.volumeName).toBe(c.volumeName);
    if (c.refused) {
      expect(out.condition('StorageReady')).toMatchObject({ status: 'False', ...c.refused, observedGeneration: 2 });
      expect(out.condition('Ready')).toMatchObject({ status: 'False' });
      expect(out.status.ready).toBe('False');
      expect(out.status.phase).toBe('Not Ready');
    } else {
      expect(out.condition('StorageReady')?.status).toBe('True');
    }
  });
});
