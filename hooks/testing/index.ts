/**
 * `modelhooks/testing`: runs a composition the way Metacontroller would call it, without
 * HTTP, so that a composition's desired state can be unit-tested with plain objects:
 *
 *   const out = runSync(myComposition, { parent, observed: [deployment] });
 *   expect(out.child('Deployment', 'demo')?.spec.replicas).toBe(2);
 *
 * Only re-exports: the helpers live in hooks/testing/ and import each other directly, never
 * through this file (no import cycle).
 */
// The wire helpers live in the engine (render uses them too); tests keep importing them from here.
export { wireMap } from '../engine/run.js';
export * from './run.js';
export * from './ready.js';
export * from './converge.js';
export { expectValidChildren, validateChildren, type ValidateChildrenOptions } from './validate.js';
