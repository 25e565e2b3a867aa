import { z } from 'zod';
import { imagesFrom, imageVariables, type Env } from '../kit/index.js';

/** The operator's images (config/base/params.env@11c335b). */
export const TRUSTYAI_IMAGES = {
  'trustyai-service': 'quay.io/trustyai/trustyai-service:latest',
  'kube-rbac-proxy': 'quay.io/opendatahub/odh-kube-rbac-proxy:odh-stable',
};

/** Where ModelMesh's controller runs, and so reads model-serving-config (modelmesh-serving main.go). */
export const MODELMESH_NAMESPACE_VARIABLE = 'MODELHOOKS_MODELMESH_NAMESPACE';
/** The namespace modelmesh-serving's quick start installs its controller into. */
export const DEFAULT_MODELMESH_NAMESPACE = 'modelmesh-serving';

export type TrustyAIConfig = { images: Record<keyof typeof TRUSTYAI_IMAGES, string>; modelMeshNamespace: string };

/**
 * TrustyAIService's settings: its images (`MODELHOOKS_IMAGE_TRUSTYAI_SERVICE`,
 * `MODELHOOKS_IMAGE_KUBE_RBAC_PROXY`) and the namespace of ModelMesh's controller
 * (`MODELHOOKS_MODELMESH_NAMESPACE`), the only one whose model-serving-config ModelMesh reads.
 */
export const trustyaiConfig = z
  .looseObject({
    ...imageVariables(TRUSTYAI_IMAGES),
    [MODELMESH_NAMESPACE_VARIABLE]: z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'a namespace name')
      .optional(),
  })
  .transform(
    (env): TrustyAIConfig => ({
      images: imagesFrom(TRUSTYAI_IMAGES, env as Env),
      modelMeshNamespace: (env[MODELMESH_NAMESPACE_VARIABLE] as string | undefined) || DEFAULT_MODELMESH_NAMESPACE,
    }),
  );
