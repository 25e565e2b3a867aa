// deploy/ is what users apply: check the properties a reviewer would otherwise check by eye
// (availability, least privilege, the wiring between Service, URL and NetworkPolicy) and
// validate every object strictly, for deploy/ with every combination of its components. The
// e2e tier runs the real `kustomize build` against an API server; this needs neither (it checks
// its model of kustomize against the binary when the e2e tier has built one).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/config.js';
import { IN_CLUSTER_HOOK_URL } from '../../hooks/cli/manifests.js';
import { compositeControllerFor, DEFAULT_VARIANT, variantNames } from '../../hooks/kit/index.js';
import { type KubeObject, isObject, loadYamlFile, repoRoot } from '../support/reference.js';
import { expectValid } from '../support/validate.js';
import { build, type Edits, type Image, kustomizationFile, readKustomization } from './kustomize.js';

const root = repoRoot();
const deployDir = path.join(root, 'deploy');
const baseDir = path.join(deployDir, 'base');
const componentsDir = path.join(deployDir, 'components');
const rel = (abs: string) => path.relative(root, abs) || '.';

const subdirs = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((d) => statSync(path.join(dir, d)).isDirectory()).sort() : [];
const components = subdirs(componentsDir);
const variants = variantNames(builtinCompositions).filter((v) => v !== DEFAULT_VARIANT);

/** Every subset of the components, in the order deploy/components lists them: what users can enable. */
const subsets = components.reduce<string[][]>((acc, c) => [...acc, ...acc.map((s) => [...s, c])], [[]]);

/** deploy/ with components enabled, as `kustomize edit add component components/<name>…` leaves it. */
const targets = subsets.map((enabled) => ({
  name: enabled.length === 0 ? 'deploy/' : `deploy/ + ${enabled.join(' + ')}`,
  enabled,
  edits: { components: enabled.map((c) => `components/${c}`) } satisfies Edits,
}));

/** The image the README sets, in the one place. */
const IMAGE: Image = { name: 'ghcr.io/modelhooks/modelhooks', newName: 'registry.example.com/modelhooks', newTag: '1.2.3' };

// Where the CompositeControllers send their calls: the Service must answer there.
const hookUrl = new URL(IN_CLUSTER_HOOK_URL);
const [serviceName, serviceNamespace] = hookUrl.hostname.split('.') as [string, string];
const servicePort = hookUrl.port === '' ? (hookUrl.protocol === 'https:' ? 443 : 80) : Number(hookUrl.port);

type Obj = KubeObject & { metadata: { name: string; namespace?: string; labels?: Record<string, string> }; spec: any };

const find = (objects: KubeObject[], kind: string, name?: string) =>
  objects.filter((o): o is Obj => o.kind === kind && (name === undefined || (o.metadata as { name?: string }).name === name));

function one(objects: KubeObject[], kind: string, name?: string): Obj {
  const found = find(objects, kind, name);
  expect(found.map((o) => `${kind}/${o.metadata.name}`), `exactly one ${kind}${name ? `/${name}` : ''}`).toHaveLength(1);
  return found[0] as Obj;
}

const selects = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);

/** Every kustomization directory under a directory (itself included). */
function kustomizationDirs(dir: string): string[] {
  return [...(kustomizationFile(dir) ? [dir] : []), ...subdirs(dir).flatMap((d) => kustomizationDirs(path.join(dir, d)))];
}

/** Every object in a YAML file under deploy/ (not kustomizations or patches). */
function deployFileObjects(): { file: string; object: KubeObject }[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : /\.ya?ml$/.test(e.name) && !/^kustomization\.ya?ml$/.test(e.name) ? [path.join(dir, e.name)] : [],
    );
  return walk(deployDir).flatMap((file) => loadYamlFile(file).map((object) => ({ file: rel(file), object })));
}

const image = (objects: KubeObject[]) => one(objects, 'Deployment', 'modelhooks').spec.template.spec.containers[0].image as string;

describe('deploy/ kustomizations', () => {
  it.each(kustomizationDirs(deployDir).map((d) => [rel(d), d]))('every resource and component of %s exists', (_name, dir) => {
    const k = readKustomization(dir as string);
    expect(['Kustomization', 'Component']).toContain(k.kind ?? 'Kustomization');
    for (const r of [...(k.resources ?? []), ...(k.components ?? [])]) {
      const abs = path.resolve(dir as string, r);
      expect(existsSync(abs), `${rel(dir as string)}: ${r}`).toBe(true);
      if (statSync(abs).isDirectory()) expect(kustomizationFile(abs), `${r} is a directory without kustomization.yaml`).toBeDefined();
    }
  });

  it('deploy/ installs the hook server, crds/ and compositions/base, and no component by default', () => {
    const k = readKustomization(deployDir);
    expect((k.resources ?? []).map((r) => path.resolve(deployDir, r))).toEqual([baseDir, path.join(root, 'crds'), path.join(root, 'compositions', 'base')]);
    expect(k.components ?? []).toEqual([]);
  });

  it('has a component per variant, each a kustomize Component that includes the generated one of compositions/', () => {
    expect(components).toEqual([...variants].sort());
    for (const c of components) {
      const k = readKustomization(path.join(componentsDir, c));
      expect(k.apiVersion).toBe('kustomize.config.k8s.io/v1alpha1');
      expect(k.kind).toBe('Component');
      expect((k.components ?? []).map((r) => path.resolve(componentsDir, c, r))).toEqual([path.join(root, 'compositions', 'components', c)]);
    }
  });

  it('sets the image in one place: deploy/kustomization.yaml', () => {
    const withImages = kustomizationDirs(deployDir).filter((d) => (readKustomization(d).images ?? []).length > 0);
    expect(withImages.map(rel)).toEqual(['deploy']);
    expect(readKustomization(deployDir).images).toEqual([{ name: IMAGE.name, newTag: '0.1.0' }]);
  });

  it.each(targets.map((t) => [t.name, t.edits]))('%s: `kustomize edit set image` in deploy/ sets the image of the hook server', (_name, edits) => {
    expect(image(build(deployDir, edits))).toBe('ghcr.io/modelhooks/modelhooks:0.1.0');
    expect(image(build(deployDir, { ...edits, images: [IMAGE] }))).toBe('registry.example.com/modelhooks:1.2.3');
  });

  it.each(targets.map((t) => [t.name, t.enabled, t.edits] as const))('%s: the CompositeControllers are the kit\'s for these variants', (_name, enabled, edits) => {
    const controllers = find(build(deployDir, edits), 'CompositeController');
    const expected = builtinCompositions.map((c) => compositeControllerFor(c, enabled, { hookBaseUrl: IN_CLUSTER_HOOK_URL }));
    expect(controllers).toEqual(expected);
  });

  it('base puts everything in the namespace of IN_CLUSTER_HOOK_URL and nothing else', () => {
    const k = readKustomization(baseDir);
    expect(k.namespace).toBe(serviceNamespace);
    const objects = build(baseDir);
    one(objects, 'Namespace', serviceNamespace);
    for (const o of objects.filter((x) => x.kind !== 'Namespace') as Obj[]) {
      expect(o.metadata.namespace, `${o.kind}/${o.metadata.name}`).toBe(serviceNamespace);
    }
    // The top level must not set a namespace: kustomize would give one to the cluster-scoped
    // CompositeControllers, which it does not know.
    expect(readKustomization(deployDir).namespace).toBeUndefined();
  });

  it('deploy/examples creates every namespace examples/ names', () => {
    const examples = readdirSync(path.join(root, 'examples')).filter((f) => /\.ya?ml$/.test(f));
    const named = new Set(examples.flatMap((f) => loadYamlFile(path.join(root, 'examples', f))).map((o) => (o.metadata as { namespace?: string }).namespace).filter((n) => n !== undefined));
    expect(named.size).toBeGreaterThan(0);
    const created = find(build(path.join(deployDir, 'examples')), 'Namespace').map((n) => n.metadata.name);
    expect(created.sort()).toEqual([...named].sort());
  });

  it('a kustomization of your own with deploy/ as a resource builds what the edits in deploy/ build', () => {
    const own = build(path.join(root, 'test/deploy/fixtures/own-kustomization'));
    const edited = build(deployDir, {
      components: ['components/openshift', 'components/prometheus'],
      images: [{ ...IMAGE, newTag: '0.1.0' }],
    });
    expect(own).toEqual(edited);
    expect(image(own)).toBe('registry.example.com/modelhooks:0.1.0');
  });

  it('deploy/metacontroller raises the client-go rate limit of Metacontroller\'s StatefulSet', () => {
    const [sts] = build(path.join(root, 'test/deploy/fixtures/metacontroller')) as Obj[];
    const args = sts?.spec.template.spec.containers[0].args;
    expect(args).toEqual(['--zap-log-level=4', '--discovery-interval=20s', '--client-go-qps=50', '--client-go-burst=100']);
  });
});

describe.each(targets.map((t) => [t.name, t]))('%s', (_name, target) => {
  let objects: KubeObject[];
  try {
    objects = build(deployDir, target.edits);
  } catch (err) {
    it('builds', () => {
      throw err;
    });
    return;
  }
  const deployment = one(objects, 'Deployment', 'modelhooks');
  const pod = deployment.spec.template.spec;
  const podLabels = deployment.spec.template.metadata.labels as Record<string, string>;
  const [server] = pod.containers as any[];
  const effective = (field: string) => server.securityContext?.[field] ?? pod.securityContext?.[field];

  it('runs two spread replicas that a disruption cannot take both of', () => {
    expect(deployment.spec.replicas).toBe(2);
    expect(selects(deployment.spec.selector.matchLabels, podLabels)).toBe(true);
    const spread = (pod.topologySpreadConstraints ?? []).some(
      (c: any) => c.topologyKey === 'kubernetes.io/hostname' && selects(c.labelSelector?.matchLabels ?? {}, podLabels),
    );
    const antiAffinity = (pod.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).some(
      (t: any) => t.podAffinityTerm?.topologyKey === 'kubernetes.io/hostname',
    );
    expect(spread || antiAffinity, 'replicas prefer different nodes').toBe(true);
    const pdb = one(objects, 'PodDisruptionBudget');
    expect(pdb.spec.minAvailable).toBe(1);
    expect(selects(pdb.spec.selector.matchLabels, podLabels)).toBe(true);
  });

  it('serves the hooks on a named port, with readiness and liveness probes', () => {
    expect(pod.containers).toHaveLength(1);
    expect([...(server.command ?? []), ...(server.args ?? [])]).toEqual(['node', 'dist/hooks/cli.js', 'serve']);
    expect(server.ports).toEqual([{ name: 'http', containerPort: 8080, protocol: 'TCP' }]);
    expect(server.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(server.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(server.resources.requests).toMatchObject({ cpu: expect.anything(), memory: expect.anything() });
    expect(server.resources.limits.memory).toBeDefined();
  });

  it('configures the server with valid values, and stops within the grace period', () => {
    const env = Object.fromEntries((server.env ?? []).map((e: { name: string; value?: string }) => [e.name, e.value]));
    for (const name of Object.keys(env)) expect(name).toMatch(/^(PORT|MODELHOOKS_[A-Z0-9_]+|NODE_OPTIONS)$/);
    for (const name of ['PORT', 'MODELHOOKS_LOG_LEVEL', 'MODELHOOKS_SHUTDOWN_TIMEOUT_SECONDS']) expect(env).toHaveProperty(name);
    const config = loadConfig(env);
    expect(config.port).toBe(server.ports[0].containerPort);
    const preStopSleep = Number(server.lifecycle?.preStop?.exec?.command?.[1] ?? server.lifecycle?.preStop?.sleep?.seconds ?? 0);
    expect(pod.terminationGracePeriodSeconds).toBe(40);
    expect(preStopSleep + config.drainSeconds + config.shutdownTimeoutSeconds).toBeLessThan(pod.terminationGracePeriodSeconds);
    // The drain lasts at least as long as the readiness probe takes to notice.
    expect(config.drainSeconds).toBeGreaterThanOrEqual(server.readinessProbe.periodSeconds * server.readinessProbe.failureThreshold);
    // The answer cache stays well below the memory limit (a quarter at most).
    expect(config.cacheBytes).toBeLessThanOrEqual(memoryBytes(server.resources.limits.memory) / 4);
  });

  it('runs unprivileged: non-root, read-only root, no capabilities, no token', () => {
    expect(effective('runAsNonRoot')).toBe(true);
    if (target.enabled.includes('openshift')) {
      // The restricted SCC assigns the UID; asking for one outside the range is refused.
      expect(pod.securityContext?.runAsUser).toBeUndefined();
      expect(server.securityContext?.runAsUser).toBeUndefined();
    } else {
      expect(effective('runAsUser')).toBe(10001);
    }
    expect(server.securityContext.readOnlyRootFilesystem).toBe(true);
    expect(server.securityContext.allowPrivilegeEscalation).toBe(false);
    expect(server.securityContext.privileged ?? false).toBe(false);
    expect(server.securityContext.capabilities?.drop).toEqual(['ALL']);
    expect(server.securityContext.capabilities?.add ?? []).toEqual([]);
    expect(effective('seccompProfile')).toEqual({ type: 'RuntimeDefault' });
    expect(pod.hostNetwork ?? false).toBe(false);
    expect(pod.automountServiceAccountToken).toBe(false);
    const sa = one(objects, 'ServiceAccount', pod.serviceAccountName);
    expect(sa.automountServiceAccountToken).toBe(false);
  });

  it('answers at IN_CLUSTER_HOOK_URL, where its CompositeControllers call', () => {
    const service = one(objects, 'Service', serviceName);
    expect(service.metadata.namespace).toBe(serviceNamespace);
    expect(selects(service.spec.selector, podLabels)).toBe(true);
    const port = (service.spec.ports as any[]).find((p) => p.port === servicePort);
    expect(port, `Service port ${servicePort}`).toBeDefined();
    expect(port.targetPort).toBe('http');
    const controllers = find(objects, 'CompositeController');
    expect(controllers.length).toBeGreaterThan(0);
    for (const cc of controllers) {
      for (const hook of Object.values(cc.spec.hooks ?? {}) as { webhook?: { url?: string } }[]) {
        expect(hook.webhook?.url, cc.metadata.name).toMatch(new RegExp(`^${IN_CLUSTER_HOOK_URL.replace(/\./g, '\\.')}/hooks/`));
      }
    }
  });

  it('lets only Metacontroller (and a scraper, where one is installed) reach the pods', () => {
    const policy = one(objects, 'NetworkPolicy');
    expect(selects(policy.spec.podSelector.matchLabels, podLabels)).toBe(true);
    expect(policy.spec.policyTypes).toContain('Ingress');
    const rules = policy.spec.ingress as any[];
    const sources = rules.map((r) => {
      // A rule without `from` or with an empty selector would let every pod in.
      expect(r.from?.length, 'every rule names its source').toBeGreaterThan(0);
      expect(r.ports, 'every rule names its port').toEqual([{ port: server.ports[0].containerPort, protocol: 'TCP' }]);
      return r.from.map((f: any) => {
        expect(Object.keys(f)).toEqual(['namespaceSelector']);
        return f.namespaceSelector.matchLabels['kubernetes.io/metadata.name'] as string;
      });
    });
    expect(sources[0]).toEqual(['metacontroller']);
    expect(sources.flat()).toEqual(target.enabled.includes('prometheus') ? ['metacontroller', 'monitoring'] : ['metacontroller']);
  });

  it(`has a ServiceMonitor for the hook server only with the prometheus component`, () => {
    expect(find(objects, 'ServiceMonitor')).toHaveLength(target.enabled.includes('prometheus') ? 1 : 0);
  });

  if (target.enabled.includes('prometheus')) {
    it('has a ServiceMonitor that scrapes /metrics on the http port of the Service', () => {
      const monitor = one(objects, 'ServiceMonitor');
      const service = one(objects, 'Service', serviceName);
      expect(monitor.metadata.namespace).toBe(serviceNamespace);
      expect(selects(monitor.spec.selector.matchLabels, service.metadata.labels)).toBe(true);
      expect(monitor.spec.endpoints).toEqual([expect.objectContaining({ port: 'http', path: '/metrics' })]);
      expect((service.spec.ports as any[]).map((p) => p.name)).toContain('http');
    });
  }

  it('is valid, patches applied', () => {
    for (const o of objects.filter((x) => x.kind !== 'CompositeController' && x.kind !== 'CustomResourceDefinition')) expectValid(o);
  });
});

// The e2e tier builds kustomize into .cache/e2e/bin; where it is, check the model against it,
// running the README's commands in a copy of the repository's install files.
const kustomizeBin = path.join(root, '.cache/e2e/bin/current/kustomize');

describe.skipIf(!existsSync(kustomizeBin))('test/deploy/kustomize.ts against the real kustomize', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'modelhooks-deploy-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const kustomize = (cwd: string, ...args: string[]) => execFileSync(kustomizeBin, args, { cwd, encoding: 'utf8', stdio: 'pipe' });
  const key = (o: any) => `${o.kind} ${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
  const objectsOf = (yaml: string) => new Map(parseAllDocuments(yaml).map((d) => d.toJS()).filter(isObject).map((o) => [key(o), o]));
  const same = (real: Map<string, unknown>, modelled: KubeObject[]) => {
    const model = new Map(modelled.map((o) => [key(o), o]));
    expect([...model.keys()].sort()).toEqual([...real.keys()].sort());
    for (const [k, o] of model) expect(o, k).toEqual(real.get(k));
  };

  it.each(targets.map((t, i) => [t.name, t, i] as const))('%s: `kustomize edit add component` and `edit set image`, then build, make the same objects', (_name, target, i) => {
    const copy = path.join(scratch, String(i));
    for (const dir of ['deploy', 'crds', 'compositions']) cpSync(path.join(root, dir), path.join(copy, dir), { recursive: true });
    const deploy = path.join(copy, 'deploy');
    if (target.enabled.length > 0) kustomize(deploy, 'edit', 'add', 'component', ...target.edits.components);
    kustomize(deploy, 'edit', 'set', 'image', `${IMAGE.name}=${IMAGE.newName}:${IMAGE.newTag}`);
    same(objectsOf(kustomize(deploy, 'build', '.')), build(deployDir, { ...target.edits, images: [IMAGE] }));
  });

  it.each([['deploy/examples'], ['test/deploy/fixtures/metacontroller'], ['test/deploy/fixtures/own-kustomization'], ['crds']])('builds %s to the same objects', (dir) => {
    same(objectsOf(kustomize(root, 'build', dir)), build(path.join(root, dir)));
  });
});

describe('deploy/ files', () => {
  it.each(deployFileObjects().map(({ file, object }) => [`${file}: ${String(object.kind)}`, object]))('%s is valid', (_name, object) => {
    expectValid(object);
  });

  it('names the image as a placeholder to override', () => {
    const deployment = one(loadYamlFile(path.join(baseDir, 'deployment.yaml')), 'Deployment');
    expect(deployment.spec.template.spec.containers[0].image).toBe('ghcr.io/modelhooks/modelhooks:0.1.0');
  });
});

/** `512Mi` → bytes (the binary suffixes this repo uses). */
function memoryBytes(quantity: string): number {
  const [, digits, unit = ''] = /^(\d+)(Ki|Mi|Gi)?$/.exec(quantity) ?? [];
  return Number(digits) * 1024 ** ['', 'Ki', 'Mi', 'Gi'].indexOf(unit);
}
