import { beforeAll, describe, expect, it } from 'vitest';
import { kube } from './support/context.js';
import { KubeError, type KubeObject } from './support/kube.js';

// Proof that the tier has teeth: children a buggy hook could emit are refused by the API
// server, with its own message. If these ever pass, the dry-runs above prove nothing.
const ns = 'e2e-breakage';
const labels = { app: 'model' };
const template = (podLabels: Record<string, string>) => ({
  metadata: { labels: podLabels },
  spec: { containers: [{ name: 'server', image: 'example.com/server:1' }] },
});
const deployment = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: ns },
  spec,
});

const broken: Array<[string, KubeObject, RegExp]> = [
  [
    'a Service whose selector is a list',
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'model', namespace: ns },
      spec: { selector: ['app=model'], ports: [{ port: 80 }] },
    },
    /cannot unmarshal array into Go struct field ServiceSpec.spec.selector/,
  ],
  [
    'a Deployment with a capitalised name',
    deployment('MyModel', { selector: { matchLabels: labels }, template: template(labels) }),
    /Invalid value: "MyModel": a lowercase RFC 1123 subdomain/,
  ],
  [
    'a Deployment whose selector does not match its template labels',
    deployment('model', { selector: { matchLabels: labels }, template: template({ app: 'other' }) }),
    /spec.template.metadata.labels: Invalid value: .*`selector` does not match template `labels`/,
  ],
  [
    'a Deployment with a field the API does not know',
    deployment('model', { selector: { matchLabels: labels }, template: template(labels), replica: 2 }),
    /unknown field "spec.replica"/,
  ],
];

describe('the API server rejects broken children', () => {
  const k = kube();
  beforeAll(() => k.ensureNamespace(ns));

  it.each(broken)('%s', async (_, obj, message) => {
    const error = await k.dryRunCreate(obj).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KubeError);
    expect((error as KubeError).message).toMatch(message);
  });

  it('accepts the same Deployment once fixed (the cases above fail for their reason only)', async () => {
    const fixed = await k.dryRunCreate(deployment('model', { selector: { matchLabels: labels }, template: template(labels) }));
    expect(fixed.metadata.name).toBe('model');
  });
});
