/**
 * The cert-manager variant: the issuer variable, the Certificate only where the
 * CompositeController declares Certificates, ServingCertificateReady from cert-manager's
 * Ready condition, and no variant combination that routes outside traffic to the plain port.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../hooks/server/config.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { runCustomize, runSync } from '../../hooks/testing/index.js';
import { CERT_ISSUER_VARIABLE } from '../../hooks/trustyai/config.js';
import { trustyai } from '../../hooks/trustyai/index.js';
import { SERVING_CERT_ANNOTATION } from '../../hooks/trustyai/service.js';

const parent = {
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  metadata: { name: 'trusty', namespace: 'fairness', uid: 'uid-trusty', generation: 1 },
  spec: { storage: { format: 'PVC', folder: '/inputs', size: '1Gi' }, data: { filename: 'data.csv', format: 'CSV' }, metrics: { schedule: '5s' } },
};
const withIssuer = (issuer = 'ClusterIssuer/cluster-ca') => loadConfig({ [CERT_ISSUER_VARIABLE]: issuer }).hooks;
type Pod = {
  spec: {
    template: {
      spec: {
        containers: Array<{ name: string; ports?: Array<{ containerPort: number }>; volumeMounts?: Array<{ name: string; mountPath: string }> }>;
        volumes?: Array<{ name: string; secret?: { secretName: string } }>;
      };
    };
  };
};
const mountsOf = (out: ReturnType<typeof runSync>) =>
  (out.child<KubeObject & Pod>('Deployment', 'trusty')?.spec.template.spec.containers[0]?.volumeMounts ?? []).map((m) => `${m.name}:${m.mountPath}`);
const certificate = (ready: Record<string, unknown> | undefined, generation = 1): KubeObject => ({
  apiVersion: 'cert-manager.io/v1',
  kind: 'Certificate',
  metadata: { name: 'trusty-internal', namespace: 'fairness', generation },
  spec: { secretName: 'trusty-internal' },
  status: ready ? { conditions: [{ type: 'Ready', ...ready }] } : {},
});

describe(`${CERT_ISSUER_VARIABLE}`, () => {
  it('reads ClusterIssuer/<name> and Issuer/<name>', () => {
    expect(withIssuer('ClusterIssuer/cluster-ca').trustyai.certIssuer).toEqual({ kind: 'ClusterIssuer', name: 'cluster-ca' });
    expect(withIssuer('Issuer/ca.example').trustyai.certIssuer).toEqual({ kind: 'Issuer', name: 'ca.example' });
  });
  it('has no default: unset or empty, no issuer', () => {
    expect(loadConfig({}).hooks.trustyai.certIssuer).toBeUndefined();
    expect(loadConfig({ [CERT_ISSUER_VARIABLE]: '' }).hooks.trustyai.certIssuer).toBeUndefined();
  });
  for (const bad of ['cluster-ca', 'Secret/x', 'ClusterIssuer/', 'ClusterIssuer/Upper', 'Issuer/a/b', 'clusterissuer/x', `Issuer/${'a'.repeat(254)}`]) {
    it(`refuses ${bad.length > 40 ? 'a name longer than 253' : JSON.stringify(bad)} at start, naming the variable`, () => {
      expect(() => loadConfig({ [CERT_ISSUER_VARIABLE]: bad })).toThrow(CERT_ISSUER_VARIABLE);
    });
  }
});

describe('the Certificate only where the CompositeController declares Certificates', () => {
  it('default variant with an issuer set: no Certificate, no certificate mount, no HTTPS container port, no condition', () => {
    const out = runSync(trustyai, { parent, config: withIssuer() });
    expect(out.childrenOf('Certificate')).toEqual([]);
    expect(mountsOf(out)).toEqual(['volume:/inputs']);
    expect(out.condition('ServingCertificateReady')).toBeUndefined();
  });
  it('cert-manager variant: the Certificate for <n>-internal, mounted at /etc/tls/internal, 4443 open', () => {
    const out = runSync(trustyai, { parent, variant: 'cert-manager', config: withIssuer('Issuer/fairness-ca') });
    const cert = out.child<KubeObject & { spec: Record<string, unknown> }>('Certificate', 'trusty-internal');
    expect(cert?.spec).toEqual({
      secretName: 'trusty-internal',
      dnsNames: ['trusty.fairness.svc', 'trusty.fairness.svc.cluster.local'],
      issuerRef: { group: 'cert-manager.io', kind: 'Issuer', name: 'fairness-ca' },
    });
    expect(mountsOf(out)).toContain('trusty-internal:/etc/tls/internal');
    const pod = out.child<KubeObject & Pod>('Deployment', 'trusty')?.spec.template.spec;
    expect(pod?.containers[0]?.ports?.map((p) => p.containerPort)).toEqual([8080, 4443]);
    expect(pod?.volumes?.find((v) => v.name === 'trusty-internal')?.secret?.secretName).toBe('trusty-internal');
  });
  it('cert-manager variant without an issuer: no Certificate, no mount (pods would wait forever), ServingCertificateReady False naming the variable', () => {
    const out = runSync(trustyai, { parent, variant: 'cert-manager' });
    expect(out.childrenOf('Certificate')).toEqual([]);
    expect(mountsOf(out)).toEqual(['volume:/inputs']);
    expect(out.condition('ServingCertificateReady')).toMatchObject({ status: 'False', reason: 'IssuerNotConfigured' });
    expect(out.condition('ServingCertificateReady')?.message).toContain(CERT_ISSUER_VARIABLE);
  });
  it('cert-manager variant whose issuer was unset since: the Certificate requested before is kept with its mount, never deleted in silence', () => {
    const first = runSync(trustyai, { parent, variant: 'cert-manager', config: withIssuer() });
    const requested = first.child<KubeObject>('Certificate', 'trusty-internal') as KubeObject;
    const observed = { ...requested, status: { conditions: [{ type: 'Ready', status: 'True' }] } };
    const out = runSync(trustyai, { parent, variant: 'cert-manager', observed: [observed] });
    expect(out.child<KubeObject>('Certificate', 'trusty-internal')?.spec).toEqual(requested.spec);
    expect(mountsOf(out)).toContain('trusty-internal:/etc/tls/internal');
    const c = out.condition('ServingCertificateReady');
    expect(c).toMatchObject({ status: 'False', reason: 'IssuerNotConfigured' });
    expect(c?.message).toContain(`${CERT_ISSUER_VARIABLE} is not set on the hook server: the Certificate trusty-internal requested before is kept`);
  });
  it('with openshift: cert-manager writes <n>-internal, so the <n> Service loses the service-CA annotation; <n>-tls keeps it', () => {
    const both = runSync(trustyai, { parent, variant: 'openshift,cert-manager', config: withIssuer() });
    const annotation = (out: ReturnType<typeof runSync>, name: string) =>
      out.child<KubeObject>('Service', name)?.metadata.annotations?.[SERVING_CERT_ANNOTATION];
    expect(both.child('Certificate', 'trusty-internal')).toBeDefined();
    expect(annotation(both, 'trusty')).toBeUndefined();
    expect(annotation(both, 'trusty-tls')).toBe('trusty-tls');
    const openshift = runSync(trustyai, { parent, variant: 'openshift', config: withIssuer() });
    expect(openshift.childrenOf('Certificate')).toEqual([]);
    expect(annotation(openshift, 'trusty')).toBe('trusty-internal');
  });
});

describe('a Certificate <n>-internal someone else made', () => {
  it('customize asks for certificates named <n>-internal in the namespace only with the variant', () => {
    const rule = { apiVersion: 'cert-manager.io/v1', resource: 'certificates', namespace: 'fairness', names: ['trusty-internal'] };
    expect(runCustomize(trustyai, { parent, variant: 'cert-manager', config: withIssuer() })).toContainEqual(rule);
    expect(runCustomize(trustyai, { parent, config: withIssuer() }).some((r) => r.resource === 'certificates')).toBe(false);
  });
  it('is left alone: no Certificate answered, Ready=False ChildNameConflict naming it', () => {
    const foreign = { ...certificate({ status: 'True', observedGeneration: 1 }), metadata: { name: 'trusty-internal', namespace: 'fairness' } };
    const out = runSync(trustyai, { parent, variant: 'cert-manager', config: withIssuer(), related: [foreign] });
    expect(out.childrenOf('Certificate')).toEqual([]);
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: 'ChildNameConflict' });
    expect(out.condition('Ready')?.message).toContain('Certificate trusty-internal exists and is not ours');
  });
});

describe("ServingCertificateReady from cert-manager's Ready condition", () => {
  const judged = (cert: KubeObject) =>
    runSync(trustyai, { parent, variant: 'cert-manager', config: withIssuer(), observed: [cert] }).condition('ServingCertificateReady');
  it('True when Ready is True for the current generation', () => {
    expect(judged(certificate({ status: 'True', reason: 'Ready', observedGeneration: 1 }))).toMatchObject({ status: 'True', reason: 'CertificateIssued' });
  });
  it("False with cert-manager's reason and message when Ready is False", () => {
    const c = judged(certificate({ status: 'False', reason: 'DoesNotExist', message: 'Issuing certificate as Secret does not exist', observedGeneration: 1 }));
    expect(c).toMatchObject({ status: 'False', reason: 'DoesNotExist' });
    expect(c?.message).toContain('Issuing certificate as Secret does not exist');
  });
  it('Unknown while cert-manager has not judged it, or judged an older generation', () => {
    expect(judged(certificate(undefined))).toMatchObject({ status: 'Unknown', reason: 'CertificatePending' });
    expect(judged(certificate({ status: 'True', reason: 'Ready', observedGeneration: 1 }, 2))).toMatchObject({
      status: 'Unknown',
      reason: 'CertificatePending',
    });
  });
  it('is not part of Ready (the pods, which mount the Secret, are)', () => {
    const ready = (cond: Record<string, unknown>) =>
      runSync(trustyai, { parent, variant: 'cert-manager', config: withIssuer(), observed: [certificate(cond)] }).condition('Ready')?.status;
    expect(ready({ status: 'False', reason: 'Failed', observedGeneration: 1 })).toBe(ready({ status: 'True', reason: 'Ready', observedGeneration: 1 }));
  });
});

describe('never an unauthenticated route', () => {
  const variants = ['openshift', 'prometheus', 'cert-manager'];
  const combinations = variants.reduce<string[][]>((all, v) => [...all, ...all.map((c) => [...c, v])], [[]]);
  for (const combo of combinations) {
    const name = combo.length === 0 ? 'default' : combo.join(',');
    it(`${name}: any Route, Ingress or HTTPRoute goes to kube-rbac-proxy's <n>-tls, re-encrypted`, () => {
      for (const config of [withIssuer(), loadConfig({}).hooks]) {
        const out = runSync(trustyai, { parent, variant: name, config });
        const exposed = out.children.filter((c) => ['Route', 'Ingress', 'HTTPRoute'].includes(c.kind));
        for (const r of exposed) {
          expect(r.kind).toBe('Route');
          expect(r.spec).toMatchObject({ to: { kind: 'Service', name: 'trusty-tls' }, port: { targetPort: 'https' }, tls: { termination: 'reencrypt' } });
        }
        // A Route only with the proxy in front: its Service ends at kube-rbac-proxy's port.
        if (exposed.length > 0) {
          const tls = out.child<KubeObject & { spec: { ports: Array<{ targetPort: number }> } }>('Service', 'trusty-tls');
          expect(tls?.spec.ports.map((p) => p.targetPort)).toEqual([8443]);
          const containers = out.child<KubeObject & Pod>('Deployment', 'trusty')?.spec.template.spec.containers.map((c) => c.name);
          expect(containers).toContain('kube-rbac-proxy');
        }
        expect(exposed.length > 0).toBe(combo.includes('openshift'));
      }
    });
  }
});
