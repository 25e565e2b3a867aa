import { describe, expect, it } from 'vitest';
import { referenceSamples } from './reference.js';
import { expectValid, validateAgainstCrd, validateObject } from './validate.js';

const route = (spec: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'r' }) => ({
  apiVersion: 'route.openshift.io/v1',
  kind: 'Route',
  metadata,
  spec,
});
const serviceMonitor = (endpoint: Record<string, unknown>) => ({
  apiVersion: 'monitoring.coreos.com/v1',
  kind: 'ServiceMonitor',
  metadata: { name: 'm' },
  spec: { selector: { matchLabels: { app: 'foo' } }, endpoints: [{ port: 'metrics', interval: '30s', ...endpoint }] },
});
const httpRoute = (apiVersion: string, rule: Record<string, unknown>) => ({
  apiVersion,
  kind: 'HTTPRoute',
  metadata: { name: 'h' },
  spec: {
    parentRefs: [{ name: 'gateway' }],
    hostnames: ['model.example.com'],
    rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }], backendRefs: [{ name: 'foo', port: 8080 }], ...rule }],
  },
});

describe('custom resources from the reference CRDs', () => {
  it('accepts valid Routes, ServiceMonitors and HTTPRoutes', () => {
    expectValid(route({ to: { kind: 'Service', name: 'foo', weight: 100 }, port: { targetPort: 'http' }, tls: { termination: 'edge' } }));
    expectValid(route({ to: { kind: 'Service', name: 'foo' }, port: { targetPort: 8080 } }));
    expectValid(serviceMonitor({ path: '/metrics' }));
    expectValid(httpRoute('gateway.networking.k8s.io/v1', {}));
    expectValid(httpRoute('gateway.networking.k8s.io/v1beta1', {}));
  });

  it('rejects unknown fields in them, metadata included', () => {
    expect(validateObject(route({ to: { kind: 'Service', name: 'foo', namespace: 'x' } }))).toEqual([
      'Route/r: /spec/to/namespace: must NOT have additional properties',
    ]);
    expect(validateObject(route({ to: { kind: 'Service', name: 'foo' } }, { name: 'r', labelz: {} }))).toEqual([
      'Route/r: /metadata/labelz: must NOT have additional properties',
    ]);
    expect(validateObject(serviceMonitor({ scrapeInterval: '30s' }))).toEqual([
      'ServiceMonitor/m: /spec/endpoints/0/scrapeInterval: must NOT have additional properties',
    ]);
    expect(validateObject(httpRoute('gateway.networking.k8s.io/v1', { timeout: {} }))).toEqual([
      'HTTPRoute/h: /spec/rules/0/timeout: must NOT have additional properties',
    ]);
  });

  it('applies the CRD value validations (Route TLS with passthrough and a path)', () => {
    const errors = validateObject(route({ to: { kind: 'Service', name: 'foo' }, path: '/x', tls: { termination: 'passthrough' } }));
    expect(errors).toContain('Route/r: /spec: must match a schema in anyOf');
  });

  it('accepts anything under x-kubernetes-preserve-unknown-fields', () => {
    expectValid({
      apiVersion: 'metacontroller.k8s.io/v1alpha1',
      kind: 'ControllerRevision',
      metadata: { name: 'rev' },
      parentPatch: { spec: { anything: [1, { goes: true }] } },
      children: [{ apiGroup: 'apps', kind: 'Deployment', names: ['foo'] }],
    });
  });

  it('accepts a CompositeController', () => {
    expectValid({
      apiVersion: 'metacontroller.k8s.io/v1alpha1',
      kind: 'CompositeController',
      metadata: { name: 'trustyai' },
      spec: {
        generateSelector: true,
        parentResource: { apiVersion: 'modelhooks.dev/v1', resource: 'trustyaiservices' },
        childResources: [{ apiVersion: 'apps/v1', resource: 'deployments', updateStrategy: { method: 'InPlace' } }],
        hooks: { sync: { webhook: { url: 'http://modelhooks.modelhooks/hooks/trustyai/sync' } } },
      },
    });
  });

  it.each(referenceSamples().map((s) => ({ ...s, kind: String(s.object.kind) })))(
    'accepts the sample $file ($kind)',
    ({ object }) => {
      expectValid(object);
    },
    20_000,
  );
});

// Shaped like our generated CRDs: zod's openapi-3.0 output made structural.
const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.test.modelhooks.dev' },
  spec: {
    group: 'test.modelhooks.dev',
    names: { kind: 'Widget', plural: 'widgets' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              apiVersion: { type: 'string' },
              kind: { type: 'string' },
              metadata: { type: 'object' },
              spec: {
                type: 'object',
                required: ['replicas'],
                properties: {
                  replicas: { type: 'integer', minimum: 0, exclusiveMinimum: true },
                  note: { type: 'string', nullable: true },
                  owner: { type: 'object', nullable: true, properties: { name: { type: 'string' } } },
                  port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
                  config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  pruned: { type: 'object' },
                },
              },
            },
          },
        },
      },
    ],
  },
};

describe('CRDs passed in', () => {
  const widget = (spec: Record<string, unknown>) => ({
    apiVersion: 'test.modelhooks.dev/v1',
    kind: 'Widget',
    metadata: { name: 'w' },
    spec,
  });

  it('validates against extraCrds and validateAgainstCrd alike', () => {
    const ok = widget({ replicas: 1, note: null, port: 'http', config: { free: { form: 1 } }, pruned: {} });
    expect(validateObject(ok, [widgetCrd])).toEqual([]);
    expect(validateAgainstCrd(widgetCrd, ok)).toEqual([]);
    expect(validateObject(ok)[0]).toMatch(/unknown apiVersion\/kind/);
  });

  it('reads OpenAPI 3.0 exclusiveMinimum, nullable and int-or-string', () => {
    expect(validateAgainstCrd(widgetCrd, widget({ replicas: 0 }))).toEqual(['Widget/w: /spec/replicas: must be > 0']);
    expect(validateAgainstCrd(widgetCrd, widget({ replicas: 1, owner: null }))).toEqual([]);
    expect(validateAgainstCrd(widgetCrd, widget({ replicas: 1, owner: { namez: 'x' } }))).toEqual([
      'Widget/w: /spec/owner/namez: must NOT have additional properties',
    ]);
    expect(validateAgainstCrd(widgetCrd, widget({ replicas: 1, port: 1.5 }))).toEqual(['Widget/w: /spec/port: must be integer,string, got 1.5']);
  });

  it('rejects fields the API server would prune, also under an object without properties', () => {
    expect(validateAgainstCrd(widgetCrd, widget({ replicas: 1, extra: true, pruned: { lost: 1 } }))).toEqual([
      'Widget/w: /spec/extra: must NOT have additional properties',
      'Widget/w: /spec/pruned/lost: must NOT have additional properties',
    ]);
  });

  it('names a resource that is not in the CRD', () => {
    expect(validateAgainstCrd(widgetCrd, { apiVersion: 'test.modelhooks.dev/v2', kind: 'Widget', metadata: { name: 'w' } })).toEqual([
      'Widget/w: test.modelhooks.dev/v2 Widget is not in this CRD (test.modelhooks.dev/v1 Widget)',
    ]);
  });
});
