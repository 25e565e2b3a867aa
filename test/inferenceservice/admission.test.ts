import { describe, expect, it } from 'vitest';
import { crdFor } from '../../hooks/engine/manifests.js';
import { runSync } from '../../hooks/testing/index.js';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import { admissionCases } from '../support/admission-cases.js';

// The hook's own checks, for API servers that do not run the CRD's CEL rules (the e2e tier,
// test/e2e/11-admission, proves the rules themselves against a real API server).
const config = defaultHookConfig();
const parent = (spec: Record<string, unknown>) => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'demo', namespace: 'ml', generation: 1 },
  spec,
});

describe('InferenceService admission rules, checked again by the hook', () => {
  it.each(admissionCases.filter((c) => c.rejected && c.hook).map((c) => [c.name, c] as const))('rejects %s: InvalidSpec', (_, c) => {
    const ready = runSync(inferenceservice, { parent: parent(c.spec), config }).condition('Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(ready?.message).toContain(c.hookMessage ?? c.rejected);
  });

  it.each(admissionCases.filter((c) => !c.rejected).map((c) => [c.name, c] as const))('accepts %s', (_, c) => {
    expect(runSync(inferenceservice, { parent: parent(c.spec), config }).condition('Ready')?.reason).not.toBe('InvalidSpec');
  });
});

describe('the CRD carries the rules as CEL', () => {
  const spec = (crdFor(inferenceservice) as any).spec.versions[0].schema.openAPIV3Schema.properties.spec;
  const messages = (node: any) => (node['x-kubernetes-validations'] ?? []).map((r: any) => r.message ?? r.messageExpression);
  it('on the predictor, transformer, explainer, each canary and the spec', () => {
    expect(messages(spec.properties.predictor)).toContain("'MinReplicas' cannot be greater than MaxReplicas");
    expect(messages(spec.properties.predictor).some((m: string) => m.startsWith('exactly one of [Name, SKLearn'))).toBe(true);
    for (const c of ['transformer', 'explainer']) expect(messages(spec.properties[c])).toContain("'MinReplicas' cannot be greater than MaxReplicas");
    expect(messages(spec.properties.canary.items)).toContain('canary predictor.name is required');
    expect(messages(spec.properties.canary.items.properties.predictor)).toEqual(messages(spec.properties.predictor));
    expect(spec['x-kubernetes-validations'][0].rule).toContain('.sum() <= 100');
  });
});
