// The kit: everything a composition needs to speak Metacontroller's protocol.
export * from './types.js';
export * from './composition.js';
export * from './conditions.js';
export * from './hash.js';
export * from './keep.js';
export * from './labels.js';
export * from './manifests.js';
export * from './names.js';
export * from './observed.js';
export * from './protocol.js';
export * from './readiness.js';
export * from './request.js';
export * from './schema.js';
export * from './status-schema.js';
export * from './security.js';
export * from './quantity.js';
export * from './run.js';
