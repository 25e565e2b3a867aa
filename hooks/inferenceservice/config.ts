import { z } from 'zod';
import { imagesFrom, imageVariables, podSecurityVariable, type Env, type PodSecurityLevel } from '../kit/index.js';

/** KServe v0.20.0's cluster serving runtimes (config/runtimes/kustomization.yaml, charts' runtime tags). */
export const INFERENCESERVICE_IMAGES = {
  'storage-initializer': 'kserve/storage-initializer:v0.20.0',
  sklearnserver: 'kserve/sklearnserver:v0.20.0',
  xgbserver: 'kserve/xgbserver:v0.20.0',
  lgbserver: 'kserve/lgbserver:v0.20.0',
  'kserve-tensorflow-serving': 'tensorflow/serving:2.6.2',
  torchserve: 'pytorch/torchserve-kfs:0.9.0',
  tritonserver: 'nvcr.io/nvidia/tritonserver:23.05-py3',
  huggingfaceserver: 'kserve/huggingfaceserver:v0.20.0',
};

export type ImageKey = keyof typeof INFERENCESERVICE_IMAGES;

export type IngressConfig = { domain: string; className: string; domainTemplate: string; urlScheme: 'http' | 'https' };
export type GatewayConfig = { namespace: string; name: string };
export type InferenceServiceConfig = {
  images: Record<ImageKey, string>;
  ingress: IngressConfig;
  gateway: GatewayConfig;
  /** The Pod Security Standard level the user's pod and container fields must keep. */
  podSecurity: PodSecurityLevel;
};

/** InferenceService's settings: runtime images, the host domain and template, the Ingress class, the Gateway, the pod security level. */
export const inferenceserviceConfig = z
  .looseObject({
    ...imageVariables(INFERENCESERVICE_IMAGES),
    MODELHOOKS_INGRESS_DOMAIN: z.string().default('example.com'),
    MODELHOOKS_INGRESS_CLASS: z.string().default(''),
    MODELHOOKS_DOMAIN_TEMPLATE: z.string().default('{{name}}-{{namespace}}.{{domain}}'),
    MODELHOOKS_URL_SCHEME: z.enum(['http', 'https']).default('http'),
    MODELHOOKS_GATEWAY: z
      .string()
      .regex(/^[a-z0-9-]+\/[a-z0-9-]+$/, 'namespace/name of a Gateway')
      .default('kserve/kserve-ingress-gateway'),
    ...podSecurityVariable,
  })
  .transform((e): InferenceServiceConfig => {
    const [namespace, name] = e.MODELHOOKS_GATEWAY.split('/') as [string, string];
    return {
      images: imagesFrom(INFERENCESERVICE_IMAGES, e as Env),
      ingress: {
        domain: e.MODELHOOKS_INGRESS_DOMAIN,
        className: e.MODELHOOKS_INGRESS_CLASS,
        domainTemplate: e.MODELHOOKS_DOMAIN_TEMPLATE,
        urlScheme: e.MODELHOOKS_URL_SCHEME,
      },
      gateway: { namespace, name },
      podSecurity: e.MODELHOOKS_POD_SECURITY,
    };
  });
