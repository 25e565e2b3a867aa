import { describe, expect, it } from 'vitest';
import { crdFor } from 'modelhooks/server';
import { converge, ready, runSync } from 'modelhooks/testing';
import { greeter } from './greeter.js';

const parent = { apiVersion: 'example.dev/v1', kind: 'Greeter', metadata: { name: 'hello', namespace: 'demo', generation: 1 }, spec: { name: 'world' } };

interface Deployment {
  spec: { replicas: number; template: { spec: { containers: Array<{ args: string[] }> } } };
}

describe('Greeter composition', () => {
  it('makes a Deployment that answers the greeting, behind a Service', () => {
    const out = runSync(greeter, { parent });
    expect(out.children.map((c) => `${c.kind}/${c.metadata.name}`)).toEqual(['Deployment/hello', 'Service/hello']);
    const deployment = out.child<Deployment>('Deployment', 'hello');
    expect(deployment?.spec.replicas).toBe(1);
    expect(deployment?.spec.template.spec.containers[0]?.args).toContain('-text=Hello, world!');
    expect(out.condition('Ready')?.status).toBe('Unknown');
  });

  it('is Ready once the observed Deployment is available, and then settles', () => {
    const first = runSync(greeter, { parent });
    expect(runSync(greeter, { parent, observed: first.children.map((c) => ready(c)) }).condition('Ready')?.status).toBe('True');
    const { result, rounds } = converge(greeter, { parent });
    expect(rounds).toBe(3);
    expect(result.condition('DeploymentReady')?.reason).toBe('MinimumReplicasAvailable');
  });

  it('reports a spec without a name as InvalidSpec, naming the field', () => {
    const out = runSync(greeter, { parent: { ...parent, spec: {} } });
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(out.condition('Ready')?.message).toContain('spec.name');
  });

  it("writes the spec's schema, defaults included, into the CRD", () => {
    const crd = crdFor(greeter) as { spec: { versions: Array<{ schema: { openAPIV3Schema: { properties: { spec: unknown } } } }> } };
    expect(crd.spec.versions[0]?.schema.openAPIV3Schema.properties.spec).toMatchObject({
      required: ['name'],
      properties: { greeting: { type: 'string', default: 'Hello' }, replicas: { type: 'integer', default: 1 } },
    });
  });
});
