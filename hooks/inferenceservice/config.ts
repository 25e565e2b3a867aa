import type { HookConfig } from '../config.js';

export type InferenceServiceConfig = HookConfig;
export type IngressConfig = HookConfig['ingress'];
export type GatewayConfig = HookConfig['gateway'];
