import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../hooks/server/config.js';
import type { Exchange } from '../../hooks/server/exchange.js';
import { hookAnswerer } from '../../hooks/server/hook-answer.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { createMetrics } from '../../hooks/server/metrics.js';
import { createLogger } from '../../hooks/server/app.js';
import { syncRequest } from '../../hooks/testing/index.js';
import { wireMap } from '../../hooks/engine/run.js';
import { credentialsSent } from '../support/credentials.js';

/*
 * No Secret value reaches a cache or an answer. The credentials DecoratorController's customize
 * asks for every non-Helm Secret of a ServiceAccount's namespace (credentials/rules.ts), so
 * Metacontroller sends their data with each of its syncs, and so it does to an InferenceService
 * annotated serving.kserve.io/storageSecretName. The answer cache keeps answers (which reference
 * Secrets by key, never by value; a summary holds names, KServe's annotations and key names)
 * under the SHA-256 of the whole request body; the settled plan's key holds none
 * (test/inferenceservice/settled-plan.test.ts).
 */
const NS = 'models';
const VALUE = 'wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const parent = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'demo', namespace: NS, uid: 'u', generation: 1 },
  spec: { predictor: { serviceAccountName: 'sa', model: { modelFormat: { name: 'sklearn' }, storageUri: 's3://b/m' } } },
};
const related = (value: string): KubeObject[] => [
  { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa', namespace: NS }, secrets: [{ name: 's3' }] } as KubeObject,
  {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 's3',
      namespace: NS,
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ stringData: { AWS_SECRET_ACCESS_KEY: value } }) },
    },
    data: { AWS_ACCESS_KEY_ID: b64('AKID'), AWS_SECRET_ACCESS_KEY: b64(value) },
  } as KubeObject,
  { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'unlisted', namespace: NS }, data: { token: b64(value) } } as KubeObject,
];

/** A response that only records what is written. */
function response(): ServerResponse & { written: string[] } {
  const written: string[] = [];
  return {
    written,
    statusCode: 200,
    setHeader() {},
    writeHead() {
      return this;
    },
    end(b?: Buffer) {
      if (b) written.push(b.toString());
    },
  } as unknown as ServerResponse & { written: string[] };
}

describe('no Secret value reaches the answer cache', () => {
  it('two requests differing only in a Secret value: neither the cached answers nor their keys hold it, raw or base64', () => {
    const config = loadConfig({ MODELHOOKS_LOG_LEVEL: 'silent' });
    const answerer = hookAnswerer({ config, metrics: createMetrics(), logger: createLogger('silent'), now: () => '2026-01-01T00:00:00Z' });
    const sent = (v: string, annotated: boolean) => {
      const p = annotated ? { ...parent, metadata: { ...parent.metadata, annotations: { 'serving.kserve.io/storageSecretName': 's3' } } } : parent;
      return Buffer.from(JSON.stringify(syncRequest(inferenceservice, { parent: p, related: credentialsSent(p as KubeObject, related(v)) })));
    };
    const decoratorBody = (v: string) =>
      Buffer.from(
        JSON.stringify({
          controller: {},
          object: related(v)[0],
          attachments: {},
          related: wireMap(
            related(v).filter((o) => o.kind === 'Secret'),
            NS,
            'v2',
          ),
          finalizing: false,
        }),
      );
    const answer = (hook: 'sync' | 'decorator-sync') => (raw: Buffer) => {
      const res = response();
      answerer.answer(res, { outcome: undefined } as Exchange, inferenceservice, hook, raw, undefined);
      return res.written.join('');
    };
    const values = [VALUE, `${VALUE}-rotated`];
    // Summarized (no Secret sent), annotated (the namespace's Secrets sent), and the decorator's own sync.
    const summarized = values.map((v) => sent(v, false));
    expect(summarized[0]?.toString()).not.toContain(b64(VALUE));
    const answers = [...summarized, ...values.map((v) => sent(v, true))].map(answer('sync'));
    const decorated = values.map(decoratorBody).map(answer('decorator-sync'));
    expect(decorated[0]).toContain('modelhooks.dev/credentials');
    expect(decorated[1]).toBe(decorated[0]);
    for (const a of answers) expect(a).toContain('AWS_SECRET_ACCESS_KEY');
    // The answers are the same: what differs is a value the answer never holds.
    expect(answers[1]).toBe(answers[0]);
    expect(answers[3]).toBe(answers[2]);
    // The summarized requests are the same bytes (no Secret in them): one cache entry for both.
    expect(summarized[1]?.equals(summarized[0] as Buffer)).toBe(true);
    const entries = [...(answerer.cache as unknown as { entries: Map<string, { value: { body: Buffer; parent: string; headers: string[] } }> }).entries];
    expect(entries).toHaveLength(5);
    const text = JSON.stringify([...answers, ...decorated, ...entries.map(([k, e]) => [k, e.value.body.toString(), e.value.parent, e.value.headers])]);
    for (const v of [VALUE, b64(VALUE), b64(`${VALUE}-rotated`)]) expect(text).not.toContain(v);
  });
});
