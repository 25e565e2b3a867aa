import { z } from 'zod';
import { imagesFrom, imageVariables, isLabelPair, type Env } from '../kit/index.js';
import { podSecurityVariable, type PodSecurityLevel } from './input/pod-security-standards.js';

/**
 * The images of KServe v0.20.0's shipped ClusterServingRuntimes (config/runtimes/kustomization.yaml
 * `images:`; its `latest` tags are the release's own tag, v0.20.0) and of its storage initializer.
 * The built-in runtimes (kserve-runtimes.ts) take their images from here, so each
 * `MODELHOOKS_IMAGE_<KEY>` overrides one; a runtime read from the cluster names its own image.
 */
export const INFERENCESERVICE_IMAGES = {
  'storage-initializer': 'kserve/storage-initializer:v0.20.0',
  sklearnserver: 'kserve/sklearnserver:v0.20.0',
  xgbserver: 'kserve/xgbserver:v0.20.0',
  lgbserver: 'kserve/lgbserver:v0.20.0',
  'kserve-tensorflow-serving': 'tensorflow/serving:2.6.2',
  torchserve: 'pytorch/torchserve-kfs:0.9.0',
  tritonserver: 'nvcr.io/nvidia/tritonserver:23.05-py3',
  huggingfaceserver: 'kserve/huggingfaceserver:v0.20.0',
  // The logger/batcher sidecar (config/configmap/inferenceservice.yaml `agent`, tagged as the chart's kserve.version).
  agent: 'kserve/agent:v0.20.0',
  mlserver: 'docker.io/seldonio/mlserver:1.7.1',
  pmmlserver: 'kserve/pmmlserver:v0.20.0',
  paddleserver: 'kserve/paddleserver:v0.20.0',
  predictiveserver: 'kserve/predictiveserver:v0.20.0',
  autogluonserver: 'kserve/autogluonserver:v0.20.0',
  vllmserver: 'vllm/vllm-openai:latest',
  // The ART explainer: inferenceservice-config `explainers.art` as the chart writes it (charts/_common/
  // common-patches/configmap-patch.yaml: image kserve/art-explainer, defaultImageVersion = kserve.version).
  'art-explainer': 'kserve/art-explainer:v0.20.0',
};

export type ImageKey = keyof typeof INFERENCESERVICE_IMAGES;

export type IngressConfig = {
  domain: string;
  className: string;
  domainTemplate: string;
  urlScheme: 'http' | 'https';
  /** KServe's `ingress.disableIngressCreation`: no Ingress or HTTPRoute, the URLs as with one (absent: false, as shipped). */
  disableIngressCreation?: boolean;
};
export type GatewayConfig = { namespace: string; name: string };
export type InferenceServiceConfig = {
  images: Record<ImageKey, string>;
  ingress: IngressConfig;
  gateway: GatewayConfig;
  /**
   * The Pod Security Standard level the pods are built for and the user's pod and container
   * fields must keep: at restricted its security fields are added under the user's. `namespace`
   * is resolved by the engine to the Namespace's enforce label (engine/namespace-settings.ts).
   */
  podSecurity: PodSecurityLevel | 'namespace';
  /**
   * Readiness probes that ask the model server for the model (`/v1/models/<name>`…) where the
   * server type and model name tell the path, instead of KServe's TCP probe. Off by default: it
   * changes the pod template of a Deployment KServe made (deployment_reconciler.go setDefaultPodSpec).
   */
  modelReadiness: boolean;
  /**
   * `template` (default): what KServe's pod webhook adds to each Pod (storage initializer, agent,
   * model car, metrics annotations) is written into the Deployment's pod template. `webhook`: the
   * template is KServe's controller's, and modelhooks' pod webhook (deploy/components/pod-webhook)
   * adds the rest to each Pod, so a takeover from KServe rolls no pod (pod/injection.ts).
   */
  podInjection: 'template' | 'webhook';
  /** KServe's `logger` settings the agent sidecar gets (agent_injector.go LoggerConfig). */
  logger: LoggerSettings;
  /** KServe's `explainers` (v1beta1 ExplainersConfig): the ART explainer's image and default tag. */
  explainers: { art: ArtDefaults };
  /** Where KServe's inferenceservice-config ConfigMap is read from (kserve-config.ts). */
  kserveNamespace: string;
  /** KServe's `storageInitializer`: the initializer's resources, the CA bundle's mount path, the model car's resources and user. */
  storageInitializer: StorageInitializerSettings;
  /** KServe's `agent`: the agent sidecar's resources (its image is `images.agent`). */
  agentResources: Resources;
  /**
   * KServe's `inferenceService.resource`, only when the ConfigMap sets it: each entry a default of
   * the component's container, before a runtime's (setResourceRequirementDefaults). Without it,
   * the server's 1 CPU / 2Gi per resource left entirely unset (component-pod.ts).
   */
  inferenceServiceResource?: DefaultResources;
  /** KServe's `security.autoMountServiceAccountToken`: false sets it false on every component pod that does not set it. */
  automountServiceAccountToken: boolean;
  /** KServe's `deploy` and `service` settings of raw mode's Deployments and Services. */
  raw: RawSettings;
  /** What KServe's ConfigMap gave, set by `configured` when it exists (kserve-config.ts): the KServeConfig condition reads it. */
  kserveConfig?: KServeConfigRead;
};
/**
 * `service.serviceClusterIPNone`: every component's Service headless (service_reconciler.go createDefaultSvc);
 * `deploy.deploymentRolloutStrategy.defaultRollout`: the rolling update of a Deployment whose spec sets no
 * deploymentStrategy, each value a count or a percentage, empty for KServe's 25% (applyRolloutStrategyFromConfigmap).
 */
export type RawSettings = { serviceClusterIPNone: boolean; defaultRollout?: { maxSurge: string; maxUnavailable: string } };
export type Resources = { requests: { cpu: string; memory: string }; limits: { cpu: string; memory: string } };
export type DefaultResources = { requests: { cpu?: string; memory?: string }; limits: { cpu?: string; memory?: string } };
export type StorageInitializerSettings = { resources: Resources; caBundleVolumeMountPath: string; modelcar: { cpu: string; memory: string; uid: number } };
/** The fields read from the ConfigMap (`<key>.<field>`) and those that could not be (`data.<key>[.<field>]: why`). */
export type KServeConfigRead = { honoured: string[]; problems: string[] };

/*
 * KServe v0.20.0's shipped values (config/configmap/inferenceservice.yaml) of the keys that have
 * no MODELHOOKS_* variable: what is used without the ConfigMap, or when it lacks the field.
 */
export const KSERVE_DEFAULTS = {
  storageInitializer: {
    resources: { requests: { cpu: '100m', memory: '100Mi' }, limits: { cpu: '1', memory: '1Gi' } },
    caBundleVolumeMountPath: '/etc/ssl/custom-certs',
    modelcar: { cpu: '10m', memory: '15Mi', uid: 1010 },
  },
  agentResources: { requests: { cpu: '100m', memory: '100Mi' }, limits: { cpu: '1', memory: '1Gi' } },
  automountServiceAccountToken: true,
  raw: { serviceClusterIPNone: false } as RawSettings,
} satisfies Partial<InferenceServiceConfig>;
/** KServe's `explainers.art` entry (ExplainerConfig): the image without its tag, and the tag a runtimeVersion replaces. */
export type ArtDefaults = { image: string; defaultImageVersion: string };
export type LoggerSettings = { defaultUrl: string; caBundle: string; caCertFile: string; tlsSkipVerify: boolean };

/** InferenceService's settings: runtime images, the host domain and template, the Ingress class, the Gateway, the pod security level. */
export const inferenceserviceConfig = z
  .looseObject({
    ...imageVariables(INFERENCESERVICE_IMAGES),
    MODELHOOKS_INGRESS_DOMAIN: z.string().default('example.com').describe('the domain of InferenceService hosts'),
    MODELHOOKS_INGRESS_CLASS: z
      .string()
      .default('')
      .meta({ description: 'the ingressClassName of InferenceService Ingresses', unset: '(the cluster default)' }),
    MODELHOOKS_DOMAIN_TEMPLATE: z.string().default('{{name}}-{{namespace}}.{{domain}}').describe('the host of an InferenceService'),
    MODELHOOKS_URL_SCHEME: z.enum(['http', 'https']).default('http').describe('the scheme of InferenceService URLs in status'),
    MODELHOOKS_GATEWAY: z
      .string()
      .refine(isLabelPair, 'namespace/name of a Gateway')
      .default('kserve/kserve-ingress-gateway')
      .describe('namespace/name of the Gateway HTTPRoutes attach to (gateway-api component)'),
    ...podSecurityVariable,
    MODELHOOKS_MODEL_READINESS: z
      .enum(['true', 'false'])
      .default('false')
      .describe("true: readiness asks the server for the model where its path and name are known, instead of KServe's TCP probe (rolls KServe's pods)"),
    MODELHOOKS_POD_INJECTION: z
      .enum(['template', 'webhook'])
      .default('template')
      .describe(
        "webhook: pod templates as KServe's controller writes them, the storage initializer, agent and model car added to each Pod by modelhooks' pod webhook (deploy/components/pod-webhook) — a takeover from KServe rolls no pod",
      ),
    // KServe's `logger` config defaults (config/configmap/inferenceservice.yaml, agent_injector.go).
    MODELHOOKS_LOGGER_DEFAULT_URL: z.string().default('http://default-broker').describe('where an InferenceService logger without url posts'),
    MODELHOOKS_LOGGER_CA_BUNDLE: z
      .string()
      .default('')
      .meta({ description: 'a ConfigMap the agent sidecar mounts to verify an HTTPS logger URL', unset: '(none)' }),
    MODELHOOKS_LOGGER_CA_CERT_FILE: z.string().default('').meta({ description: 'the file in that ConfigMap', unset: "(the agent's service-ca.crt)" }),
    MODELHOOKS_LOGGER_TLS_SKIP_VERIFY: z.enum(['true', 'false']).default('false').describe("true: the agent does not verify the logger's certificate"),
    // KServe's own namespace, where its inferenceservice-config ConfigMap is read (kserve-config.ts).
    MODELHOOKS_KSERVE_NAMESPACE: z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'a namespace name (DNS-1123 label)')
      .default('kserve')
      .describe("KServe's namespace, where its inferenceservice-config ConfigMap is read"),
  })
  .transform((e): InferenceServiceConfig => {
    const [namespace, name] = e.MODELHOOKS_GATEWAY.split('/') as [string, string];
    const images = imagesFrom(INFERENCESERVICE_IMAGES, e as Env);
    return {
      images,
      ingress: {
        domain: e.MODELHOOKS_INGRESS_DOMAIN,
        className: e.MODELHOOKS_INGRESS_CLASS,
        domainTemplate: e.MODELHOOKS_DOMAIN_TEMPLATE,
        urlScheme: e.MODELHOOKS_URL_SCHEME,
      },
      gateway: { namespace, name },
      podSecurity: e.MODELHOOKS_POD_SECURITY,
      modelReadiness: e.MODELHOOKS_MODEL_READINESS === 'true',
      podInjection: e.MODELHOOKS_POD_INJECTION,
      logger: {
        defaultUrl: e.MODELHOOKS_LOGGER_DEFAULT_URL,
        caBundle: e.MODELHOOKS_LOGGER_CA_BUNDLE,
        caCertFile: e.MODELHOOKS_LOGGER_CA_CERT_FILE,
        tlsSkipVerify: e.MODELHOOKS_LOGGER_TLS_SKIP_VERIFY === 'true',
      },
      explainers: { art: splitTag(images['art-explainer']) },
      kserveNamespace: e.MODELHOOKS_KSERVE_NAMESPACE,
      ...KSERVE_DEFAULTS,
    };
  });

/** `repo[:tag]` as KServe's image and defaultImageVersion: the tag after the last `:` past the last `/`; none (used as is) for an untagged or digest-pinned image. */
export function splitTag(image: string): ArtDefaults {
  const colon = image.lastIndexOf(':');
  if (colon <= image.lastIndexOf('/') || image.includes('@')) return { image, defaultImageVersion: '' };
  return { image: image.slice(0, colon), defaultImageVersion: image.slice(colon + 1) };
}
