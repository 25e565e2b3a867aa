import { describe, expect, it } from 'vitest';
import { ObjectIndex, type KubeObject } from '../../hooks/kit/index.js';
import { configFor } from '../../hooks/kit/config.js';
import { isFrozenData } from '../../hooks/kit/spec-memo.js';
import { parseHookRequest } from '../../hooks/engine/request.js';
import { runHook } from '../../hooks/engine/protocol.js';
import { syncRequest } from '../../hooks/engine/run.js';
import { credentialsSent } from '../support/credentials.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { InferenceServiceConfig } from '../../hooks/inferenceservice/config.js';
import { settledInputs, settledKey } from '../../hooks/inferenceservice/plan.js';
import type { Input } from '../../hooks/inferenceservice/sync-input.js';

/**
 * The settled plan (plan.ts) is remembered by the text settledKey makes of settledInputs. What
 * a sync reads there is in memo.test.ts; here, that what changes from one sync of an unchanged
 * InferenceService to the next leaves the key as it was (else nothing is ever reused), and that
 * the key keeps no Secret value.
 */
const NS = 'ml';
const TOKEN = 'aGZfc2VjcmV0X3Rva2Vu'; // base64 of hf_secret_token
const parent = (generation: number, extra: Record<string, unknown> = {}) =>
  ({
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: {
      name: 'demo',
      namespace: NS,
      uid: 'u-1',
      generation,
      resourceVersion: String(100 + generation),
      labels: { team: 'a' },
      annotations: { note: 'x' },
      ...extra,
    },
    spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, storageUri: 'hf://org/model' } } },
    status: { observedGeneration: generation - 1, conditions: [{ type: 'Ready', status: 'False' }] },
  }) as Input['parent'];
const secret: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'hf', namespace: NS }, data: { HF_TOKEN: TOKEN } } as KubeObject;
const sa: KubeObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: NS }, secrets: [{ name: 'hf' }] } as KubeObject;
const deployment = (ready: number): KubeObject =>
  ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'demo-predictor', namespace: NS }, status: { readyReplicas: ready } }) as KubeObject;
const ingress = { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'demo', namespace: NS } } as KubeObject;
const pod = (phase: string): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'demo-predictor-1', namespace: NS }, status: { phase } }) as KubeObject;

function input(p: Input['parent'], observed: KubeObject[], related: KubeObject[], httpRoutes = false): Input {
  return {
    parent: p,
    observed: new ObjectIndex(observed, NS),
    // As Metacontroller sends them: the ServiceAccounts with their Secrets' summary, no Secret (support/credentials.ts).
    related: new ObjectIndex(credentialsSent(p as unknown as KubeObject, related), NS),
    declares: (_apiVersion, kind) => httpRoutes || kind !== 'HTTPRoute',
    now: '2026-01-01T00:00:00Z',
    config: configFor(inferenceservice, undefined) as InferenceServiceConfig,
    finalizing: false,
  };
}
const key = (i: Input) => settledKey(settledInputs(i));

describe('the settled plan key', () => {
  const first = input(parent(1), [deployment(0)], [sa, secret, pod('Pending')]);

  it('is the same for a later sync where only the children, the generation, the resourceVersion, the status and managedFields changed', () => {
    const later = input(parent(2, { managedFields: [{ manager: 'metacontroller' }] }), [deployment(1)], [sa, secret, pod('Running')]);
    expect(key(later)).toBe(key(first));
  });

  it("changes with what a plan reads: labels, annotations, a Secret's keys, the ServiceAccount, HTTPRoutes declared", () => {
    const keys = [
      key(first),
      key(input(parent(1, { labels: { team: 'b' } }), [], [sa, secret])),
      key(input(parent(1, { annotations: { note: 'y' } }), [], [sa, secret])),
      key(input(parent(1), [], [sa, { ...secret, data: { HF_TOKEN: TOKEN, AWS_ACCESS_KEY_ID: TOKEN } }])),
      key(input(parent(1), [], [{ ...sa, secrets: [] } as KubeObject, secret])),
      key(input(parent(1), [], [sa, secret], true)),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is a SHA-256 digest: it holds no Secret value, encoded or decoded', () => {
    const text = key(first);
    expect(text).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(text).not.toContain(TOKEN);
  });

  it("does not depend on a Secret's values, nor on Secrets nobody lists: what it hashes holds no value", () => {
    const other = { ...secret, data: { HF_TOKEN: 'b3RoZXI=' } } as KubeObject;
    const unlisted = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'unrelated', namespace: NS }, data: { HF_TOKEN: TOKEN } } as KubeObject;
    expect(key(input(parent(1), [], [sa, other]))).toBe(key(first));
    expect(key(input(parent(1), [], [sa, secret, unlisted]))).toBe(key(first));
    // kubectl apply keeps the whole Secret in an annotation: only serving.kserve.io/ ones are read.
    const applied = {
      ...secret,
      metadata: { ...secret.metadata, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ data: { HF_TOKEN: TOKEN } }) } },
    } as KubeObject;
    expect(key(input(parent(1), [], [sa, applied]))).toBe(key(first));
    const text = JSON.stringify(settledInputs(input(parent(1), [], [sa, applied, unlisted])));
    for (const v of [TOKEN, Buffer.from(TOKEN, 'base64').toString()]) expect(text).not.toContain(v);
  });

  it("keeps of a storage spec's Secret only the type its JSON names (a fixed word), never the JSON", () => {
    const store = (json: string) =>
      ({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'storage-config', namespace: NS },
        data: { s: Buffer.from(json).toString('base64') },
      }) as KubeObject;
    const withSpec = (json: string) => {
      const p = parent(1);
      return input(
        {
          ...p,
          spec: { predictor: { model: { modelFormat: { name: 'sklearn' }, storage: { key: 's', path: 'm', parameters: { bucket: 'b' } } } } },
        } as Input['parent'],
        [],
        [store(json)],
      );
    };
    const a = withSpec(JSON.stringify({ type: 's3', access_key_id: 'AKIDONE', secret_access_key: 'one' }));
    const b = withSpec(JSON.stringify({ type: 's3', access_key_id: 'AKIDTWO', secret_access_key: 'two' }));
    expect(key(a)).toBe(key(b));
    expect(key(withSpec(JSON.stringify({ type: 'hdfs' })))).not.toBe(key(a));
    expect(JSON.stringify(settledInputs(a))).not.toContain(Buffer.from('AKIDONE').toString('base64').slice(0, 8));
  });
});

describe('the settled children', () => {
  it('are the same frozen plain data from one sync of an unchanged InferenceService to the next (answerJson writes them once)', () => {
    const children = (generation: number, ready: number) => {
      const body = JSON.parse(
        // The Ingress observed: it stays whether or not the predictor is ready (exposure.ts ingressWaitsFor).
        JSON.stringify(
          syncRequest(inferenceservice, {
            parent: parent(generation),
            observed: [deployment(ready), ingress],
            related: credentialsSent(parent(generation) as unknown as KubeObject, [sa, secret]),
          }),
        ),
      );
      const answer = runHook(inferenceservice, 'sync', parseHookRequest(body), { now: '2026-01-01T00:00:00Z' });
      return answer.children as KubeObject[];
    };
    const [first, next] = [children(1, 0), children(2, 1)];
    expect(first.map((c) => c.kind)).toEqual(['Deployment', 'HorizontalPodAutoscaler', 'Ingress', 'Service']);
    for (const [i, c] of next.entries()) {
      expect(c).toBe(first[i]);
      expect(isFrozenData(c)).toBe(true);
    }
  });

  it("are reused across two requests that differ only in a Secret's value (the plan's key holds none)", () => {
    const children = (value: string) => {
      const body = JSON.parse(
        JSON.stringify(
          syncRequest(inferenceservice, {
            parent: parent(1),
            observed: [deployment(1)],
            related: credentialsSent(parent(1) as unknown as KubeObject, [sa, { ...secret, data: { HF_TOKEN: value } }]),
          }),
        ),
      );
      return runHook(inferenceservice, 'sync', parseHookRequest(body), { now: '2026-01-01T00:00:00Z' }).children as KubeObject[];
    };
    const [one, two] = [children(TOKEN), children('c2Vjb25kX3ZhbHVl')];
    expect(two.length).toBeGreaterThan(0);
    for (const [i, c] of two.entries()) expect(c).toBe(one[i]);
  });
});
