import { beforeAll, describe, expect, it } from 'vitest';
import { admissionCases } from '../support/admission-cases.js';
import { kube } from './support/context.js';
import { installCrds } from './support/install.js';
import { KubeError, type KubeObject } from './support/kube.js';

// The InferenceService CRD's CEL rules (hooks/inferenceservice/input/admission.ts): what KServe's
// webhook rejects for a static reason, the API server rejects with KServe's message; the
// neighbours it accepts still create (03-samples creates every sample and example).
const ns = 'e2e-admission';
const isvc = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name, namespace: ns },
  spec,
});
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 50);

describe('InferenceService admission (CEL rules of the CRD)', () => {
  const k = kube();
  beforeAll(async () => {
    await installCrds(k);
    await k.ensureNamespace(ns);
  });

  it.each(admissionCases.filter((c) => c.rejected).map((c) => [c.name, c] as const))("rejects %s with KServe's message", async (_, c) => {
    const error = await k.dryRunCreate(isvc(slug(c.name), c.spec)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KubeError);
    expect((error as KubeError).message).toContain(c.cel ?? c.rejected);
  });

  it.each(admissionCases.filter((c) => !c.rejected).map((c) => [c.name, c] as const))('accepts %s', async (_, c) => {
    await expect(k.dryRunCreate(isvc(slug(c.name), c.spec))).resolves.toMatchObject({ kind: 'InferenceService' });
  });
});
