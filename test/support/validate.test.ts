import { describe, expect, it } from 'vitest';
import { expectValid, validateObject } from './validate.js';

function deployment(container: Record<string, unknown> = {}): Record<string, any> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'foo', namespace: 'ns', labels: { 'app.kubernetes.io/name': 'foo' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { 'app.kubernetes.io/name': 'foo' } },
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': 'foo' } },
        spec: {
          containers: [
            {
              name: 'server',
              image: 'example/server:1',
              ports: [{ name: 'http', containerPort: 8080 }],
              resources: { requests: { cpu: '100m', memory: '1Gi' }, limits: { cpu: 1 } },
              ...container,
            },
          ],
        },
      },
    },
  };
}

function service(spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name: 'foo' }, spec };
}

// Mutates a fresh deployment, so each case states only what it breaks.
function brokenDeployment(breakIt: (d: Record<string, any>) => void): Record<string, any> {
  const d = deployment();
  breakIt(d);
  return d;
}

describe('built-in kinds', () => {
  it('accepts a valid Deployment', () => {
    expect(validateObject(deployment())).toEqual([]);
    expectValid(deployment());
  });

  it.each([
    { reason: 'top level', breakIt: (d: any) => (d.spez = {}), error: '/spez' },
    { reason: 'spec', breakIt: (d: any) => (d.spec.replica = 1), error: '/spec/replica' },
    { reason: 'container', breakIt: (d: any) => (d.spec.template.spec.containers[0].imagez = 'x'), error: '/spec/template/spec/containers/0/imagez' },
    { reason: 'metadata', breakIt: (d: any) => (d.metadata.labelz = {}), error: '/metadata/labelz' },
    { reason: 'pod template metadata', breakIt: (d: any) => (d.spec.template.metadata.annotation = {}), error: '/spec/template/metadata/annotation' },
  ])('rejects an unknown field in $reason', ({ breakIt, error }) => {
    expect(validateObject(brokenDeployment(breakIt))).toEqual([`Deployment/foo: ${error}: must NOT have additional properties`]);
  });

  it('rejects wrong types', () => {
    expect(validateObject(brokenDeployment((d) => (d.spec.replicas = '3')))).toEqual(['Deployment/foo: /spec/replicas: must be integer, got "3"']);
    expect(validateObject(service({ selector: ['app'] }))).toEqual(['Service/foo: /spec/selector: must be object, got ["app"]']);
    expect(validateObject(service({ selector: { app: 1 } }))).toEqual(['Service/foo: /spec/selector/app: must be string, got 1']);
  });

  it('rejects missing required fields', () => {
    expect(validateObject(brokenDeployment((d) => delete d.spec.template.spec.containers[0].name))).toEqual([
      "Deployment/foo: /spec/template/spec/containers/0: must have required property 'name'",
    ]);
    expect(validateObject(brokenDeployment((d) => delete d.spec.selector))).toEqual(["Deployment/foo: /spec: must have required property 'selector'"]);
    expect(validateObject({ kind: 'ConfigMap', metadata: { name: 'x' } })).toEqual(['ConfigMap/x: /: must have string apiVersion and kind']);
  });

  it('accepts int-or-string ports and numeric or string quantities', () => {
    expectValid(service({ ports: [{ port: 80, targetPort: 8080 }] }));
    expectValid(service({ ports: [{ port: 80, targetPort: 'http' }] }));
    expectValid(deployment({ resources: { requests: { cpu: 0.5, memory: 1073741824 }, limits: { cpu: '2' } } }));
    expect(validateObject(service({ ports: [{ port: 80, targetPort: 1.5 }] }))).toEqual([
      'Service/foo: /spec/ports/0/targetPort: must be integer,string, got 1.5',
    ]);
    expect(validateObject(deployment({ resources: { limits: { cpu: true } } }))).toEqual([
      'Deployment/foo: /spec/template/spec/containers/0/resources/limits/cpu: must be string,number, got true',
    ]);
  });

  it('checks the formats the API server checks', () => {
    const secret = (data: unknown) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data });
    expectValid(secret({ token: 'c2VjcmV0' }));
    expect(validateObject(secret({ token: 'not base64!' }))).toEqual(['Secret/s: /data/token: must match format "byte"']);
    expect(validateObject(service({ ports: [{ port: 2 ** 31 }] }))).toEqual(['Service/foo: /spec/ports/0/port: must match format "int32"']);
    expectValid({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', creationTimestamp: null }, data: { a: 'b' } });
  });

  it('treats free-form built-in parts (RawExtension, FieldsV1) as free-form', () => {
    const managed = [{ manager: 'kubectl', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } }];
    expectValid({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', managedFields: managed } });
  });

  it('rejects unknown kinds and apiVersions', () => {
    expect(validateObject({ apiVersion: 'apps/v1', kind: 'Deploymentz', metadata: { name: 'x' } })).toEqual([
      'Deploymentz/x: unknown kind Deploymentz in apps/v1',
    ]);
    expect(validateObject({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'x' } })).toEqual([
      'Widget/x: unknown apiVersion/kind example.com/v1 Widget (no OpenAPI schema or CRD for it)',
    ]);
    expect(validateObject({ apiVersion: 'route.openshift.io/v2', kind: 'Route', metadata: { name: 'x' } })).toEqual([
      'Route/x: unknown apiVersion route.openshift.io/v2 for kind Route (known: route.openshift.io/v1)',
    ]);
  });
});
