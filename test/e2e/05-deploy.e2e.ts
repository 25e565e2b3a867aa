import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binDir, kube } from './support/context.js';
import { fromRoot, subdirs } from './support/files.js';
import { installCrds } from './support/install.js';
import type { KubeObject } from './support/kube.js';

// deploy/ as users install it: the components they enable with `kustomize edit add component`
// in deploy/ (each alone, the combination docs/install.md shows, and all of them, with either TLS
// component: one at most), and what else docs/install.md applies with -k.
const components = subdirs(fromRoot('deploy', 'components'));
const tlsComponents = components.filter((c) => c.startsWith('tls-'));
// The pod webhook goes after a TLS component (its first patch stops the build without one: test/deploy/deploy.test.ts).
const afterTls = ['pod-webhook'];
const variants = components.filter((c) => !tlsComponents.includes(c) && !afterTls.includes(c));
const combinations = [
  [],
  ...components.filter((c) => !afterTls.includes(c)).map((c) => [c]),
  ['openshift', 'prometheus'],
  ...tlsComponents.flatMap((tls) => [
    [tls, ...afterTls],
    [...variants, tls, ...afterTls],
  ]),
];
const others = ['crds', 'deploy/examples', 'test/deploy/fixtures/own-kustomization', 'test/deploy/fixtures/metacontroller'];

const kustomize = (cwd: string, ...args: string[]) => execFileSync(path.join(binDir(), 'kustomize'), args, { cwd, encoding: 'utf8', stdio: 'pipe' });

const objectsOf = (yaml: string) =>
  parseAllDocuments(yaml)
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null);

// Namespaces and CRDs first, as `kubectl apply` users would need them.
const rank = (o: KubeObject) => (o.kind === 'Namespace' ? 0 : o.kind === 'CustomResourceDefinition' ? 1 : 2);

describe('deploy/ (kustomize)', () => {
  const k = kube();
  const scratch = mkdtempSync(path.join(tmpdir(), 'modelhooks-e2e-deploy-'));
  // The reference CRDs (Metacontroller, ServiceMonitor, Route, HTTPRoute) are prerequisites of
  // the components, not part of them.
  beforeAll(() => installCrds(k));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  async function dryRunApply(name: string, build: () => string): Promise<KubeObject[]> {
    let objects: KubeObject[];
    try {
      objects = objectsOf(build()).sort((a, b) => rank(a) - rank(b));
    } catch (error) {
      throw new Error(`kustomize build ${name} failed: ${(error as { stderr?: string }).stderr ?? error}`);
    }
    expect(objects.length).toBeGreaterThan(0);
    // The namespaces the objects go to, for real (the namespaced dry-runs need them).
    const namespaces = new Set(objects.map((o) => o.metadata.namespace).filter((n): n is string => Boolean(n)));
    for (const ns of namespaces) await k.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    const applied: KubeObject[] = [];
    for (const obj of objects) {
      // The rest dry-run, as an apply so that objects installed by earlier files (CRDs,
      // controllers) are updates. What the server answers: the objects as it would store them.
      applied.push(await k.apply(obj, { dryRun: obj.kind !== 'Namespace' }));
    }
    console.log(`${name}: ${objects.length} objects (${[...new Set(objects.map((o) => o.kind))].join(', ')})`);
    return applied;
  }

  it.each(combinations.map((enabled, i) => [enabled.length === 0 ? 'deploy/' : `deploy/ + ${enabled.join(' + ')}`, enabled, i] as const))(
    '%s (kustomize edit add component, edit set image, build) is accepted by the API server',
    async (name, enabled, i) => {
      const copy = path.join(scratch, String(i));
      for (const dir of ['deploy', 'crds', 'compositions']) cpSync(fromRoot(dir), path.join(copy, dir), { recursive: true });
      const deploy = path.join(copy, 'deploy');
      if (enabled.length > 0) kustomize(deploy, 'edit', 'add', 'component', ...enabled.map((c) => `components/${c}`));
      kustomize(deploy, 'edit', 'set', 'image', 'ghcr.io/modelhooks/modelhooks=registry.example.com/modelhooks:1.2.3');
      const objects = await dryRunApply(name, () => kustomize(deploy, 'build', '.'));
      const deployment = objects.find((o) => o.kind === 'Deployment') as { spec: { template: { spec: { containers: { image: string }[] } } } } | undefined;
      expect(deployment?.spec.template.spec.containers[0]?.image).toBe('registry.example.com/modelhooks:1.2.3');
      const kinds = new Set(
        objects
          .filter((o) => o.kind === 'CompositeController')
          .flatMap((o) => ((o.spec as { childResources: { resource: string }[] }).childResources ?? []).map((r) => r.resource)),
      );
      expect(kinds.has('routes')).toBe(enabled.includes('openshift'));
      expect(kinds.has('servicemonitors')).toBe(enabled.includes('prometheus'));
      expect(kinds.has('httproutes')).toBe(enabled.includes('gateway-api'));
      // With a TLS component, the API server (Metacontroller's CRD, strict field validation) keeps
      // the https URLs and the endpointConfigs entry Metacontroller needs to call them.
      const tls = enabled.find((c) => tlsComponents.includes(c));
      for (const cc of objects.filter((o) => o.kind === 'CompositeController' || o.kind === 'DecoratorController')) {
        const spec = cc.spec as { hooks: Record<string, { webhook: { url: string } }>; endpointConfigs?: Record<string, unknown>[] };
        for (const hook of Object.values(spec.hooks)) expect(hook.webhook.url.startsWith('https://')).toBe(Boolean(tls));
        const entry = spec.endpointConfigs?.[0];
        if (!tls) expect(entry).toBeUndefined();
        else
          expect(Object.keys(entry ?? {}).sort()).toEqual(
            tls === 'tls-cert-manager' ? ['caBundle', 'clientTLS', 'host'] : ['authorization', 'caBundle', 'host'],
          );
      }
    },
  );

  it.each(others.map((d) => [d]))('kustomize build %s is accepted by the API server', async (dir) => {
    await dryRunApply(dir, () => kustomize(fromRoot(), 'build', dir));
  });
});
