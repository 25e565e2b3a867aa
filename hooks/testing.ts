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
// The wire helpers live in the kit (render uses them too); tests keep importing them from here.
export { wireMap } from './kit/run.js';
export * from './testing/run.js';
export * from './testing/ready.js';
export * from './testing/converge.js';
export { expectValidChildren, validateChildren, type ValidateChildrenOptions } from './testing/validate.js';
