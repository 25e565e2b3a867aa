import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../hooks/server/config.js';
import { runSync } from '../../hooks/testing/index.js';
import { CERT_ISSUER_VARIABLE } from '../../hooks/trustyai/config.js';
import { trustyai } from '../../hooks/trustyai/index.js';
import { kube } from './support/context.js';
import { installCrds } from './support/install.js';
import { KubeError, type KubeObject } from './support/kube.js';

// Issue 13 §4: the cert-manager variant's answer — the Certificate among the TrustyAIService's
// children — is dry-run created against the real API server with cert-manager's CRD
// (test/vendor/crds/cert-manager.io_certificates.yaml), for both issuer kinds, alone and with
// the openshift variant; and the API server does refuse a Certificate it should (so the
// dry-runs prove something).
const NS = 'e2e-trustyai-cert';
const parent = {
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  metadata: { name: 'trusty', namespace: NS, uid: 'uid-trusty', generation: 1 },
  spec: { storage: { format: 'PVC', folder: '/inputs', size: '1Gi' }, data: { filename: 'data.csv', format: 'CSV' }, metrics: { schedule: '5s' } },
};

describe('TrustyAI cert-manager variant against the API server', () => {
  const k = kube();
  beforeAll(async () => {
    await installCrds(k);
    await k.ensureNamespace(NS);
  });

  it.each([
    ['cert-manager', 'ClusterIssuer/cluster-ca'],
    ['cert-manager', 'Issuer/fairness-ca'],
    ['openshift,cert-manager,prometheus', 'ClusterIssuer/cluster-ca'],
  ])('%s with %s: every child, the Certificate included, is accepted', async (variant, issuer) => {
    const out = runSync(trustyai, { parent, variant, config: loadConfig({ [CERT_ISSUER_VARIABLE]: issuer }).hooks });
    const certificates = out.children.filter((c) => c.kind === 'Certificate');
    expect(certificates).toHaveLength(1);
    for (const child of out.children) {
      const stored = await k.dryRunCreate(child as KubeObject);
      // The Certificate as sent: the CRD defaults and prunes none of its fields.
      if (child.kind === 'Certificate') expect(stored.spec).toEqual(child.spec);
    }
  });

  it('refuses a Certificate the CRD does not allow (an issuerRef without a name)', async () => {
    const out = runSync(trustyai, { parent, variant: 'cert-manager', config: loadConfig({ [CERT_ISSUER_VARIABLE]: 'ClusterIssuer/cluster-ca' }).hooks });
    const cert = out.children.find((c) => c.kind === 'Certificate') as KubeObject & { spec: { issuerRef: Record<string, unknown> } };
    const broken = { ...cert, spec: { ...cert.spec, issuerRef: { kind: 'ClusterIssuer' } } };
    const error = await k.dryRunCreate(broken).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KubeError);
    expect((error as KubeError).status).toBe(422);
  });
});
