import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import { INFERENCESERVICE_IMAGES } from '../../hooks/inferenceservice/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import { kserveRuntimes } from '../../hooks/inferenceservice/runtime/kserve-runtimes.js';
import type { RelatedRule } from '../../hooks/kit/composition.js';
import { createApp } from '../../hooks/server/app.js';
import { syncRequest } from '../../hooks/testing/index.js';
import { goldenCases, readYamlDocs } from '../support/golden.js';
import { kube } from './support/context.js';
import { fromRoot } from './support/files.js';
import { installCrds } from './support/install.js';
import { KubeError, type KubeObject } from './support/kube.js';
import { postHook } from './support/hook-post.js';

// Issue 11: serving runtimes read from the cluster. The test acts as Metacontroller: it asks
// the real hook server's customize which runtimes to fetch, lists them from the API server
// (our ServingRuntime and ClusterServingRuntime CRDs from crds/), sends sync, and dry-run
// creates every Deployment of the answer. First with no runtimes (the built-in set), then with
// the built-in set created as real ClusterServingRuntimes (kserve-mlserver disabled) and the
// example's ServingRuntime.
const app = createApp({ compositions: builtinCompositions, config: loadConfig({}) });
const NS = 'e2e-runtimes';
const GROUP_VERSION = 'serving.kserve.io/v1alpha1';
const fidelityOf = (dir: string) => (readYamlDocs(path.join(dir, 'case.yaml'))[0] as { fidelity?: Array<{ field: string; value: unknown }> }).fidelity ?? [];
/** The docs samples whose case.yaml has a fidelity table naming the runtime. */
const samples = goldenCases('inferenceservice').filter((c) => fidelityOf(c.dir).some((r) => r.field === 'status.clusterServingRuntimeName'));
const expectedRuntime = (dir: string) => fidelityOf(dir).find((r) => r.field === 'status.clusterServingRuntimeName')?.value as string;

const post = (url: string, body: unknown) => postHook(app, url, body);

describe('serving runtimes from the cluster', () => {
  const k = kube();
  beforeAll(async () => {
    await installCrds(k);
    await k.ensureNamespace(NS);
    // A clean slate: earlier files may have created KServe's samples of ClusterServingRuntimes.
    const existing = await listOf(`/apis/${GROUP_VERSION}/clusterservingruntimes`);
    for (const r of existing.items) await k.delete({ ...r, apiVersion: GROUP_VERSION, kind: 'ClusterServingRuntime' });
    // The ServiceAccounts and Secrets the samples name (the Hugging Face sample's), as in its case.
    const created = new Set<string>();
    for (const o of samples.flatMap((c) => c.options.related ?? [])) {
      const key = `${o.kind}/${o.metadata?.name}`;
      if (created.has(key)) continue;
      created.add(key);
      await k.create({ ...o, metadata: { ...o.metadata, namespace: NS } } as KubeObject);
    }
  });

  /** A list, retried while a just-installed CRD's storage answers 429 (re)initializing. */
  async function listOf(url: string): Promise<{ items: KubeObject[] }> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await k.call<{ items: KubeObject[] }>('GET', url);
      } catch (e) {
        if (!(e instanceof KubeError && e.status === 429) || attempt >= 50) throw e;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  /** What Metacontroller would fetch for the customize rules: every object of each runtime rule. */
  async function relatedOf(parent: KubeObject): Promise<KubeObject[]> {
    const customize = await post('/hooks/inferenceservice/customize', syncRequest(inferenceservice, { parent }));
    const all = customize.relatedResources as RelatedRule[];
    const rules = all.filter((r) => r.resource.endsWith('servingruntimes'));
    expect(rules.map((r) => r.resource).sort()).toEqual(['clusterservingruntimes', 'servingruntimes']);
    const found: KubeObject[] = [];
    // The Secrets, asked for by a selector (every one of the namespace but Helm's release records).
    for (const rule of all.filter((r) => r.resource === 'secrets' && r.labelSelector)) {
      const terms = (rule.labelSelector?.matchExpressions ?? []).map((t) => `${t.key} ${t.operator.toLowerCase()} (${(t.values ?? []).join(',')})`);
      expect(terms).toEqual(['owner notin (helm)']);
      const list = await listOf(`/api/v1/namespaces/${rule.namespace}/secrets?labelSelector=${encodeURIComponent(terms.join(','))}`);
      found.push(...list.items.map((o) => ({ ...o, apiVersion: 'v1', kind: 'Secret' })));
    }
    // The ServiceAccounts, asked for by name (a missing one is simply not in related).
    for (const rule of all.filter((r) => (r.resource === 'serviceaccounts' || r.resource === 'secrets') && r.names)) {
      const kind = rule.resource === 'serviceaccounts' ? 'ServiceAccount' : 'Secret';
      for (const name of rule.names ?? []) {
        try {
          found.push({ ...(await k.get('v1', kind, name, rule.namespace)), apiVersion: 'v1', kind });
        } catch (e) {
          if (!(e instanceof KubeError && e.status === 404)) throw e;
        }
      }
    }
    for (const rule of rules) {
      const scope = rule.namespace ? `/namespaces/${rule.namespace}` : '';
      const list = await listOf(`/apis/${rule.apiVersion}${scope}/${rule.resource}`);
      const kind = rule.resource === 'servingruntimes' ? 'ServingRuntime' : 'ClusterServingRuntime';
      found.push(...list.items.map((o) => ({ ...o, apiVersion: rule.apiVersion, kind })));
    }
    return found;
  }

  async function syncAndDryRun(first: KubeObject): Promise<Record<string, unknown>> {
    // One sync: customize's rules already cover the Secrets the ServiceAccount lists.
    const parent = first;
    const answer = await post('/hooks/inferenceservice/sync', syncRequest(inferenceservice, { parent, related: await relatedOf(parent) }));
    const deployments = (answer.children as KubeObject[]).filter((c) => c.kind === 'Deployment');
    expect(deployments.length, JSON.stringify(answer.status)).toBeGreaterThan(0);
    for (const d of deployments) await k.dryRunCreate({ ...d, metadata: { ...d.metadata, namespace: NS } });
    return answer.status as Record<string, unknown>;
  }

  const inNs = (parent: unknown) => ({ ...(parent as KubeObject), metadata: { ...(parent as KubeObject).metadata, namespace: NS } });

  it('has the docs samples', () =>
    expect(samples.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        'sample-sklearn',
        'sample-sklearn-v2',
        'sample-xgboost-v2',
        'sample-tensorflow-prometheus',
        'sample-torchserve',
        'sample-triton',
        'sample-huggingface-llama2',
        'sample-transformer',
      ]),
    ));

  it.each(samples.map((c) => [c.name, c] as const))('no runtimes in the cluster: %s runs on the built-in runtime, its Deployment accepted', async (_, c) => {
    const status = await syncAndDryRun(inNs(c.options.parent));
    expect(status.clusterServingRuntimeName).toBe(expectedRuntime(c.dir));
  });

  it('the built-in set as real ClusterServingRuntimes (mlserver disabled) and the example ServingRuntime', async () => {
    for (const r of kserveRuntimes(INFERENCESERVICE_IMAGES)) {
      const spec = r.metadata.name === 'kserve-mlserver' ? { ...r.spec, disabled: true } : r.spec;
      await k.create({ ...r, spec } as unknown as KubeObject);
    }
    const [example] = readYamlDocs(fromRoot('examples/servingruntime.yaml')) as KubeObject[];
    await k.create(inNs(example));
    // Every sample's Deployment is accepted; where a runtime changed, the status says which.
    for (const c of samples) {
      const status = await syncAndDryRun(inNs(c.options.parent));
      const want = expectedRuntime(c.dir);
      if (c.name === 'sample-huggingface-llama2') expect(status).toMatchObject({ servingRuntimeName: 'vllm' });
      else if (want === 'kserve-mlserver') expect(status.clusterServingRuntimeName, c.name).toMatch(/^kserve-(sklearnserver|xgbserver)$/);
      else expect(status.clusterServingRuntimeName, c.name).toBe(want);
    }
  });

  it('a ServingRuntime in another namespace is not asked for', async () => {
    await k.ensureNamespace(`${NS}-other`);
    const [example] = readYamlDocs(fromRoot('examples/servingruntime.yaml')) as KubeObject[];
    const other = { ...(example as KubeObject), metadata: { ...(example as KubeObject).metadata, name: 'elsewhere', namespace: `${NS}-other` } };
    await k.create(other);
    const related = await relatedOf(inNs(samples[0]?.options.parent));
    expect(related.filter((r) => r.kind === 'ServingRuntime').map((r) => r.metadata.namespace)).toEqual([NS]);
  });
});
