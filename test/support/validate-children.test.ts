// The validator users get from `modelhooks/testing` (imported the way they import it).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectValidChildren, runSync, validateChildren } from 'modelhooks/testing';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { AJV_MISSING, loadAjv } from '../../hooks/testing/schema/ajv.js';
import { trustyai } from '../../hooks/trustyai/index.js';
import { echo } from '../../examples/custom/echo.js';
import { loadReferenceCrd, repoRoot } from './reference.js';

const meta = { name: 'x', namespace: 'ns' };
const podSpec = { containers: [{ name: 'c', image: 'example/c:1' }] };
const template = { metadata: { labels: { app: 'x' } }, spec: podSpec };
const selector = { matchLabels: { app: 'x' } };

// One valid object of each built-in group a composition may emit, and one unknown field in it.
const builtins: { kind: string; obj: Record<string, any>; breakIt: (o: Record<string, any>) => void; path: string }[] = [
  {
    kind: 'v1 Service',
    obj: { apiVersion: 'v1', kind: 'Service', metadata: meta, spec: { ports: [{ port: 80 }] } },
    breakIt: (o) => (o.spec.ports[0].prot = 1),
    path: '/spec/ports/0/prot',
  },
  {
    kind: 'apps/v1 Deployment',
    obj: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta, spec: { selector, template } },
    breakIt: (o) => (o.spec.template.spec.containers[0].imagez = 'x'),
    path: '/spec/template/spec/containers/0/imagez',
  },
  {
    kind: 'batch/v1 Job',
    obj: { apiVersion: 'batch/v1', kind: 'Job', metadata: meta, spec: { template: { spec: { ...podSpec, restartPolicy: 'Never' } } } },
    breakIt: (o) => (o.spec.backofflimit = 1),
    path: '/spec/backofflimit',
  },
  {
    kind: 'autoscaling/v2 HorizontalPodAutoscaler',
    obj: {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: meta,
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'x' }, maxReplicas: 3 },
    },
    breakIt: (o) => (o.spec.targetCPU = 80),
    path: '/spec/targetCPU',
  },
  {
    kind: 'networking.k8s.io/v1 Ingress',
    obj: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: meta, spec: { defaultBackend: { service: { name: 'x', port: { number: 80 } } } } },
    breakIt: (o) => (o.spec.defaultBackend.service.port.num = 80),
    path: '/spec/defaultBackend/service/port/num',
  },
  {
    kind: 'policy/v1 PodDisruptionBudget',
    obj: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: meta, spec: { selector, minAvailable: 1 } },
    breakIt: (o) => (o.spec.minavailable = 1),
    path: '/spec/minavailable',
  },
];

describe('validateChildren (modelhooks/testing)', () => {
  it('accepts the children a real composition renders', () => {
    const parent = {
      apiVersion: 'trustyai.opendatahub.io/v1',
      kind: 'TrustyAIService',
      metadata: { name: 'a', namespace: 'ns' },
      spec: { storage: { format: 'PVC', folder: '/data', size: '1Gi' }, metrics: { schedule: '5s' } },
    };
    const out = runSync(trustyai, { parent, config: defaultHookConfig() });
    expect(out.children.length).toBeGreaterThan(2);
    const crds = [loadReferenceCrd('route.openshift.io_routes.yaml'), loadReferenceCrd('monitoring.coreos.com_servicemonitors.yaml')];
    expect(validateChildren(out, { crds })).toEqual([]);
    expectValidChildren(out.children, { crds });
  });

  it("passes the example of docs/writing-compositions.md: the Echo composition's children", () => {
    const parent = { apiVersion: 'example.dev/v1', kind: 'Echo', metadata: { name: 'hello', namespace: 'demo' }, spec: { message: 'hi' } };
    expectValidChildren(runSync(echo, { parent }));
    expect(validateChildren(runSync(echo, { parent }))).toEqual([]);
  });

  it.each(builtins)('checks $kind strictly', ({ obj, breakIt, path: at }) => {
    expect(validateChildren([obj])).toEqual([]);
    const broken = structuredClone(obj);
    breakIt(broken);
    expect(validateChildren([broken])).toEqual([`${broken.kind}/x: ${at}: must NOT have additional properties`]);
  });

  it('checks types and required fields too, and lists the errors of every child', () => {
    const deployment = { ...builtins[1]!.obj, spec: { selector, replicas: '2', template: { ...template, spec: { containers: [{ image: 'i' }] } } } };
    const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, targetPort: 1.5 }] } };
    expect(validateChildren([deployment, service])).toEqual([
      'Deployment/x: /spec/replicas: must be integer, got "2"',
      "Deployment/x: /spec/template/spec/containers/0: must have required property 'name'",
      'Service/s: /spec/ports/0/targetPort: must be integer,string, got 1.5',
    ]);
  });

  it('needs the CRD of a custom-resource child, and then checks it strictly', () => {
    const route = { apiVersion: 'route.openshift.io/v1', kind: 'Route', metadata: { name: 'r' }, spec: { to: { kind: 'Service', name: 'x' } } };
    expect(validateChildren([route])).toEqual(['Route/r: unknown apiVersion/kind route.openshift.io/v1 Route (no OpenAPI schema or CRD for it)']);
    const crds = [loadReferenceCrd('route.openshift.io_routes.yaml')];
    expect(validateChildren([route], { crds })).toEqual([]);
    expect(validateChildren([{ ...route, spec: { to: { kind: 'Service', name: 'x', namespace: 'y' } } }], { crds })).toEqual([
      'Route/r: /spec/to/namespace: must NOT have additional properties',
    ]);
  });

  it('expectValidChildren throws with every error listed', () => {
    const broken = structuredClone(builtins[0]!.obj);
    builtins[0]!.breakIt(broken);
    expect(() => expectValidChildren([broken, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, datum: {} }])).toThrow(
      '2 schema error(s) in the children:\n  Service/x: /spec/ports/0/prot: must NOT have additional properties\n  ConfigMap/c: /datum: must NOT have additional properties',
    );
  });

  it('says how to install ajv when it is missing', () => {
    const missing = () => {
      throw Object.assign(new Error("Cannot find module 'ajv'"), { code: 'MODULE_NOT_FOUND' });
    };
    expect(() => loadAjv(missing)).toThrow(AJV_MISSING);
    expect(AJV_MISSING).toContain('npm install --save-dev ajv@^8');
  });

  it('does not load ajv or the schemas when modelhooks/testing is only imported', () => {
    const script = [
      "import { createRequire } from 'node:module';",
      "await import('./hooks/testing/index.ts');",
      "const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes(`${'/'}node_modules/ajv/`));",
      'console.log(JSON.stringify(loaded));',
    ].join('\n');
    const tsx = path.join(repoRoot(), 'node_modules', '.bin', 'tsx');
    const run = spawnSync(tsx, ['--input-type=module', '-e', script], { cwd: repoRoot(), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([]);
  });
});
