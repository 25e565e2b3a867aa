import { beforeAll, describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import type { AnyComposition } from '../../hooks/kit/composition.js';
import { createApp } from '../../hooks/server/app.js';
import { syncRequest } from '../../hooks/testing/index.js';
import { tfserv } from '../../hooks/tfserv/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';
import { kube } from './support/context.js';
import { installCrds } from './support/install.js';
import type { KubeObject } from './support/kube.js';
import { postHook } from './support/hook-post.js';
import { relatedByName } from './support/related.js';

// Issue 10: two parents that want the same child name. The test acts as Metacontroller:
// Tfserv foo converges (its children created with ownerReferences), then TrustyAIService
// foo asks — through the real hook server — for the objects that carry its children's
// names, gets them from the API server, and must leave Deployment foo alone.
const app = createApp({ compositions: builtinCompositions, config: loadConfig({}) });
const NS = 'e2e-conflicts';
const models = 'model_config_list { config { name: "m" base_path: "/models/m" model_platform: "tensorflow" } }';

const post = (url: string, body: unknown) => postHook(app, url, body);

describe('two parents want the same child name', () => {
  const k = kube();
  beforeAll(async () => {
    await installCrds(k);
    await k.ensureNamespace(NS);
  });

  const relatedOf = (composition: AnyComposition, parent: KubeObject) => relatedByName(k, app, composition, parent);

  async function sync(composition: AnyComposition, parent: KubeObject) {
    const related = await relatedOf(composition, parent);
    return post(`/hooks/${composition.name}/sync`, syncRequest(composition, { parent, related }));
  }

  it('the first converges; the second reports ChildNameConflict and nothing is deleted', async () => {
    await k.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'models', namespace: NS }, data: { 'models.conf': models } } as KubeObject);
    const a = await k.apply({
      apiVersion: 'servapi.dev-state.com/v1alpha1',
      kind: 'Tfserv',
      metadata: { name: 'foo', namespace: NS },
      spec: { configMap: 'models' },
    } as KubeObject);
    const answerA = await sync(tfserv, a);
    const childrenA = answerA.children as KubeObject[];
    expect(childrenA.map((c) => `${c.kind}/${c.metadata.name}`)).toContain('Deployment/foo');
    const owner = { apiVersion: a.apiVersion, kind: a.kind, name: a.metadata.name, uid: a.metadata.uid as string, controller: true, blockOwnerDeletion: true };
    for (const child of childrenA) await k.apply({ ...child, metadata: { ...child.metadata, ownerReferences: [owner] } });

    const b = await k.apply({
      apiVersion: 'trustyai.opendatahub.io/v1',
      kind: 'TrustyAIService',
      metadata: { name: 'foo', namespace: NS },
      spec: { storage: { format: 'PVC', folder: '/inputs', size: '1Gi' }, data: { filename: 'data.csv', format: 'CSV' }, metrics: { schedule: '5s' } },
    } as KubeObject);
    const answerB = await sync(trustyai, b);
    const ready = ((answerB.status as { conditions: Array<Record<string, string>> }).conditions ?? []).find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'ChildNameConflict' });
    expect(ready?.message).toContain('Deployment foo exists and is not ours (owner: Tfserv/foo)');
    const childrenB = answerB.children as KubeObject[];
    expect(childrenB.find((c) => c.kind === 'Deployment' && c.metadata.name === 'foo')).toBeUndefined();
    // The others converge: the API server accepts them as they are.
    expect(childrenB.map((c) => c.kind)).toContain('PersistentVolumeClaim');
    for (const child of childrenB) await k.dryRunCreate(child);
    // Nothing of A was touched: its children still exist, still owned by A.
    for (const child of childrenA) {
      const live = await k.get(child.apiVersion, child.kind, child.metadata.name, NS);
      const refs = live.metadata.ownerReferences as Array<{ uid: string }> | undefined;
      expect(refs?.[0]?.uid).toBe(a.metadata.uid);
    }
  });
});
