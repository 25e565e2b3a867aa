import { childMeta, findCondition, isRecord, type KubeObject, type Parent, type Readiness } from '../kit/index.js';
import type { CertIssuer } from './config.js';
import { internalCertName, labelsFor, serviceName } from './names.js';

/** cert-manager's Certificate (pkg/apis/certmanager/v1/types_certificate.go@v1.21.1). */
export const CERTIFICATE = { apiVersion: 'cert-manager.io/v1', kind: 'Certificate' } as const;

/**
 * The service's serving certificate from cert-manager, written into `<n>-internal`: the Secret
 * the operator mounts at /etc/tls/internal (deployment.tmpl.yaml@11c335b) and the service serves
 * HTTPS on 4443 from, behind the `<n>` Service's 443. Its names are that Service's in-cluster
 * ones; the `<n>-tls` Service (OpenShift) ends at kube-rbac-proxy, which has its own certificate.
 */
export function certificateFor(parent: Parent<unknown>, issuer: CertIssuer, version: string): KubeObject {
  const host = `${serviceName(parent)}.${parent.metadata.namespace}.svc`;
  return {
    ...CERTIFICATE,
    metadata: childMeta(parent, internalCertName(parent), labelsFor(parent, version)),
    spec: {
      secretName: internalCertName(parent),
      dnsNames: [host, `${host}.cluster.local`],
      issuerRef: { group: 'cert-manager.io', kind: issuer.kind, name: issuer.name },
    },
  };
}

/**
 * Whether the observed Certificate is issued: cert-manager's `Ready` condition
 * (CertificateConditionReady, types_certificate.go@v1.21.1: the Secret holds an unexpired
 * certificate and key matching the spec), counted only once written for the current generation.
 */
export function certificateReadiness(cert: KubeObject | undefined): Readiness {
  if (!cert) return { status: 'Unknown', reason: 'CertificateNotFound', message: 'the Certificate has not been created yet' };
  const name = cert.metadata.name;
  const status = isRecord(cert.status) ? cert.status : {};
  const ready = findCondition<{ type?: string; status?: string; reason?: string; message?: string; observedGeneration?: number }>(status.conditions, 'Ready');
  const generation = cert.metadata.generation;
  if (!ready || (generation !== undefined && ready.observedGeneration !== undefined && ready.observedGeneration < generation)) {
    return { status: 'Unknown', reason: 'CertificatePending', message: `cert-manager has not judged Certificate ${name} yet` };
  }
  const detail = ready.message ? `: ${ready.message}` : '';
  if (ready.status === 'True')
    return {
      status: 'True',
      reason: 'CertificateIssued',
      message: `Certificate ${name} is issued into Secret ${String((cert.spec as { secretName?: string } | undefined)?.secretName ?? name)}`,
    };
  return {
    status: ready.status === 'False' ? 'False' : 'Unknown',
    reason: ready.reason || 'CertificateNotReady',
    message: `Certificate ${name} is not ready${detail}`,
  };
}
