import { beforeAll, describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import type { KubeObject as HookObject } from '../../hooks/kit/index.js';
import { runSync } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';
import { kube } from './support/context.js';
import { KubeError, type KubeObject } from './support/kube.js';

// The claim a TrustyAIService answers after a storage.size change is an update the real API
// server accepts (validation plus the PersistentVolumeClaimResize admission plugin), where the
// naive one (the new size as asked) is refused with the server's own message. Without
// controllers nothing binds: the claim is made Bound through its status, as the binder would.
const ns = 'e2e-claims';
const config = defaultHookConfig();
const classes: KubeObject[] = [
  { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'e2e-fixed' }, provisioner: 'example.com/none', allowVolumeExpansion: false },
  { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'e2e-grow' }, provisioner: 'example.com/none', allowVolumeExpansion: true },
];

const parent = (name: string, size: string, generation: number) => ({
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  metadata: { name, namespace: ns, generation },
  spec: { storage: { format: 'PVC', folder: '/inputs', size }, metrics: { schedule: '5s' } },
});

const claimOf = (children: HookObject[]) => children.find((c) => c.kind === 'PersistentVolumeClaim') as unknown as KubeObject;
const sizeOf = (claim: KubeObject) => (claim.spec as { resources: { requests: { storage: string } } }).resources.requests.storage;
const withSize = (live: KubeObject, size: string): KubeObject => {
  const spec = structuredClone(live.spec) as { resources: { requests: Record<string, string> } };
  spec.resources.requests.storage = size;
  return { ...live, spec };
};

const cases = [
  {
    name: 'fixed-grow',
    className: 'e2e-fixed',
    bound: true,
    from: '1Gi',
    to: '2Gi',
    naive: /only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize/,
    answered: '1Gi',
  },
  { name: 'grow', className: 'e2e-grow', bound: true, from: '1Gi', to: '2Gi', naive: undefined, answered: '2Gi' },
  {
    name: 'shrink',
    className: 'e2e-grow',
    bound: true,
    from: '2Gi',
    to: '1Gi',
    naive: /field can not be less than (previous value|status.capacity)/,
    answered: '2Gi',
  },
  {
    name: 'pending-grow',
    className: 'e2e-grow',
    bound: false,
    from: '1Gi',
    to: '2Gi',
    naive: /spec is immutable after creation except resources.requests/,
    answered: '1Gi',
  },
];

describe('claim updates the API server accepts', () => {
  const k = kube();
  beforeAll(async () => {
    await k.ensureNamespace(ns);
    for (const c of classes) await k.apply(c);
  });

  it.each(cases)('$name: the answer is accepted, the naive update is not', async (c) => {
    // Created as the hook first answered, in the class the API server would have defaulted.
    const first = claimOf(runSync(trustyai, { parent: parent(c.name, c.from, 1), config }).children);
    await k.create({ ...first, spec: { ...(first.spec as object), storageClassName: c.className } });
    let live = await k.get('v1', 'PersistentVolumeClaim', first.metadata.name, ns);
    if (c.bound) {
      const path = await k.objectPath(live, live.metadata.name);
      live = await k.call('PUT', `${path}/status`, { ...live, status: { phase: 'Bound', capacity: { storage: c.from } } });
    }

    const related = (await Promise.all(classes.map((sc) => k.get(sc.apiVersion, sc.kind, sc.metadata.name)))) as unknown as HookObject[];
    const answer = claimOf(runSync(trustyai, { parent: parent(c.name, c.to, 2), observed: [live as unknown as HookObject], related, config }).children);
    expect(sizeOf(answer)).toBe(c.answered);

    const path = await k.objectPath(live, live.metadata.name);
    const naive = await k.call('PUT', `${path}?dryRun=All`, withSize(live, c.to)).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (c.naive) {
      expect(naive).toBeInstanceOf(KubeError);
      expect((naive as KubeError).message).toMatch(c.naive);
    } else {
      expect(naive).toBeUndefined();
    }
    await expect(k.call('PUT', path, withSize(live, sizeOf(answer)))).resolves.toMatchObject({ spec: { resources: { requests: { storage: c.answered } } } });
  });
});
