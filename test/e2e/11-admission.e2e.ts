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

  // KServe's full CRD (config/crd/full/serving.kserve.io_inferenceservices.yaml) names every field of a
  // component, its model and its containers: the API server sees a misspelt one. So do ours.
  describe("unknown fields, as with KServe's full CRD", () => {
    const typo = isvc('typo-storage-uri', { predictor: { sklearn: { storageURI: 'gs://kfserving-examples/models/sklearn/1.0/model' } } });
    const path = '/apis/serving.kserve.io/v1beta1/namespaces/e2e-admission/inferenceservices';

    it("refuses storageURI under strict field validation (kubectl apply's default)", async () => {
      const error = await k.dryRunCreate(typo).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(KubeError);
      expect((error as KubeError).message).toContain('unknown field "spec.predictor.sklearn.storageURI"');
    });

    it('warns of it under fieldValidation=Warn (kubectl --validate=warn), and of one in a container and a component', async () => {
      const spec = {
        predictor: {
          minReplica: 1,
          sklearn: { storageURI: 'gs://a/b' },
          containers: [{ name: 'sidecar', image: 'busybox', imagePullPolicy: 'IfNotPresent', volumeMount: [] }],
        },
      };
      const res = await k.request('POST', `${path}?dryRun=All&fieldValidation=Warn`, isvc('typo-warn', spec));
      expect(res.status).toBe(201);
      expect(res.warnings.sort()).toEqual([
        'unknown field "spec.predictor.containers[0].volumeMount"',
        'unknown field "spec.predictor.minReplica"',
        'unknown field "spec.predictor.sklearn.storageURI"',
      ]);
    });

    it("accepts every Container and PodSpec field KServe's CRD has, kept as written", async () => {
      const container = { name: 'kserve-container', image: 'x', volumeMounts: [{ name: 'v', mountPath: '/v' }], livenessProbe: { tcpSocket: { port: 8080 } } };
      const spec = { predictor: { tolerations: [{ key: 'gpu', operator: 'Exists' }], nodeSelector: { a: 'b' }, containers: [container] } };
      const res = await k.request('POST', `${path}?dryRun=All&fieldValidation=Strict`, isvc('all-known', spec));
      expect(res.status, res.text).toBe(201);
      expect(res.warnings).toEqual([]);
      expect((JSON.parse(res.text) as { spec: unknown }).spec).toMatchObject(spec);
    });
  });
});
