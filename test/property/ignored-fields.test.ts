import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import { isRecord, type KubeObject } from '../../hooks/kit/index.js';
import { runSync } from '../../hooks/testing/index.js';
import openapi from '../vendor/kubernetes/api__v1_openapi.json' with { type: 'json' };

/*
 * Nothing is dropped silently: every field written in a component either reaches the
 * predictor's Deployment, is named in IgnoredFields, or is refused by pod security
 * (InvalidSpec naming it). The PodSpec fields come from Kubernetes 1.35's OpenAPI.
 */

type Schema = { type?: string; items?: unknown; $ref?: string; allOf?: unknown[] };
const podSpec = (openapi as unknown as { components: { schemas: Record<string, { properties: Record<string, Schema> }> } }).components.schemas[
  'io.k8s.api.core.v1.PodSpec'
]!.properties;
// The container list is the model's own; everything else a user may write.
const POD_FIELDS = Object.keys(podSpec).filter((f) => f !== 'containers');
/** KServe fields (component.go, predictor.go @v0.20.0) nothing here acts on, and names nobody defined (autoScaling is the HPA's: hpa.ts). */
const OTHER_FIELDS = [
  'workerSpec',
  'storageUris',
  'storageContainerName',
  'containerConcurrency',
  'scaleMetricType',
  'metrics',
  'behavior',
  'name',
  'tolerationz',
];

/** A value of the field's OpenAPI type (the hook treats them as opaque). */
function valueFor(schema: Schema | undefined): fc.Arbitrary<unknown> {
  if (schema?.type === 'boolean') return fc.boolean();
  if (schema?.type === 'integer') return fc.integer({ min: 0, max: 100 });
  if (schema?.type === 'string') return fc.constantFrom('Always', 'ClusterFirst', 'x');
  if (schema?.type === 'array') return fc.constant([]);
  return fc.constant({});
}

const fieldArb = fc.constantFrom(...POD_FIELDS, ...OTHER_FIELDS).chain((f) => valueFor(podSpec[f]).map((v) => [f, v] as const));
const config = defaultHookConfig();

function deploymentOf(children: KubeObject[]): Record<string, unknown> | undefined {
  const d = children.find((c) => c.kind === 'Deployment' && c.metadata.name === 'p-predictor');
  const spec = d && isRecord(d.spec) && isRecord(d.spec.template) && isRecord(d.spec.template.spec) ? d.spec.template.spec : undefined;
  return spec;
}

describe('IgnoredFields: every component field is acted on, named, or refused', () => {
  it('holds for random PodSpec and KServe fields on the predictor', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fieldArb, { selector: ([f]) => f, minLength: 1, maxLength: 6 }), (fields) => {
        const extra = Object.fromEntries(fields);
        const parent = {
          apiVersion: 'serving.kserve.io/v1beta1',
          kind: 'InferenceService',
          metadata: { name: 'p', namespace: 'ml', generation: 1 },
          spec: { predictor: { ...extra, sklearn: { storageUri: 'gs://b/m' } } },
        };
        // The named ServiceAccount exists (a missing one keeps what runs and creates nothing: credentials-status.ts).
        const sa =
          typeof extra.serviceAccountName === 'string'
            ? [{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: extra.serviceAccountName, namespace: 'ml' } } as KubeObject]
            : [];
        const out = runSync(inferenceservice, { parent, config, related: sa });
        const ready = out.condition('Ready');
        const ignored = out.condition('IgnoredFields');
        const pod = deploymentOf(out.children as KubeObject[]);
        for (const [field, value] of fields) {
          const path = `spec.predictor.${field}`;
          const refused = ready?.reason === 'InvalidSpec' && ready.message.includes(path);
          const named = ignored?.status === 'True' && ignored.message.includes(path);
          const passed =
            pod !== undefined &&
            (field === 'initContainers' || field === 'volumes' || field === 'securityContext'
              ? pod[field] !== undefined || (Array.isArray(value) && value.length === 0)
              : JSON.stringify(pod[field]) === JSON.stringify(value));
          if (ready?.reason === 'InvalidSpec') {
            // A refused spec builds nothing: the refusal names at least one field.
            expect(fields.some(([f]) => ready.message.includes(`spec.predictor.${f}`))).toBe(true);
            continue;
          }
          expect({ field, value, outcome: refused || named || passed }).toEqual({ field, value, outcome: true });
          // Never both: a field passed through is not called ignored.
          if (passed) expect({ field, named }).toEqual({ field, named: false });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('names nothing for a spec of acted-on fields only', () => {
    const parent = {
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      metadata: { name: 'p', namespace: 'ml', generation: 1 },
      spec: { predictor: { minReplicas: 1, priorityClassName: 'high', sklearn: { storageUri: 'gs://b/m' } } },
    };
    expect(runSync(inferenceservice, { parent, config }).condition('IgnoredFields')).toBeUndefined();
  });

  it('names a top-level field and a worker spec, as IgnoredFields=True/FieldsIgnored', () => {
    const parent = {
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      metadata: { name: 'p', namespace: 'ml', generation: 1 },
      spec: { canaryz: [], predictor: { workerSpec: { tensorParallelSize: 2 }, restartPolicy: 'Never', sklearn: { storageUri: 'gs://b/m' } } },
    };
    const c = runSync(inferenceservice, { parent, config }).condition('IgnoredFields');
    expect(c?.status).toBe('True');
    expect(c?.reason).toBe('FieldsIgnored');
    for (const p of ['spec.canaryz', 'spec.predictor.workerSpec', 'spec.predictor.restartPolicy']) expect(c?.message).toContain(p);
  });
});
