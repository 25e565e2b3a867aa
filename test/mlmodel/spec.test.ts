import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../hooks/cli/main.js';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { compositeControllerFor, crdFor } from '../../hooks/engine/manifests.js';
import { formatIssues } from '../../hooks/engine/protocol.js';
import { mlmodel } from '../../hooks/mlmodel/index.js';
import { mlmodelSpec } from '../../hooks/mlmodel/spec.js';
import { runSync } from '../../hooks/testing/index.js';
import { loadReferenceCrd, vendorDir, referenceSamples, repoRoot } from '../support/reference.js';
import { expectValid, validateAgainstCrd } from '../support/validate.js';

const config = defaultHookConfig();
const problems = (spec: unknown) => {
  const parsed = mlmodelSpec.safeParse(spec);
  return parsed.success ? '' : formatIssues(parsed.error.issues);
};
const crdSpecOf = (crd: any) => crd.spec.versions[0].schema.openAPIV3Schema.properties;

describe('MLModel spec', () => {
  it('applies every documented default (the MLModel field table of docs/mlmodel.md)', () => {
    expect(mlmodelSpec.parse({ modelURL: 'https://x.example/m.tgz' })).toEqual({
      modelURL: 'https://x.example/m.tgz',
      storageSize: '1Gi',
      framework: 'tensorflow',
      replicas: 1,
      expose: true,
    });
  });

  const invalid: Array<{ reason: string; spec: Record<string, unknown>; names: string }> = [
    { reason: 'nothing to download', spec: {}, names: 'spec.modelURL' },
    { reason: 'the downloader speaks http(s) only', spec: { modelURL: 's3://bucket/model.tgz' }, names: 'spec.modelURL' },
    {
      reason: 'only TensorFlow Serving serves',
      spec: { modelURL: 'https://x.example/m.pt', framework: 'pytorch' },
      names: 'spec.framework: only tensorflow is served',
    },
    { reason: 'a claim size is a quantity', spec: { modelURL: 'https://x.example/m', storageSize: 'big' }, names: 'spec.storageSize' },
    { reason: 'negative replicas', spec: { modelURL: 'https://x.example/m', replicas: -1 }, names: 'spec.replicas' },
  ];
  it.each(invalid)('rejects: $reason', ({ spec, names }) => {
    expect(problems(spec)).toContain(names);
  });

  it('keeps every field of the original CRD with its type; only modelURL is required now', () => {
    const original = crdSpecOf(loadReferenceCrd('oda.tmforum.org.oda.tmforum.org_mlmodels.yaml'));
    const ours = crdSpecOf(crdFor(mlmodel));
    for (const [field, schema] of Object.entries(original.spec.properties as Record<string, { type: string }>)) {
      expect(ours.spec.properties[field]?.type, `spec.${field}`).toBe(schema.type);
    }
    expect(ours.spec.required).toEqual(['modelURL']);
    for (const field of Object.keys(original.status.properties)) expect(ours.status.properties[field], `status.${field}`).toBeDefined();
  });

  it('keeps an invalid spec’s children and reports Failed with Ready=False/InvalidSpec', () => {
    const parent = {
      apiVersion: 'oda.tmforum.org.oda.tmforum.org/v1beta1',
      kind: 'MLModel',
      metadata: { name: 'm', namespace: 'ml' },
      spec: { modelURL: 'https://x.example/m', framework: 'onnx' },
    };
    const out = runSync(mlmodel, { parent, config });
    expect(out.status.phase).toBe('Failed');
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
  });
});

describe('MLModel controller', () => {
  it('declares every child kind it emits; Jobs are never updated in place, the claim is (only to grow: checkClaimUpdate)', () => {
    const controller = compositeControllerFor(mlmodel, 'default', { hookBaseUrl: 'http://x' }) as any;
    expect(controller.spec.childResources).toEqual([
      { apiVersion: 'v1', resource: 'persistentvolumeclaims', updateStrategy: { method: 'InPlace' } },
      { apiVersion: 'batch/v1', resource: 'jobs', updateStrategy: { method: 'OnDelete' } },
      { apiVersion: 'apps/v1', resource: 'deployments', updateStrategy: { method: 'InPlace' } },
      { apiVersion: 'v1', resource: 'services', updateStrategy: { method: 'InPlace' } },
    ]);
    expect(controller.spec.resyncPeriodSeconds).toBeUndefined();
  });
});

describe('MLModel samples of the original operator', () => {
  const samples = referenceSamples().filter((s) => s.file.startsWith('mlmodel-'));

  it('exist', () => expect(samples.length).toBeGreaterThan(0));

  it.each(samples.map((s) => [s.file, s.object] as const))('%s validates against our CRD and renders valid children', (_file, sample) => {
    expect(validateAgainstCrd(crdFor(mlmodel), sample)).toEqual([]);
    const out = runSync(mlmodel, { parent: sample, config });
    expect(out.status.phase).toBe('Pending');
    for (const child of out.children) expectValid(child);
  });

  it('renders with modelhooks render, as does examples/mlmodel.yaml', async () => {
    for (const file of [path.join(vendorDir(), 'samples', samples[0]!.file), 'examples/mlmodel.yaml']) {
      let out = '';
      let err = '';
      const code = await main(['render', file, '--now', '2026-01-01T00:00:00Z'], { out: (t) => (out += t), err: (t) => (err += t), env: {}, cwd: repoRoot() });
      expect(err).toBe('');
      expect(code).toBe(0);
      expect(out).toContain('kind: Job');
      expect(out).toContain('phase: Pending');
    }
  });
});
