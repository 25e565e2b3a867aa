import { z } from 'zod';
import { imagesFrom, imageVariables, isLabelPair, type Env } from '../kit/index.js';
import type { GatewayConfig, IngressConfig } from '../inferenceservice/config.js';
import { podSecurityVariable, type PodSecurityLevel } from '../inferenceservice/input/pod-security-standards.js';

/**
 * The router image: KServe v0.20.0's `router` entry of inferenceservice-config
 * (config/configmap/inferenceservice.yaml, `kserve/router:latest`, tagged as the release, as
 * the other KServe images here are). `MODELHOOKS_IMAGE_ROUTER` overrides it.
 */
export const INFERENCEGRAPH_IMAGES = { router: 'kserve/router:v0.20.0' };

/**
 * The rest of that `router` entry: the router's resources when the graph names none
 * (knative_reconciler.go constructResourceRequirements) and its pull policy.
 */
export const ROUTER_DEFAULTS = {
  cpuRequest: '100m',
  cpuLimit: '1',
  memoryRequest: '100Mi',
  memoryLimit: '1Gi',
  imagePullPolicy: 'IfNotPresent',
} as const;

export type InferenceGraphConfig = {
  images: Record<keyof typeof INFERENCEGRAPH_IMAGES, string>;
  /** The same settings, variables and namespace annotations as InferenceServices' exposure. */
  ingress: IngressConfig;
  gateway: GatewayConfig;
  /** MODELHOOKS_POD_SECURITY, resolved per namespace by the engine: at restricted the router's pod gets seccomp RuntimeDefault. */
  podSecurity: PodSecurityLevel | 'namespace';
};

/** InferenceGraph's settings: the router image and the exposure settings InferenceServices read. */
export const inferencegraphConfig = z
  .looseObject({
    ...imageVariables(INFERENCEGRAPH_IMAGES),
    MODELHOOKS_INGRESS_DOMAIN: z.string().default('example.com'),
    MODELHOOKS_INGRESS_CLASS: z.string().default(''),
    MODELHOOKS_DOMAIN_TEMPLATE: z.string().default('{{name}}-{{namespace}}.{{domain}}'),
    MODELHOOKS_URL_SCHEME: z.enum(['http', 'https']).default('http'),
    MODELHOOKS_GATEWAY: z.string().refine(isLabelPair, 'namespace/name of a Gateway').default('kserve/kserve-ingress-gateway'),
    ...podSecurityVariable,
  })
  .transform((e): InferenceGraphConfig => {
    const [namespace, name] = e.MODELHOOKS_GATEWAY.split('/') as [string, string];
    return {
      images: imagesFrom(INFERENCEGRAPH_IMAGES, e as Env),
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
