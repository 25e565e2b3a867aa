// `modelhooks/server`: what a program needs to serve compositions (its own, the built-in ones,
// or both) with the same HTTP server as `modelhooks serve`.
export { createApp, type AppOptions, type HookApp } from './app.js';
export { loadConfig, defaultHookConfig, type HookConfig, type ServerConfig } from './config.js';
export type { ConfigSchema, CompositionConfigs, Env } from '../kit/config.js';
export { createMetrics, type HookMetrics } from './metrics.js';
export { builtinCompositions } from '../compositions.js';
export { trustyai } from '../trustyai/index.js';
export { tfserv } from '../tfserv/index.js';
export { mlmodel } from '../mlmodel/index.js';
export { inferenceservice } from '../inferenceservice/index.js';
export { inferencegraph } from '../inferencegraph/index.js';
export { loadCompositions, compositionProblem, CompositionLoadError } from '../cli/load-compositions.js';
export { crdFor, compositeControllerFor } from '../engine/manifests.js';
export type { AnyComposition, Composition } from '../kit/composition.js';
