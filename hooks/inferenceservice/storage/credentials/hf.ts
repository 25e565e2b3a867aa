import type { V1EnvVar } from '@kubernetes/client-node';
import type { KubeObject } from '../../../kit/index.js';
import { secretRef } from './env.js';

/* KServe v0.20.0 pkg/credentials/hf/hf_secret.go: HFTokenKey. */
export const HF_TOKEN_KEY = 'HF_TOKEN';

export const hfEnv = (secret: KubeObject): V1EnvVar[] => [secretRef(HF_TOKEN_KEY, secret.metadata.name, HF_TOKEN_KEY)];
