import type fc from 'fast-check';
import { trustyaiSpec } from '../property/trustyai.arb.js';

/**
 * One arbitrary of valid specs per composition (by composition name), for the property
 * tests shared by every composition. Add a composition's entry when it is registered.
 */
export const specArbitraries: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  trustyai: trustyaiSpec,
};
