import { describe, expect, it } from 'vitest';
import { runSync } from 'modelhooks/testing';
import { echo } from './echo.js';

const parent = { apiVersion: 'example.dev/v1', kind: 'Echo', metadata: { name: 'hello', namespace: 'demo' }, spec: { message: 'hi' } };

describe('Echo composition', () => {
  it('runs a Deployment and a Service with the message', () => {
    const out = runSync(echo, { parent });
    expect(out.child('Deployment', 'hello')?.spec).toMatchObject({ replicas: 1 });
    expect(JSON.stringify(out.child('Deployment', 'hello'))).toContain('-text=hi');
    expect(out.child('Service', 'hello')).toBeDefined();
    expect(out.condition('Ready')?.status).toBe('Unknown');
  });

  it('is Ready once the observed Deployment is available', () => {
    const first = runSync(echo, { parent });
    const deployment = { ...first.child('Deployment', 'hello')!, status: { replicas: 1, updatedReplicas: 1, availableReplicas: 1 } };
    expect(runSync(echo, { parent, observed: [deployment] }).condition('Ready')?.status).toBe('True');
  });

  it('reports an empty message as InvalidSpec and keeps what exists', () => {
    const first = runSync(echo, { parent });
    const out = runSync(echo, { parent: { ...parent, spec: { message: '' } }, observed: first.children });
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(out.children).toHaveLength(2);
  });
});
