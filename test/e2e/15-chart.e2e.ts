import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { combinations, componentsOf, togglesOf, valuesOf } from '../../release/components.js';
import { installManifest, installProblems } from '../../release/install.js';
import { buildBinaries } from './support/build.js';
import { binDir, kube } from './support/context.js';
import { fromRoot, repoRoot } from './support/files.js';
import { installCrds } from './support/install.js';
import type { KubeObject } from './support/kube.js';

// The release artefacts against the real binaries and API server: charts/modelhooks linted by
// helm, `helm template` equal to `kustomize build deploy/` for every combination of components
// (values chosen as docs/install.md says), the templated objects and dist/install.yaml dry-run
// applied. helm is built from Go modules like kustomize (test/e2e/build.sh helm).
const chart = fromRoot('charts', 'modelhooks');
const combos = combinations(togglesOf(fromRoot('deploy')));
const objectsOf = (yaml: string) =>
  parseAllDocuments(yaml)
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null);
const key = (o: KubeObject) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const byKey = (objects: KubeObject[]) => [...objects].sort((a, b) => key(a).localeCompare(key(b)));
const rank = (o: KubeObject) => (o.kind === 'Namespace' ? 0 : o.kind === 'CustomResourceDefinition' ? 1 : 2);

/** `--set` arguments for nested values. */
function setArgs(values: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(values).flatMap(([k, v]) =>
    typeof v === 'object' && v !== null ? setArgs(v as Record<string, unknown>, `${prefix}${k}.`) : ['--set', `${prefix}${k}=${String(v)}`],
  );
}

describe('charts/modelhooks (helm) and dist/install.yaml', () => {
  const k = kube();
  const scratch = mkdtempSync(path.join(tmpdir(), 'modelhooks-e2e-chart-'));
  // helm writes its cache and config under these; none of $HOME.
  const env = {
    ...process.env,
    HELM_CACHE_HOME: path.join(scratch, 'helm/cache'),
    HELM_CONFIG_HOME: path.join(scratch, 'helm/config'),
    HELM_DATA_HOME: path.join(scratch, 'helm/data'),
  };
  let helmBin = '';
  const helm = (...args: string[]) => execFileSync(helmBin, args, { encoding: 'utf8', stdio: 'pipe', env, maxBuffer: 64 << 20 });
  const kustomize = (cwd: string, ...args: string[]) =>
    execFileSync(path.join(binDir(), 'kustomize'), args, { cwd, encoding: 'utf8', stdio: 'pipe', maxBuffer: 64 << 20 });
  const template = (...args: string[]) => objectsOf(helm('template', 'modelhooks', chart, '--include-crds', ...args));

  beforeAll(async () => {
    helmBin = path.join((await buildBinaries(['helm'])).binDir, 'helm');
    await installCrds(k);
  }, 1_800_000);
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  async function dryRunApply(objects: KubeObject[]): Promise<KubeObject[]> {
    for (const ns of new Set(objects.map((o) => o.metadata.namespace).filter((n): n is string => Boolean(n)))) {
      await k.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    }
    const applied: KubeObject[] = [];
    for (const o of objects) applied.push(await k.apply(o, { dryRun: o.kind !== 'Namespace' }));
    return applied;
  }

  it('helm lint --strict passes, with the defaults and with every toggle on', () => {
    expect(helm('lint', '--strict', chart)).toContain('1 chart(s) linted, 0 chart(s) failed');
    const all = setArgs(valuesOf({ flags: Object.fromEntries(togglesOf(fromRoot('deploy')).flags.map((f) => [f, true])), tls: 'cert-manager' }));
    expect(helm('lint', '--strict', chart, ...all)).toContain('0 chart(s) failed');
  });

  it.each(combos.map((c) => [componentsOf(c).join(' + ') || '(no component)', c] as const))(
    'helm template with the values of %s = kustomize build deploy/ with those components',
    (_name, combo) => {
      const copy = mkdtempSync(path.join(scratch, 'deploy-'));
      for (const dir of ['deploy', 'crds', 'compositions']) cpSync(fromRoot(dir), path.join(copy, dir), { recursive: true });
      const deploy = path.join(copy, 'deploy');
      const components = componentsOf(combo);
      if (components.length > 0) kustomize(deploy, 'edit', 'add', 'component', ...components);
      const expected = byKey(objectsOf(kustomize(deploy, 'build', '.')));
      const actual = byKey(template(...setArgs(valuesOf(combo))));
      expect(actual.map(key)).toEqual(expected.map(key));
      expect(actual).toEqual(expected);
    },
  );

  it('the image, replicas, resources and variables come from the values; a variable deploy/ does not set is added', () => {
    const objects = template(
      ...setArgs({ image: { repository: 'registry.example.com/modelhooks', tag: '1.2.3' }, replicas: 3 }),
      '--set',
      'resources.limits.memory=1Gi',
      '--set',
      'config.MODELHOOKS_CACHE_BYTES=128mb',
      '--set',
      'config.MODELHOOKS_NAMESPACE_SELECTOR=modelhooks.dev/enabled=true',
    );
    const deployment = objects.find((o) => o.kind === 'Deployment') as unknown as {
      spec: { replicas: number; template: { spec: { containers: { image: string; resources: unknown; env: { name: string; value: string }[] }[] } } };
    };
    const c = deployment.spec.template.spec.containers[0] as (typeof deployment.spec.template.spec.containers)[number];
    expect(c.image).toBe('registry.example.com/modelhooks:1.2.3');
    expect(deployment.spec.replicas).toBe(3);
    expect(c.resources).toEqual({ requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '1Gi' } });
    const envOf = (name: string) => c.env.filter((e) => e.name === name).map((e) => e.value);
    expect(envOf('MODELHOOKS_CACHE_BYTES')).toEqual(['128mb']);
    expect(envOf('MODELHOOKS_NAMESPACE_SELECTOR')).toEqual(['modelhooks.dev/enabled=true']);
    expect(envOf('MODELHOOKS_DOMAIN_TEMPLATE')).toEqual(['{{name}}-{{namespace}}.{{domain}}']);
  });

  it('refuses a TLS mode, a toggle or a variable it does not know (values.schema.json)', () => {
    for (const bad of ['tls.mode=istio', 'openshift.enable=true', 'config.MODELHOOKS_CACHE_BYTE=1mb']) {
      expect(() => helm('template', 'modelhooks', chart, '--set', bad), bad).toThrow(/values don't meet the specifications of the schema/);
    }
  });

  it.each([
    ['the defaults', {}],
    [
      'every toggle, TLS by cert-manager',
      valuesOf({ flags: { 'cert-manager': true, 'gateway-api': true, openshift: true, prometheus: true }, tls: 'cert-manager' }),
    ],
    [
      'every toggle, TLS by the OpenShift service CA',
      valuesOf({ flags: { 'cert-manager': true, 'gateway-api': true, openshift: true, prometheus: true }, tls: 'openshift-service-ca' }),
    ],
  ] as const)('helm template with %s is accepted by the API server', async (_name, values) => {
    const objects = template(...setArgs(values as Record<string, unknown>)).sort((a, b) => rank(a) - rank(b));
    const applied = await dryRunApply(objects);
    expect(applied.map(key).sort()).toEqual(objects.map(key).sort());
  });

  it('dist/install.yaml (from the kustomize binary) has nothing wrong and applies in its own order', async () => {
    const version = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
    const text = installManifest(objectsOf(kustomize(fromRoot(), 'build', 'deploy')), version);
    expect(installProblems(text, repoRoot)).toEqual([]);
    const objects = objectsOf(text);
    const applied = await dryRunApply(objects);
    expect(applied).toHaveLength(objects.length);
  });
});
