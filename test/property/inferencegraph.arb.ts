import fc from 'fast-check';
import { requestsWithinLimits } from '../support/within-limits.js';

const dns = fc.stringMatching(/^[a-z]([a-z0-9-]{0,20}[a-z0-9])?$/);
const url = fc.constantFrom('http://a.example.com/v1/models/a:predict', 'http://b.team.svc.cluster.local', 'https://c.example.com/switch');
const routerType = fc.constantFrom('Sequence', 'Splitter', 'Ensemble', 'Switch');
const quantity = fc.constantFrom('100m', '2', '1Gi', '512Mi', 1);

/** One target per step: an InferenceService, a URL, or another node of the graph. */
const target = (nodes: string[]) =>
  fc.oneof(
    dns.map((serviceName) => ({ serviceName })),
    url.map((serviceUrl) => ({ serviceUrl })),
    ...(nodes.length > 0 ? [fc.constantFrom(...nodes).map((nodeName) => ({ nodeName }))] : []),
  );

const step = (nodes: string[]) =>
  fc.record(
    {
      target: target(nodes),
      data: fc.constantFrom('$request', '$response'),
      condition: fc.constantFrom('instances.#(intval>10)', '[@this].#(source==client)'),
      dependency: fc.constantFrom('Soft', 'Hard'),
      mapPredictionsToInstances: fc.boolean(),
    },
    { requiredKeys: ['target'] },
  );

/** A node: its steps (unique names when named; Splitter weights summing to 100, as KServe's webhook requires). */
const node = (others: string[]) =>
  fc.record({ routerType, steps: fc.array(step(others), { minLength: 1, maxLength: 4 }), named: fc.boolean() }).map(({ routerType, steps, named }) => ({
    routerType,
    steps: steps.map(({ target, ...rest }, i) => ({
      ...target,
      ...rest,
      ...(named ? { name: `step-${i}` } : {}),
      ...(routerType === 'Splitter'
        ? { weight: i === steps.length - 1 ? 100 - Math.floor(100 / steps.length) * (steps.length - 1) : Math.floor(100 / steps.length) }
        : {}),
    })),
  }));

/** Valid InferenceGraph specs: a root node and up to two more, and any of the other fields. */
export const inferencegraphSpec: fc.Arbitrary<Record<string, unknown>> = fc
  .uniqueArray(
    dns.filter((n) => n !== 'root'),
    { maxLength: 2 },
  )
  .chain((extra) =>
    fc.record(
      {
        nodes: fc
          .tuple(node(extra), ...extra.map(() => node(['root', ...extra])))
          .map(([root, ...rest]) => Object.fromEntries([['root', root], ...rest.map((n, i) => [extra[i] as string, n])])),
        resources: fc
          .record(
            { requests: fc.dictionary(fc.constantFrom('cpu', 'memory'), quantity), limits: fc.dictionary(fc.constantFrom('cpu', 'memory'), quantity) },
            { requiredKeys: [] },
          )
          .filter(requestsWithinLimits),
        timeout: fc.integer({ min: 1, max: 600 }),
        minReplicas: fc.integer({ min: 0, max: 5 }),
        maxReplicas: fc.integer({ min: 0, max: 10 }),
        scaleMetric: fc.constantFrom('cpu', 'memory', 'concurrency', 'rps'),
        scaleTarget: fc.integer({ min: 1, max: 100 }),
        nodeSelector: fc.dictionary(fc.constantFrom('pool', 'zone'), dns),
        serviceAccountName: dns,
      },
      { requiredKeys: ['nodes'] },
    ),
  );
