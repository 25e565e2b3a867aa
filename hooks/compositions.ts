import type { AnyComposition } from './kit/composition.js';
import type { HookConfig } from './config.js';
import { trustyai } from './trustyai/index.js';

/** The compositions the server serves, in the order their manifests are written. */
export const builtinCompositions: AnyComposition<HookConfig>[] = [trustyai];
