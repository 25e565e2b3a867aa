import { z } from 'zod';

import { containerProblems, QUANTITY_PATTERN, type SpecProblem } from '../kit/index.js';

/**
 * The original MLModel spec (same names and types; its required fields now have defaults,
 * so existing YAML applies unchanged) plus `image` and `downloadImage`. Every default is
 * applied here and nowhere else.
 */
export const mlmodelSpec = z
  .object({
    modelURL: z
      .string()
      .regex(/^https?:\/\/[^\s/$.?#][^\s]*$/, 'an http(s) URL of a model file or a .tar.gz/.tgz/.zip archive')
      .describe('Where the model is downloaded from: a file, or a .tar.gz/.tgz/.zip archive unpacked into version 1.'),
    storageSize: z
      .string()
      .regex(QUANTITY_PATTERN, 'a quantity such as 5Gi')
      .default('1Gi')
      .describe('Size of the PersistentVolumeClaim the model is stored in (applied when the claim is created).'),
    framework: z.string().default('tensorflow').describe('Only tensorflow is served (TensorFlow Serving).'),
    replicas: z.number().int().min(0).default(1).describe('Replicas of the model server.'),
    expose: z.boolean().default(true).describe('Whether a Service exposes the model server.'),
    image: z.string().min(1).optional().describe("Model server image; defaults to the server's tensorflow-serving image."),
    downloadImage: z
      .string()
      .min(1)
      .optional()
      .describe("Image of the download Job (needs sh, curl, tar and unzip); defaults to the server's model-downloader image."),
  })
  .superRefine((spec, ctx) => {
    if (spec.framework.toLowerCase() !== 'tensorflow') {
      ctx.addIssue({ code: 'custom', path: ['framework'], message: `only tensorflow is served, got "${spec.framework}"` });
    }
  });

export type MLModelSpec = z.infer<typeof mlmodelSpec>;

/** The two images as the API server validates a container's (validateContainerOnlyForPod: no leading or trailing whitespace). */
export function podFieldProblems(spec: MLModelSpec): SpecProblem[] {
  const download = containerProblems({ image: spec.downloadImage }, 'spec').map((p) => ({ ...p, path: 'spec.downloadImage' }));
  return [...containerProblems({ image: spec.image }, 'spec'), ...download];
}
