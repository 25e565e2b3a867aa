import { z } from 'zod';
import { imagesFrom, imageVariables, isDns1123Host, isDns1123Label, type Env } from '../kit/index.js';

/** The operator's images (config/base/params.env@11c335b). */
export const TRUSTYAI_IMAGES = {
  'trustyai-service': 'quay.io/trustyai/trustyai-service:latest',
  'kube-rbac-proxy': 'quay.io/opendatahub/odh-kube-rbac-proxy:odh-stable',
};

/** Where ModelMesh's controller runs, and so reads model-serving-config (modelmesh-serving main.go). */
export const MODELMESH_NAMESPACE_VARIABLE = 'MODELHOOKS_MODELMESH_NAMESPACE';
/** The namespace modelmesh-serving's quick start installs its controller into. */
export const DEFAULT_MODELMESH_NAMESPACE = 'modelmesh-serving';

/**
 * The cert-manager issuer of the `cert-manager` variant's serving certificates: `ClusterIssuer/<name>`,
 * or `Issuer/<name>` for an Issuer in each TrustyAIService's own namespace. No default: no issuer
 * exists in every cluster, and a certificate from a guessed one would never be issued.
 */
export const CERT_ISSUER_VARIABLE = 'MODELHOOKS_TRUSTYAI_CERT_ISSUER';
export type CertIssuer = { kind: 'ClusterIssuer' | 'Issuer'; name: string };

export type TrustyAIConfig = { images: Record<keyof typeof TRUSTYAI_IMAGES, string>; modelMeshNamespace: string; certIssuer?: CertIssuer };

/**
 * TrustyAIService's settings: its images (`MODELHOOKS_IMAGE_TRUSTYAI_SERVICE`,
 * `MODELHOOKS_IMAGE_KUBE_RBAC_PROXY`) and the namespace of ModelMesh's controller
 * (`MODELHOOKS_MODELMESH_NAMESPACE`), the only one whose model-serving-config ModelMesh reads,
 * and the cert-manager issuer of the serving certificates (`MODELHOOKS_TRUSTYAI_CERT_ISSUER`).
 */
export const trustyaiConfig = z
  .looseObject({
    ...imageVariables(TRUSTYAI_IMAGES),
    [MODELMESH_NAMESPACE_VARIABLE]: z.string().refine(isDns1123Label, 'a namespace name').optional().meta({
      description: "the namespace of ModelMesh's controller, whose model-serving-config TrustyAIServices there join",
      unset: DEFAULT_MODELMESH_NAMESPACE,
    }),
    [CERT_ISSUER_VARIABLE]: z
      .string()
      .refine((v) => v === '' || certIssuerOf(v).certIssuer !== undefined, 'ClusterIssuer/<name> or Issuer/<name> (a DNS subdomain name)')
      .optional()
      .meta({
        description: 'ClusterIssuer/<name> or Issuer/<name>: the issuer of TrustyAIService serving certificates (cert-manager component)',
        unset: '(none)',
      }),
  })
  .transform(
    (env): TrustyAIConfig => ({
      images: imagesFrom(TRUSTYAI_IMAGES, env as Env),
      modelMeshNamespace: (env[MODELMESH_NAMESPACE_VARIABLE] as string | undefined) || DEFAULT_MODELMESH_NAMESPACE,
      ...certIssuerOf(env[CERT_ISSUER_VARIABLE] as string | undefined),
    }),
  );

/** `Kind/name`, the name a DNS subdomain as cert-manager's issuers are named. */
function certIssuerOf(value: string | undefined): { certIssuer?: CertIssuer } {
  const [kind, name, ...rest] = (value ?? '').split('/');
  const known = kind === 'ClusterIssuer' || kind === 'Issuer';
  return known && name !== undefined && rest.length === 0 && isDns1123Host(name) ? { certIssuer: { kind, name } } : {};
}
