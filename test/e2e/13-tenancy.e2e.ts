import { beforeAll, describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import type { AnyComposition } from '../../hooks/kit/composition.js';
import { createApp } from '../../hooks/server/app.js';
import { syncRequest } from '../../hooks/testing/index.js';
import { tfserv } from '../../hooks/tfserv/index.js';
import { kube } from './support/context.js';
import { installCrds } from './support/install.js';
import type { KubeObject } from './support/kube.js';
import { postHook } from './support/hook-post.js';
import { relatedByName } from './support/related.js';

// Issue 14: MODELHOOKS_NAMESPACE_SELECTOR=modelhooks.dev/enabled=true. The harness runs no
// Metacontroller, so the test acts as it: customize through the real hook server, the related
// objects read back from the API server (the Namespace by name, cluster-scoped), sync, and the
// answered children applied with the parent as their controller.
const app = createApp({ compositions: builtinCompositions, config: loadConfig({ MODELHOOKS_NAMESPACE_SELECTOR: 'modelhooks.dev/enabled=true' }) });
const NS = 'e2e-tenancy';
const models = 'model_config_list { config { name: "m" base_path: "/models/m" model_platform: "tensorflow" } }';

const post = (url: string, body: unknown) => postHook(app, url, body);

describe('opt-in namespaces (MODELHOOKS_NAMESPACE_SELECTOR)', () => {
  const k = kube();
  beforeAll(async () => {
    await installCrds(k);
    await k.ensureNamespace(NS);
  });

  const relatedOf = (composition: AnyComposition, parent: KubeObject) => relatedByName(k, app, composition, parent);

  async function sync(parent: KubeObject, observed: KubeObject[] = []) {
    const related = await relatedOf(tfserv, parent);
    const answer = await post(`/hooks/${tfserv.name}/sync`, syncRequest(tfserv, { parent, related, observed }));
    const ready = ((answer.status as { conditions?: Array<Record<string, string>> }).conditions ?? []).find((c) => c.type === 'Ready');
    return { related, children: answer.children as KubeObject[], ready };
  }

  it('an unlabelled namespace gets NamespaceNotEnabled and no children; labelling it makes the parent converge', async () => {
    await k.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'models', namespace: NS }, data: { 'models.conf': models } } as KubeObject);
    const parent = await k.apply({
      apiVersion: 'servapi.dev-state.com/v1alpha1',
      kind: 'Tfserv',
      metadata: { name: 'tenant', namespace: NS },
      spec: { configMap: 'models' },
    } as KubeObject);

    const before = await sync(parent);
    // The Namespace itself came back from the API server, cluster-scoped, by name.
    expect(before.related.find((o) => o.kind === 'Namespace')?.metadata.name).toBe(NS);
    expect(before.ready).toMatchObject({ status: 'False', reason: 'NamespaceNotEnabled' });
    expect(before.children).toEqual([]);

    // The admin opts the namespace in and names a registry mirror for it.
    await k.apply({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: NS, labels: { 'modelhooks.dev/enabled': 'true' }, annotations: { 'modelhooks.dev/image-registry': 'mirror.corp:5000' } },
    } as KubeObject);
    const after = await sync(parent);
    expect(after.ready?.reason).not.toBe('NamespaceNotEnabled');
    expect(after.children.map((c) => `${c.kind}/${c.metadata.name}`).sort()).toEqual(['Deployment/tenant', 'Service/tenant-service']);
    const owner = {
      apiVersion: parent.apiVersion,
      kind: parent.kind,
      name: parent.metadata.name,
      uid: parent.metadata.uid as string,
      controller: true,
      blockOwnerDeletion: true,
    };
    const applied: KubeObject[] = [];
    for (const child of after.children) applied.push(await k.apply({ ...child, metadata: { ...child.metadata, ownerReferences: [owner] } }));
    const deployment = await k.get('apps/v1', 'Deployment', 'tenant', NS);
    expect((deployment.spec as { template: { spec: { containers: Array<{ image: string }> } } }).template.spec.containers[0]?.image).toBe(
      'mirror.corp:5000/tensorflow/serving:2.18.0',
    );

    // Converged: synced again with its children observed, it asks for the same children.
    const again = await sync(parent, applied);
    expect(again.children.map((c) => `${c.kind}/${c.metadata.name}`).sort()).toEqual(['Deployment/tenant', 'Service/tenant-service']);

    // Un-labelled again: NamespaceNotEnabled, and the running children are kept (never deleted).
    await k.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, labels: { 'modelhooks.dev/enabled': 'false' } } } as KubeObject);
    const off = await sync(parent, applied);
    expect(off.ready).toMatchObject({ status: 'False', reason: 'NamespaceNotEnabled' });
    expect(off.children.map((c) => `${c.kind}/${c.metadata.name}`).sort()).toEqual(['Deployment/tenant', 'Service/tenant-service']);
  });
});
