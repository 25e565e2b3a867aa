import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { combinations, componentsOf, togglesOf, valuesOf } from '../../release/components.js';
import { installManifest, installProblems } from '../../release/install.js';
import { buildBinaries } from './support/build.js';
import { binDir, kube } from './support/context.js';
import { fromRoot, repoRoot } from './support/files.js';
import { installCrds } from './support/install.js';
import { KubeError, type KubeObject } from './support/kube.js';
import { helmEnv } from './support/helm.js';

// The release artefacts against the real binaries and API server: charts/modelhooks linted by
// helm, `helm template` (release `modelhooks` in `modelhooks-system`, Helm's own labels set
// aside) equal to `kustomize build deploy/` for every combination of components (values chosen
// as docs/install.md says), the templated objects dry-run applied; a real `helm install`,
// `upgrade`, `test` and `uninstall` of a release of another name in another namespace; and
// dist/install.yaml applied twice, unchanged the second time. helm is built from Go modules like
// kustomize (test/e2e/build.sh helm).
//
// No kubelet runs here: pods are never started. `helm test` is proved here as far as that allows:
// its pod is admitted (Pod Security `restricted`) with the release's Service URL, then helm waits
// in vain. The live tier runs it through to Succeeded (test/live/chart.live.ts: the test pod's
// command and the server's container run as host processes behind the fake kubelet).
const chart = fromRoot('charts', 'modelhooks');
const combos = combinations(togglesOf(fromRoot('deploy')));
const objectsOf = (yaml: string) =>
  parseAllDocuments(yaml)
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null);
const key = (o: KubeObject) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const byKey = (objects: KubeObject[]) => [...objects].sort((a, b) => key(a).localeCompare(key(b)));
const rank = (o: KubeObject) => (o.kind === 'Namespace' ? 0 : o.kind === 'CustomResourceDefinition' ? 1 : 2);
/** Helm's standard labels, which kustomize does not set (an `app.kubernetes.io/managed-by` of deploy/'s own stays). */
const HELM_LABELS = ['helm.sh/chart', 'app.kubernetes.io/instance', 'app.kubernetes.io/version'];
function withoutHelmLabels(o: KubeObject): KubeObject {
  if (o.metadata.labels === undefined) return o;
  const labels = { ...(o.metadata.labels as Record<string, string>) };
  for (const l of HELM_LABELS) delete labels[l];
  if (labels['app.kubernetes.io/managed-by'] === 'Helm') delete labels['app.kubernetes.io/managed-by'];
  return { ...o, metadata: { ...o.metadata, labels } };
}
/** The paths where `live` differs from what `applied` set: what `kubectl apply` would patch again. */
function drift(applied: unknown, live: unknown, at = ''): string[] {
  if (Array.isArray(applied)) {
    if (!Array.isArray(live) || live.length !== applied.length) return [`${at}: ${JSON.stringify(applied)} → ${JSON.stringify(live)}`];
    return applied.flatMap((a, i) => drift(a, live[i], `${at}[${i}]`));
  }
  if (typeof applied === 'object' && applied !== null) {
    if (typeof live !== 'object' || live === null) return [`${at}: missing`];
    return Object.entries(applied).flatMap(([k, v]) => drift(v, (live as Record<string, unknown>)[k], `${at}.${k}`));
  }
  return applied === live ? [] : [`${at}: ${JSON.stringify(applied)} → ${JSON.stringify(live)}`];
}

/** `--set` arguments for nested values. */
function setArgs(values: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(values).flatMap(([k, v]) =>
    typeof v === 'object' && v !== null ? setArgs(v as Record<string, unknown>, `${prefix}${k}.`) : ['--set', `${prefix}${k}=${String(v)}`],
  );
}

describe('charts/modelhooks (helm) and dist/install.yaml', () => {
  const k = kube();
  const scratch = mkdtempSync(path.join(tmpdir(), 'modelhooks-e2e-chart-'));
  const env = helmEnv(scratch);
  let helmBin = '';
  const helm = (...args: string[]) => execFileSync(helmBin, args, { encoding: 'utf8', stdio: 'pipe', env, maxBuffer: 64 << 20 });
  const kustomize = (cwd: string, ...args: string[]) =>
    execFileSync(path.join(binDir(), 'kustomize'), args, { cwd, encoding: 'utf8', stdio: 'pipe', maxBuffer: 64 << 20 });
  const template = (...args: string[]) =>
    objectsOf(
      helm('template', 'modelhooks', chart, '--namespace', 'modelhooks-system', '--include-crds', '--skip-tests', '--set', 'namespace.create=true', ...args),
    );

  const gone = async (apiVersion: string, kind: string, name: string, namespace?: string) =>
    k.get(apiVersion, kind, name, namespace).then(
      () => false,
      (e: unknown) => e instanceof KubeError && e.status === 404,
    );

  beforeAll(async () => {
    helmBin = path.join((await buildBinaries(['helm'])).binDir, 'helm');
    await installCrds(k);
    // The kubeconfig of the real releases below.
    const { url, token, ca } = k.info;
    const kubeconfig = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'e2e', cluster: { server: url, 'certificate-authority-data': Buffer.from(ca).toString('base64') } }],
      users: [{ name: 'e2e', user: { token } }],
      contexts: [{ name: 'e2e', context: { cluster: 'e2e', user: 'e2e' } }],
      'current-context': 'e2e',
    };
    writeFileSync(path.join(scratch, 'kubeconfig'), JSON.stringify(kubeconfig), { mode: 0o600 });
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
      const actual = byKey(template(...setArgs(valuesOf(combo))).map(withoutHelmLabels));
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

  it('refuses a TLS mode, a toggle or a variable it does not know, and a value the server refuses (values.schema.json)', () => {
    for (const bad of [
      'tls.mode=istio',
      'openshift.enable=true',
      'config.MODELHOOKS_CACHE_BYTE=1mb',
      'config.MODELHOOKS_LOG_LEVEL=loud',
      'config.MODELHOOKS_CACHE_BYTES=lots',
    ]) {
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

  describe('a real release: install, upgrade, test, uninstall (release `hooks` in `team-hooks`)', () => {
    const ns = 'team-hooks';
    const run = (...args: string[]) => helm(...args, '--kubeconfig', path.join(scratch, 'kubeconfig'), '--namespace', ns);
    const live = (apiVersion: string, kind: string, name: string, namespace?: string) => k.get(apiVersion, kind, name, namespace);

    beforeAll(async () => {
      // CompositeControllers an earlier file applied would not be the release's (helm refuses to adopt them).
      for (const f of ['inferenceservice', 'inferencegraph', 'trustyai', 'tfserv', 'mlmodel']) {
        const cc = { apiVersion: 'metacontroller.k8s.io/v1alpha1', kind: 'CompositeController', metadata: { name: `modelhooks-${f}` } };
        await k.delete(cc).catch(() => undefined);
      }
      // And the credentials DecoratorController (compositions/base/inferenceservice.yaml), for the same reason.
      const dc = { apiVersion: 'metacontroller.k8s.io/v1alpha1', kind: 'DecoratorController', metadata: { name: 'modelhooks-inferenceservice-credentials' } };
      await k.delete(dc).catch(() => undefined);
    });

    it('installs: every namespaced object in the release namespace, named after the release, with Helm labels; hook URLs call its Service', async () => {
      expect(run('install', 'hooks', chart, '--create-namespace', '--set', 'podAnnotations.team=a')).toContain('STATUS: deployed');
      const d = await live('apps/v1', 'Deployment', 'hooks-modelhooks', ns);
      expect(d.metadata.labels).toMatchObject({
        'app.kubernetes.io/instance': 'hooks',
        'app.kubernetes.io/managed-by': 'Helm',
        'helm.sh/chart': expect.stringMatching(/^modelhooks-/),
      });
      expect((d as unknown as { spec: { template: { metadata: { annotations: unknown } } } }).spec.template.metadata.annotations).toEqual({ team: 'a' });
      for (const [v, kind] of [
        ['v1', 'Service'],
        ['v1', 'ServiceAccount'],
        ['policy/v1', 'PodDisruptionBudget'],
        ['networking.k8s.io/v1', 'NetworkPolicy'],
      ])
        await live(v as string, kind as string, 'hooks-modelhooks', ns);
      const cc = (await live('metacontroller.k8s.io/v1alpha1', 'CompositeController', 'modelhooks-tfserv')) as unknown as {
        spec: { hooks: { sync: { webhook: { url: string } } } };
      };
      expect(cc.spec.hooks.sync.webhook.url).toBe('http://hooks-modelhooks.team-hooks.svc/hooks/tfserv/sync');
      expect(await gone('apps/v1', 'Deployment', 'hooks-modelhooks', 'modelhooks-system')).toBe(true);
      expect(await gone('apps/v1', 'Deployment', 'modelhooks', ns)).toBe(true);
    });

    it('upgrades: the values change the objects in place', async () => {
      expect(run('upgrade', 'hooks', chart, '--reuse-values', '--set', 'replicas=3', '--set', 'config.MODELHOOKS_LOG_LEVEL=debug')).toContain('REVISION: 2');
      const d = (await live('apps/v1', 'Deployment', 'hooks-modelhooks', ns)) as unknown as {
        spec: { replicas: number; template: { metadata: { annotations: unknown }; spec: { containers: { env: { name: string; value?: string }[] }[] } } };
      };
      expect(d.spec.replicas).toBe(3);
      expect(d.spec.template.metadata.annotations).toEqual({ team: 'a' });
      expect(d.spec.template.spec.containers[0]?.env.find((e) => e.name === 'MODELHOOKS_LOG_LEVEL')?.value).toBe('debug');
      expect(() => run('upgrade', 'hooks', chart, '--reuse-values', '--set', 'config.MODELHOOKS_LOG_LEVEL=loud')).toThrow(/MODELHOOKS_LOG_LEVEL/);
    });

    it('helm test: its pod is admitted under Pod Security `restricted` and calls /healthz through the Service (no kubelet runs it here)', async () => {
      await k.call(
        'PATCH',
        `/api/v1/namespaces/${ns}`,
        { metadata: { labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } },
        'application/merge-patch+json',
      );
      let failure = '';
      try {
        run('test', 'hooks', '--timeout', '5s');
      } catch (e) {
        failure = String((e as { stderr?: unknown }).stderr ?? e);
      }
      // Created and admitted, then never run: helm gives up waiting for it.
      expect(failure).toMatch(/timed out|context deadline exceeded/);
      const pod = (await live('v1', 'Pod', 'hooks-modelhooks-test-healthz', ns)) as unknown as { spec: { containers: { command: string[] }[] } };
      expect(pod.spec.containers[0]?.command.at(-1)).toBe('http://hooks-modelhooks.team-hooks.svc:9090/healthz');
    });

    it('uninstalls: its objects go, the CRDs and the custom resources stay', async () => {
      const mlmodel = { ...(parse(readFileSync(fromRoot('examples', 'mlmodel.yaml'), 'utf8')) as KubeObject) };
      mlmodel.metadata = { ...mlmodel.metadata, namespace: ns };
      await k.apply(mlmodel);
      expect(run('uninstall', 'hooks')).toContain('uninstalled');
      expect(await gone('apps/v1', 'Deployment', 'hooks-modelhooks', ns)).toBe(true);
      expect(await gone('metacontroller.k8s.io/v1alpha1', 'CompositeController', 'modelhooks-tfserv')).toBe(true);
      await live('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'inferenceservices.serving.kserve.io');
      await live(mlmodel.apiVersion as string, mlmodel.kind as string, mlmodel.metadata.name, ns);
    });
  });

  describe('a release of your own composition: the Greeter of `modelhooks init` (extraCompositions, builtin.enabled=false)', () => {
    const ns = 'greeter-system';
    const run = (...args: string[]) => helm(...args, '--kubeconfig', path.join(scratch, 'kubeconfig'), '--namespace', ns);
    const manifests = path.join(scratch, 'greeter-manifests');
    const crdFile = path.join(manifests, 'crds/greeters.example.dev.yaml');
    const ccFile = path.join(manifests, 'compositions/base/greeter.yaml');
    const greeterValues = ['--set', 'builtin.enabled=false', '--set-file', `extraCompositions.greeter.crd=${crdFile}`];
    greeterValues.push('--set-file', `extraCompositions.greeter.compositeController=${ccFile}`);

    beforeAll(() => {
      // docs/your-composition.md's step 3: the manifests of the project `init` writes (examples/init is its source),
      // with a hook URL the chart replaces.
      execFileSync(
        fromRoot('node_modules/.bin/tsx'),
        [
          'hooks/cli/main.ts',
          'manifests',
          '--no-builtin',
          '--composition',
          fromRoot('examples/init/src/greeter.ts'),
          '--dir',
          manifests,
          '--hook-url',
          'http://elsewhere.example',
        ],
        { cwd: fromRoot(), stdio: 'pipe' },
      );
    }, 120_000);

    it('helm template: the CRD and a CompositeController calling the release’s Service (https and endpointConfigs under a TLS mode), no built-in one', () => {
      const at = (mode: string) => template(...greeterValues, '--set', `tls.mode=${mode}`);
      for (const mode of ['none', 'cert-manager', 'openshift-service-ca']) {
        const objects = at(mode);
        const controllers = objects.filter((o) => o.kind === 'CompositeController') as unknown as {
          metadata: { name: string };
          spec: { hooks: { sync: { webhook: { url: string } } }; endpointConfigs?: { host: string }[] };
        }[];
        expect(controllers.map((c) => c.metadata.name)).toEqual(['modelhooks-greeter']);
        const builtin = template('--set', `tls.mode=${mode}`).find((o) => o.kind === 'CompositeController') as unknown as (typeof controllers)[number];
        const scheme = mode === 'none' ? 'http' : 'https';
        expect(controllers[0]?.spec.hooks.sync.webhook.url).toBe(`${scheme}://modelhooks.modelhooks-system.svc/hooks/greeter/sync`);
        expect(controllers[0]?.spec.endpointConfigs).toEqual(builtin.spec.endpointConfigs);
        const crd = objects.find((o) => o.kind === 'CustomResourceDefinition' && o.metadata.name === 'greeters.example.dev');
        expect(crd?.metadata.annotations).toEqual({ 'helm.sh/resource-policy': 'keep' });
      }
      expect(() =>
        template('--set-file', `extraCompositions.greeter.crd=${ccFile}`, '--set-file', `extraCompositions.greeter.compositeController=${ccFile}`),
      ).toThrow(/extraCompositions\.greeter\.crd is a CompositeController, not a CustomResourceDefinition/);
    });

    it('installs (no built-in CompositeController to clash with another release): `kubectl get greeter` works, the CompositeController calls the release; uninstall keeps the CRD', async () => {
      const out = run('install', 'greeter', chart, '--create-namespace', ...greeterValues);
      expect(out).toContain('STATUS: deployed');
      expect(out).toContain('kubectl get greeters -A');
      expect(out).not.toContain('sklearn');
      const crd = (await k.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'greeters.example.dev')) as unknown as {
        metadata: { labels: Record<string, string> };
        status: { conditions?: { type: string; status: string }[] };
      };
      expect(crd.metadata.labels['app.kubernetes.io/instance']).toBe('greeter');
      const cc = (await k.get('metacontroller.k8s.io/v1alpha1', 'CompositeController', 'modelhooks-greeter')) as unknown as {
        spec: { hooks: { sync: { webhook: { url: string } } } };
      };
      expect(cc.spec.hooks.sync.webhook.url).toBe('http://greeter-modelhooks.greeter-system.svc/hooks/greeter/sync');
      const mine = await k.call<{ items: KubeObject[] }>(
        'GET',
        `/apis/metacontroller.k8s.io/v1alpha1/compositecontrollers?labelSelector=${encodeURIComponent('app.kubernetes.io/instance=greeter')}`,
      );
      expect(mine.items.map((o) => o.metadata.name)).toEqual(['modelhooks-greeter']);
      await k.waitForCrdEstablished('greeters.example.dev');
      const greeter = (parse(readFileSync(fromRoot('examples/init/greeter.yaml'), 'utf8')) as KubeObject) ?? {};
      await k.apply({ ...greeter, metadata: { ...greeter.metadata, namespace: ns } });
      const listed = await k.call<{ items: KubeObject[] }>('GET', `/apis/example.dev/v1/namespaces/${ns}/greeters`);
      expect(listed.items.map((o) => o.metadata.name)).toEqual([greeter.metadata.name]);

      expect(run('upgrade', 'greeter', chart, '--reuse-values', '--set', 'replicas=1')).toContain('REVISION: 2');
      expect(run('uninstall', 'greeter')).toContain('uninstalled');
      expect(await gone('metacontroller.k8s.io/v1alpha1', 'CompositeController', 'modelhooks-greeter')).toBe(true);
      await k.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'greeters.example.dev');
      await k.get('example.dev/v1', 'Greeter', greeter.metadata.name, ns);
    });
  });

  it('dist/install.yaml (from the kustomize binary) has nothing wrong, applies in its own order, and a second apply changes nothing', async () => {
    const version = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
    const text = installManifest(objectsOf(kustomize(fromRoot(), 'build', 'deploy')), version);
    expect(installProblems(text, repoRoot)).toEqual([]);
    const objects = objectsOf(text);
    const first: KubeObject[] = [];
    for (const o of objects) first.push(await k.apply(o));
    // What `kubectl apply` compares: every field of the file as the API server keeps it (defaults,
    // an empty env value dropped). A difference is reported `configured` on every apply.
    const drifts: string[] = [];
    for (const o of objects) {
      const now = await live(o);
      drifts.push(...drift({ ...o, metadata: { ...o.metadata } }, now).map((d) => `${o.kind}/${o.metadata.name}${d}`));
    }
    expect(drifts).toEqual([]);
    const second: KubeObject[] = [];
    for (const o of objects) second.push(await k.apply(o));
    expect(second.map((o) => `${o.kind}/${o.metadata.name}@${o.metadata.resourceVersion}`)).toEqual(
      first.map((o) => `${o.kind}/${o.metadata.name}@${o.metadata.resourceVersion}`),
    );
    async function live(o: KubeObject): Promise<KubeObject> {
      return k.get(o.apiVersion as string, o.kind as string, o.metadata.name, o.metadata.namespace);
    }
  });
});
