import { z } from 'zod';
import { podSpecProblems, quantity as quantityOf, type SpecProblem } from '../kit/index.js';

/*
 * KServe v0.20.0's InferenceGraph spec (pkg/apis/serving/v1alpha1/inference_graph.go), field
 * for field, so KServe's YAML applies unchanged. Objects are closed as in KServe's CRD
 * (config/crd/full/serving.kserve.io_inferencegraphs.yaml): the API server prunes unknown
 * fields there too. No defaults: the router receives the spec as the user wrote it.
 */

const quantity = quantityOf('100m or 1Gi');
const int = (description: string) => z.number().int().optional().describe(description);

export const ROUTER_TYPES = ['Sequence', 'Splitter', 'Ensemble', 'Switch'] as const;
export const ROOT_NODE = 'root';

const step = z.object({
  name: z.string().optional().describe('Unique name of the step within its node.'),
  nodeName: z.string().optional().describe('The node to route to as the next step.'),
  serviceName: z.string().optional().describe("An InferenceService of the graph's namespace; its URL is resolved from its status."),
  serviceUrl: z.string().optional().describe('A URL to call instead of an InferenceService.'),
  data: z.string().optional().describe('$request or $response: what the step receives.'),
  mapPredictionsToInstances: z.boolean().optional().describe("Maps the previous step's predictions to this step's instances."),
  weight: z.number().int().optional().describe('Splitter only: the share of traffic; the weights of a node sum to 100.'),
  condition: z.string().optional().describe('Switch: a GJSON condition on the request.'),
  dependency: z.enum(['Soft', 'Hard']).optional().describe('Whether a failing step fails the request.'),
});

const router = z.object({
  routerType: z.enum(ROUTER_TYPES).describe('Sequence, Splitter, Ensemble or Switch.'),
  steps: z.array(step).optional(),
});

export const inferencegraphSpec = z
  .object({
    nodes: z.record(z.string(), router).describe('The graph: node name → router; the node `root` receives every request.'),
    resources: z
      .object({
        limits: z.record(z.string(), quantity).optional(),
        requests: z.record(z.string(), quantity).optional(),
        claims: z.array(z.object({ name: z.string(), request: z.string().optional() })).optional(),
      })
      .optional()
      .describe("The router's resources; KServe's router defaults when absent."),
    affinity: z.record(z.string(), z.unknown()).optional().describe("The router pod's affinity."),
    timeout: int('Seconds to wait for a request to a component.'),
    routerTimeouts: z.object({ serverRead: int('Seconds'), serverWrite: int('Seconds'), serverIdle: int('Seconds'), serviceClient: int('Seconds') }).optional(),
    minReplicas: int('Minimum replicas of the router (at least 1 here: raw deployments do not scale to zero).'),
    maxReplicas: int('Maximum replicas of the router.'),
    scaleTarget: int('Target value of the scale metric (cpu: percent utilisation, default 80).'),
    scaleMetric: z.enum(['cpu', 'memory', 'concurrency', 'rps']).optional(),
    tolerations: z.array(z.record(z.string(), z.unknown())).optional(),
    nodeSelector: z.record(z.string(), z.string()).optional(),
    nodeName: z.string().optional(),
    serviceAccountName: z.string().optional(),
  })
  // KServe's validating webhook (inference_graph_validation.go), which a cluster without KServe does not run.
  .superRefine((spec, ctx) => {
    if (!Object.hasOwn(spec.nodes, ROOT_NODE)) {
      ctx.addIssue({ code: 'custom', path: ['nodes'], message: "needs a node named 'root', the root node of the graph" });
    }
    for (const [nodeName, node] of Object.entries(spec.nodes)) {
      const steps = node.steps ?? [];
      const seen = new Set<string>();
      steps.forEach((s, i) => {
        const at = ['nodes', nodeName, 'steps', i];
        const targets = [s.nodeName, s.serviceName, s.serviceUrl].filter((t) => t !== undefined && t !== '').length;
        if (targets === 0) ctx.addIssue({ code: 'custom', path: at, message: 'names no target: one of nodeName, serviceName, serviceUrl' });
        if (targets > 1) ctx.addIssue({ code: 'custom', path: at, message: 'names more than one of nodeName, serviceName, serviceUrl' });
        if (s.name) {
          if (seen.has(s.name)) ctx.addIssue({ code: 'custom', path: [...at, 'name'], message: `another step of node ${nodeName} is named ${s.name}` });
          seen.add(s.name);
        }
        if (node.routerType === 'Splitter' && s.weight === undefined)
          ctx.addIssue({ code: 'custom', path: [...at, 'weight'], message: 'required in a Splitter node' });
      });
      const total = steps.reduce((sum, s) => sum + (s.weight ?? 0), 0);
      if (node.routerType === 'Splitter' && steps.every((s) => s.weight !== undefined) && total !== 100) {
        ctx.addIssue({ code: 'custom', path: ['nodes', nodeName, 'steps'], message: `the weights of a Splitter node sum to 100 (these sum to ${total})` });
      }
    }
  });

export type InferenceGraphSpec = z.infer<typeof inferencegraphSpec>;
export type InferenceStep = NonNullable<InferenceGraphSpec['nodes'][string]['steps']>[number];

/** Every InferenceService the graph's steps name, once each, in order of appearance. */
export function serviceNamesOf(spec: InferenceGraphSpec): string[] {
  const names = Object.values(spec.nodes).flatMap((n) => (n.steps ?? []).map((s) => s.serviceName ?? ''));
  return [...new Set(names.filter((n) => n !== ''))];
}

/**
 * The router pod's fields the spec gives (tolerations, nodeSelector, nodeName,
 * serviceAccountName, resources, affinity) as the API server validates them in its Deployment
 * (kit/pod-validation.ts: ValidateTolerations, ValidateLabels, validateResourceRequirements…).
 */
export function podFieldProblems(spec: InferenceGraphSpec): SpecProblem[] {
  const { tolerations, nodeSelector, nodeName, serviceAccountName, resources, affinity } = spec;
  return podSpecProblems({ tolerations, nodeSelector, nodeName, serviceAccountName, resources, affinity }, 'spec');
}
