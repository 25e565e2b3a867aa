import { z } from 'zod';

import { containerProblems, DNS1123_SUBDOMAIN, quantity as quantityOf, type SpecProblem } from '../kit/index.js';

const quantity = quantityOf('500m or 1Gi');

const port = (description: string, fallback: number) => z.number().int().min(1).max(65535).default(fallback).describe(description);

/** An absolute directory below `/` (a mount path: no `..`). */
const directory = (description: string) =>
  z
    .string()
    .regex(/^\/.+$/, 'an absolute path below /, such as /var/config/')
    .refine((p) => !p.split('/').includes('..'), 'must not contain ..')
    .describe(description);

/** `requests` without `limits` by default: TF Serving's memory need depends on the models. */
export const DEFAULT_RESOURCES = { requests: { cpu: '500m', memory: '1Gi' } };

/**
 * The original Tfserv spec (same field names and types, so existing YAML applies
 * unchanged) plus `secretName`, `image`, `serviceType` and `resources`. Every default is
 * applied here and nowhere else.
 */
export const tfservSpec = z
  .object({
    grpcPort: port('gRPC port of TensorFlow Serving.', 8500),
    restPort: port('REST port of TensorFlow Serving; the readiness probe uses it.', 8501),
    replicas: z.number().int().min(0).default(1).describe('Number of pod replicas.'),
    configMap: z
      .string()
      .regex(DNS1123_SUBDOMAIN, 'the name of a ConfigMap')
      .max(253)
      // The original operator always mounted this ConfigMap: its users' YAML may not name one.
      .default('tf-serving-models-config')
      .describe('ConfigMap holding the models file; nothing is deployed until it exists.'),
    configFileName: z
      .string()
      .regex(/^[-._a-zA-Z0-9]+$/, 'a ConfigMap key such as models.conf')
      .default('models.conf')
      .describe('Key of the models file in the ConfigMap.'),
    configFileLocation: directory('Directory where the ConfigMap is mounted.').default('/var/config/'),
    secretFileName: z
      .string()
      .regex(/^[-._a-zA-Z0-9]+$/, 'a Secret key such as key.json')
      .optional()
      .describe('Key of the credentials file in the Secret; sets GOOGLE_APPLICATION_CREDENTIALS.'),
    secretFileLocation: directory('Directory where the Secret is mounted; without it no Secret is mounted.').optional(),
    secretName: z
      .string()
      .regex(DNS1123_SUBDOMAIN, 'the name of a Secret')
      .max(253)
      .default('tfs-secret')
      .describe('Secret mounted at secretFileLocation (the original always used tfs-secret).'),
    image: z.string().min(1).optional().describe("TensorFlow Serving image; defaults to the server's tensorflow-serving image."),
    serviceType: z.enum(['ClusterIP', 'NodePort', 'LoadBalancer']).default('NodePort').describe('Type of the Service.'),
    resources: z
      .object({
        requests: z.record(z.string(), quantity).optional(),
        limits: z.record(z.string(), quantity).optional(),
      })
      .default(DEFAULT_RESOURCES)
      .describe('Resources of the serving container.'),
  })
  .superRefine((spec, ctx) => {
    if (spec.grpcPort === spec.restPort) {
      ctx.addIssue({ code: 'custom', path: ['restPort'], message: `must differ from grpcPort (both are ${spec.restPort})` });
    }
    if (spec.secretFileName !== undefined && spec.secretFileLocation === undefined) {
      ctx.addIssue({ code: 'custom', path: ['secretFileLocation'], message: `required when secretFileName (${spec.secretFileName}) is given` });
    }
    if (spec.secretFileLocation !== undefined && sameDirectory(spec.secretFileLocation, spec.configFileLocation)) {
      ctx.addIssue({ code: 'custom', path: ['secretFileLocation'], message: 'must differ from configFileLocation (two volumes cannot share a mount path)' });
    }
  });

export type TfservSpec = z.infer<typeof tfservSpec>;

/** `<location><file>`, with the `/` the original expected the user to write. */
export function joinPath(location: string, file: string): string {
  return location.endsWith('/') ? `${location}${file}` : `${location}/${file}`;
}

function sameDirectory(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

/** The serving container's image and resources as the API server validates them (validateContainerOnlyForPod, validateResourceRequirements). */
export const podFieldProblems = (spec: TfservSpec): SpecProblem[] => containerProblems({ image: spec.image, resources: spec.resources }, 'spec');
