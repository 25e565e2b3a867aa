import { describe, expect, it } from 'vitest';
import { createApp, loadConfig } from 'modelhooks/server';
import { converge, ready, runSync, syncRequest } from 'modelhooks/testing';
import { echo } from './echo.js';

const parent = { apiVersion: 'example.dev/v1', kind: 'Echo', metadata: { name: 'hello', namespace: 'demo', generation: 1 }, spec: { message: 'hi' } };

interface Deployment {
  spec: { replicas: number; template: { metadata: { annotations: Record<string, string> }; spec: { containers: Array<{ env: unknown[] }> } } };
}

describe('Echo composition', () => {
  it('puts the message in a ConfigMap that the Deployment reads, behind a Service', () => {
    const out = runSync(echo, { parent });
    expect(out.children.map((c) => `${c.kind}/${c.metadata.name}`)).toEqual(['ConfigMap/hello', 'Deployment/hello', 'Service/hello']);
    expect(out.child('ConfigMap', 'hello')?.data).toEqual({ message: 'hi' });
    const deployment = out.child<Deployment>('Deployment', 'hello');
    expect(deployment?.spec.replicas).toBe(1);
    expect(deployment?.spec.template.spec.containers[0]?.env).toEqual([
      { name: 'ECHO_TEXT', valueFrom: { configMapKeyRef: { name: 'hello', key: 'message' } } },
    ]);
    expect(out.condition('Ready')?.status).toBe('Unknown');
  });

  it('rolls the pods when the message changes', () => {
    const hashOf = (message: string) =>
      runSync(echo, { parent: { ...parent, spec: { message } } }).child<Deployment>('Deployment', 'hello')?.spec.template.metadata.annotations[
        'example.dev/message-hash'
      ];
    expect(hashOf('hi')).toBe(hashOf('hi'));
    expect(hashOf('hi')).not.toBe(hashOf('hello'));
  });

  it('is Ready once the observed Deployment is available', () => {
    const first = runSync(echo, { parent });
    const out = runSync(echo, { parent, observed: first.children.map((c) => ready(c)) });
    expect(out.condition('Ready')?.status).toBe('True');
    expect(out.condition('DeploymentReady')?.reason).toBe('MinimumReplicasAvailable');
  });

  it('settles: created, seen ready, then nothing changes', () => {
    const { result, rounds } = converge(echo, { parent });
    expect(rounds).toBe(3);
    expect(result.condition('Ready')?.status).toBe('True');
  });

  it('reports an empty message as InvalidSpec and keeps what exists', () => {
    const first = runSync(echo, { parent });
    const out = runSync(echo, { parent: { ...parent, spec: { message: '' } }, observed: first.children });
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(out.children).toHaveLength(3);
  });

  it('answers Metacontroller over HTTP with modelhooks/server', async () => {
    const server = createApp({ compositions: [echo], config: loadConfig({ MODELHOOKS_LOG_LEVEL: 'silent' }) }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    try {
      const res = await fetch(`http://127.0.0.1:${port}/hooks/echo/sync`, {
        method: 'POST',
        // As Metacontroller sends it: another content type gets 415.
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(syncRequest(echo, { parent })),
      });
      const answer = (await res.json()) as { children: Array<{ kind: string }> };
      expect(answer.children.map((c) => c.kind)).toEqual(['ConfigMap', 'Deployment', 'Service']);
    } finally {
      server.close();
    }
  });
});
