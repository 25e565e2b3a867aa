import type { SyncInput } from '../kit/index.js';
import type { InferenceServiceConfig } from './config.js';
import type { InferenceServiceSpec } from './spec.js';

/** What one sync of an InferenceService reads: the parent, its observed children and related objects, the configuration. */
export type Input = SyncInput<InferenceServiceSpec, InferenceServiceConfig>;
