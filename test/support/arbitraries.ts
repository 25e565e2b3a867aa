import type fc from 'fast-check';
import { trustyaiSpec } from '../property/trustyai.arb.js';
import { tfservSpec } from '../property/tfserv.arb.js';
import { mlmodelSpec } from '../property/mlmodel.arb.js';
import { inferenceserviceSpec } from '../property/inferenceservice.arb.js';
import { inferencegraphSpec } from '../property/inferencegraph.arb.js';

/**
 * One arbitrary of valid specs per composition (by composition name), for the property
 * tests shared by every composition. Add a composition's entry when it is registered.
 */
export const specArbitraries: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  trustyai: trustyaiSpec,
  tfserv: tfservSpec,
  mlmodel: mlmodelSpec,
  inferenceservice: inferenceserviceSpec,
  inferencegraph: inferencegraphSpec,
};
