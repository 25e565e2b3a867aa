import type { AnyComposition } from './kit/composition.js';
import { trustyai } from './trustyai/index.js';
import { tfserv } from './tfserv/index.js';
import { mlmodel } from './mlmodel/index.js';
import { inferenceservice } from './inferenceservice/index.js';
import { inferencegraph } from './inferencegraph/index.js';

/** The compositions the server serves, in the order their manifests are written. */
export const builtinCompositions: AnyComposition[] = [trustyai, tfserv, mlmodel, inferenceservice, inferencegraph];
