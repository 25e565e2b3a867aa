// deploy/ is what users apply: check the properties a reviewer would otherwise check by eye
// (availability, least privilege, the wiring between Service, URL and NetworkPolicy) and
// validate every object strictly, for deploy/ with every combination of its components. The
// e2e tier runs the real `kustomize build` against an API server; this needs neither (it checks
// its model of kustomize against the binary when the e2e tier has built one).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import { IN_CLUSTER_HOOK_URL, IN_CLUSTER_HTTPS_HOOK_URL } from '../../hooks/cli/manifests.js';
import { compositeControllerFor, DEFAULT_VARIANT, variantNames } from '../../hooks/engine/manifests.js';
import { type KubeObject, isObject, loadYamlFile, repoRoot } from '../support/reference.js';
import { expectValid } from '../support/validate.js';
import { build, type Edits, type Image, kustomizationFile, readKustomization } from './kustomize.js';

const root = repoRoot();
/** The release: the image's tag in deploy/ follows package.json's version. */
const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
const deployDir = path.join(root, 'deploy');
const baseDir = path.join(deployDir, 'base');
const componentsDir = path.join(deployDir, 'components');
const rel = (abs: string) => path.relative(root, abs) || '.';

const subdirs = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((d) => statSync(path.join(dir, d)).isDirectory())
        .sort()
    : [];
/** modelhooks' pod webhook (MODELHOOKS_POD_INJECTION=webhook): added after a TLS component, tested on its own below. */
const POD_WEBHOOK = 'pod-webhook';
const components = subdirs(componentsDir).filter((c) => c !== POD_WEBHOOK);
const variants = variantNames(builtinCompositions).filter((v) => v !== DEFAULT_VARIANT);
/** The components that secure the hooks (deploy/components/tls-*): one at most, not variants. */
const tlsComponents = components.filter((c) => c.startsWith('tls-'));

/** Every subset of the components, in the order deploy/components lists them: what users can enable (one TLS component at most). */
const subsets = components
  .reduce<string[][]>((acc, c) => [...acc, ...acc.map((s) => [...s, c])], [[]])
  .filter((s) => s.filter((c) => tlsComponents.includes(c)).length <= 1);

/** deploy/ with components enabled, as `kustomize edit add component components/<name>…` leaves it. */
const targets = subsets.map((enabled) => ({
  name: enabled.length === 0 ? 'deploy/' : `deploy/ + ${enabled.join(' + ')}`,
  enabled,
  edits: { components: enabled.map((c) => `components/${c}`) } satisfies Edits,
}));

/** The image docs/install.md sets, in the one place. */
const IMAGE: Image = { name: 'ghcr.io/modelhooks/modelhooks', newName: 'registry.example.com/modelhooks', newTag: '1.2.3' };

// Where the CompositeControllers send their calls: the Service must answer there.
const hookUrl = new URL(IN_CLUSTER_HOOK_URL);
const [serviceName, serviceNamespace] = hookUrl.hostname.split('.') as [string, string];

type Obj = KubeObject & { metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> }; spec: any };

const find = (objects: KubeObject[], kind: string, name?: string) =>
  objects.filter((o): o is Obj => o.kind === kind && (name === undefined || (o.metadata as { name?: string }).name === name));

function one(objects: KubeObject[], kind: string, name?: string): Obj {
  const found = find(objects, kind, name);
  expect(
    found.map((o) => `${kind}/${o.metadata.name}`),
    `exactly one ${kind}${name ? `/${name}` : ''}`,
  ).toHaveLength(1);
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
    expect(components.filter((c) => !tlsComponents.includes(c))).toEqual([...variants].sort());
    for (const c of components.filter((x) => !tlsComponents.includes(x))) {
      const k = readKustomization(path.join(componentsDir, c));
      expect(k.apiVersion).toBe('kustomize.config.k8s.io/v1alpha1');
      expect(k.kind).toBe('Component');
      expect((k.components ?? []).map((r) => path.resolve(componentsDir, c, r))).toEqual([path.join(root, 'compositions', 'components', c)]);
    }
  });

  it('has the TLS components, each including deploy/tls-server (and through it compositions/components/https)', () => {
    expect(tlsComponents).toEqual(['tls-cert-manager', 'tls-openshift-service-ca']);
    for (const c of tlsComponents) {
      const k = readKustomization(path.join(componentsDir, c));
      expect(k.kind).toBe('Component');
      expect((k.components ?? []).map((r) => path.resolve(componentsDir, c, r))).toEqual([path.join(deployDir, 'tls-server')]);
    }
    const server = readKustomization(path.join(deployDir, 'tls-server'));
    expect((server.components ?? []).map((r) => path.resolve(deployDir, 'tls-server', r))).toEqual([path.join(root, 'compositions', 'components', 'https')]);
  });

  it('refuses both TLS components together, in either order: the build stops with words that name both', () => {
    for (const order of [tlsComponents, [...tlsComponents].reverse()])
      expect(() => build(deployDir, { components: order.map((c) => `components/${c}`) }), order.join(' + ')).toThrow(
        'testing value /the TLS components tls-cert-manager and tls-openshift-service-ca exclude each other (enable one) failed',
      );
    // Alone, each builds, and its guard adds nothing.
    const plain = build(deployDir).length;
    expect(build(deployDir, { components: ['components/tls-openshift-service-ca'] }).length).toBe(plain + 1); // the service CA's ConfigMap
    expect(build(deployDir, { components: ['components/tls-cert-manager'] }).length).toBe(plain + 5); // two Issuers, three Certificates
  });

  it('docs/install.md\'s "Securing the hooks" names the TLS components and what they need, as they are', () => {
    const readme = readFileSync(path.join(root, 'docs/install.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Securing the hooks'), readme.indexOf('\n## ', readme.indexOf('## Securing the hooks')));
    expect(section.length).toBeGreaterThan(100);
    for (const c of tlsComponents) expect(section).toContain(`\`${c}\``);
    // The Secret it tells the admin to create is the one Metacontroller and the server read.
    const objects = build(deployDir, { components: ['components/tls-openshift-service-ca'] });
    const ref = (find(objects, 'CompositeController')[0] as Obj).spec.endpointConfigs[0].authorization.secretRef;
    expect(section).toContain(`kubectl -n ${ref.namespace} create secret generic ${ref.name} --from-literal=${ref.key}=`);
    // The port-forward reaches the Service's HTTPS and plain ports.
    const ports = (one(objects, 'Service', serviceName).spec.ports as any[]).map((p) => p.port);
    const forward = /port-forward svc\/(\S+) (\d+):(\d+) (\d+):(\d+)/.exec(section);
    expect(forward?.[1]).toBe(serviceName);
    expect([Number(forward?.[3]), Number(forward?.[5])]).toEqual(ports);
    const client = one(build(deployDir, { components: ['components/tls-cert-manager'] }), 'Certificate', 'metacontroller-client');
    expect(section).toContain(`\`${client.spec.secretName}\``);
  });

  it('sets the image in one place: deploy/kustomization.yaml', () => {
    const withImages = kustomizationDirs(deployDir).filter((d) => (readKustomization(d).images ?? []).length > 0);
    expect(withImages.map(rel)).toEqual(['deploy']);
    expect(readKustomization(deployDir).images).toEqual([{ name: IMAGE.name, newTag: version }]);
  });

  it.each(targets.map((t) => [t.name, t.edits]))('%s: `kustomize edit set image` in deploy/ sets the image of the hook server', (_name, edits) => {
    expect(image(build(deployDir, edits))).toBe(`ghcr.io/modelhooks/modelhooks:${version}`);
    expect(image(build(deployDir, { ...edits, images: [IMAGE] }))).toBe('registry.example.com/modelhooks:1.2.3');
  });

  it.each(targets.map((t) => [t.name, t.enabled, t.edits] as const))(
    "%s: the CompositeControllers are the kit's for these variants",
    (_name, enabled, edits) => {
      const controllers = find(build(deployDir, edits), 'CompositeController');
      const tls = enabled.some((c) => tlsComponents.includes(c));
      const expected = builtinCompositions.map((c) =>
        compositeControllerFor(
          c,
          enabled.filter((e) => variants.includes(e)),
          { hookBaseUrl: tls ? IN_CLUSTER_HTTPS_HOOK_URL : IN_CLUSTER_HOOK_URL },
        ),
      );
      // The TLS components add spec.endpointConfigs (checked below) and change nothing else.
      expect(controllers.map((cc) => ({ ...cc, spec: { ...cc.spec, endpointConfigs: undefined } }))).toEqual(
        expected.map((cc: any) => ({ ...cc, spec: { ...cc.spec, endpointConfigs: undefined } })),
      );
      expect(controllers.every((cc) => (cc.spec.endpointConfigs !== undefined) === tls)).toBe(true);
    },
  );

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
    const named = new Set(
      examples
        .flatMap((f) => loadYamlFile(path.join(root, 'examples', f)))
        .map((o) => (o.metadata as { namespace?: string }).namespace)
        .filter((n) => n !== undefined),
    );
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

  it("deploy/metacontroller raises the client-go rate limit of Metacontroller's StatefulSet", () => {
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
  const tls = target.enabled.find((c) => tlsComponents.includes(c));
  const url = new URL(tls ? IN_CLUSTER_HTTPS_HOOK_URL : IN_CLUSTER_HOOK_URL);
  const urlPort = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  /** The container port the hooks are served on, and the plain-HTTP one of the probes and /metrics (MODELHOOKS_METRICS_PORT). */
  const hookPort = server.ports[0];
  const plainPort = (server.ports as any[]).find((p) => p.name === 'metrics');
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
    // The V8 flag node refuses in NODE_OPTIONS (docs/development.md "Garbage collection: the node flags"; test/bench/node-flags.test.ts).
    expect([...(server.command ?? []), ...(server.args ?? [])]).toEqual(['node', '--initial-old-space-size=48', 'dist/hooks/cli/main.js', 'serve']);
    expect(server.ports).toEqual([
      tls ? { name: 'https', containerPort: 8443, protocol: 'TCP' } : { name: 'http', containerPort: 8080, protocol: 'TCP' },
      { name: 'metrics', containerPort: 9090, protocol: 'TCP' },
    ]);
    // Probes go to their own plain-HTTP port (issue 32: the kubelet never shares the hook port's fate; no client certificate).
    expect(server.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'metrics' });
    expect(server.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'metrics' });
    expect(server.resources.requests).toMatchObject({ cpu: expect.anything(), memory: expect.anything() });
    expect(server.resources.limits.memory).toBeDefined();
  });

  it('configures the server with valid values, and stops within the grace period', () => {
    const env = Object.fromEntries((server.env ?? []).map((e: { name: string; value?: string }) => [e.name, e.value]));
    for (const name of Object.keys(env)) expect(name).toMatch(/^(PORT|MODELHOOKS_[A-Z0-9_]+|NODE_OPTIONS)$/);
    for (const name of ['PORT', 'MODELHOOKS_LOG_LEVEL', 'MODELHOOKS_SHUTDOWN_TIMEOUT_SECONDS']) expect(env).toHaveProperty(name);
    const config = loadConfig(env);
    expect(config.port).toBe(hookPort.containerPort);
    expect(config.metricsPort).toBe(plainPort.containerPort);
    expect(Boolean(config.tls)).toBe(Boolean(tls));
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
    const port = (service.spec.ports as any[]).find((p) => p.port === urlPort);
    expect(port, `Service port ${urlPort}`).toBeDefined();
    expect(port.targetPort).toBe(hookPort.name);
    expect(url.hostname).toBe(`${serviceName}.${serviceNamespace}.svc`);
    const controllers = find(objects, 'CompositeController');
    expect(controllers.length).toBeGreaterThan(0);
    for (const cc of controllers) {
      const hooks = Object.values(cc.spec.hooks ?? {}) as { webhook?: { url?: string } }[];
      expect(hooks.length).toBeGreaterThan(0);
      for (const hook of hooks) expect(hook.webhook?.url, cc.metadata.name).toMatch(new RegExp(`^${url.origin.replace(/\./g, '\\.')}/hooks/`));
    }
  });

  it('lets only Metacontroller (and a scraper, where one is installed) reach the pods, and nothing leave them', () => {
    const policy = one(objects, 'NetworkPolicy');
    expect(selects(policy.spec.podSelector.matchLabels, podLabels)).toBe(true);
    expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    // Egress denied: the server needs none (issue 32 item 8).
    expect(policy.spec.egress ?? []).toEqual([]);
    const rules = policy.spec.ingress as any[];
    const sources = rules.map((r) => {
      // A rule without `from` or with an empty selector would let every pod in.
      expect(r.from?.length, 'every rule names its source').toBeGreaterThan(0);
      return r.from.map((f: any) => {
        expect(Object.keys(f)).toEqual(['namespaceSelector']);
        return f.namespaceSelector.matchLabels['kubernetes.io/metadata.name'] as string;
      });
    });
    expect(sources[0]).toEqual(['metacontroller']);
    // Metacontroller reaches the hooks; a scraper only the plain-HTTP port (with TLS: /metrics and probes alone).
    expect(rules[0].ports).toEqual([{ port: hookPort.containerPort, protocol: 'TCP' }]);
    for (const r of rules.slice(1)) expect(r.ports).toEqual([{ port: plainPort.containerPort, protocol: 'TCP' }]);
    expect(sources.flat()).toEqual(target.enabled.includes('prometheus') ? ['metacontroller', 'monitoring'] : ['metacontroller']);
  });

  it(`has a ServiceMonitor for the hook server only with the prometheus component`, () => {
    expect(find(objects, 'ServiceMonitor')).toHaveLength(target.enabled.includes('prometheus') ? 1 : 0);
  });

  if (target.enabled.includes('prometheus')) {
    it('has a ServiceMonitor that scrapes /metrics on the metrics port of the Service', () => {
      const monitor = one(objects, 'ServiceMonitor');
      const service = one(objects, 'Service', serviceName);
      expect(monitor.metadata.namespace).toBe(serviceNamespace);
      expect(selects(monitor.spec.selector.matchLabels, service.metadata.labels)).toBe(true);
      expect(monitor.spec.endpoints).toEqual([expect.objectContaining({ port: 'metrics', path: '/metrics' })]);
      const servicePort = (service.spec.ports as any[]).find((p) => p.name === 'metrics');
      // ... which reaches the container's plain-HTTP port (with TLS: the metrics port), without TLS.
      expect(servicePort.targetPort).toBe(plainPort.name);
      expect(monitor.spec.endpoints[0].scheme ?? 'http').toBe('http');
    });
  }

  if (tls) tlsChecks(objects, tls, server, pod);

  it('is valid, patches applied', () => {
    for (const o of objects.filter((x) => x.kind !== 'CompositeController' && x.kind !== 'CustomResourceDefinition')) expectValid(o);
  });
});

// The e2e tier builds kustomize into .cache/e2e/bin; where it is (or one is on PATH), check the
// model against it, running docs/install.md's commands in a copy of the repository's install files.
// Without one these tests are skipped, and the run says so and why (issue 33).
const kustomizeBin = [
  path.join(root, '.cache/e2e/bin/current/kustomize'),
  ...(process.env.PATH ?? '').split(path.delimiter).map((d) => path.join(d, 'kustomize')),
].find((f) => f && existsSync(f));
const kustomizeMissing = kustomizeBin ? undefined : 'no kustomize binary (`npm run test:e2e` builds one into .cache/e2e/bin; or put kustomize on PATH)';
if (kustomizeMissing) process.stderr.write(`test/deploy/deploy.test.ts: skipping the checks against the real kustomize: ${kustomizeMissing}\n`);

describe.each(tlsComponents.map((c) => [c]))(`deploy/ + %s + ${POD_WEBHOOK}`, (tls) => {
  const objects = build(deployDir, { components: [`components/${tls}`, `components/${POD_WEBHOOK}`] });
  const deployment = one(objects, 'Deployment', 'modelhooks');
  const [server] = deployment.spec.template.spec.containers as any[];
  const env = Object.fromEntries((server.env ?? []).map((e: { name: string; value?: string }) => [e.name, e.value]));
  const config = loadConfig(env);
  const webhook = one(objects, 'MutatingWebhookConfiguration', 'modelhooks-pod-webhook');
  const [hook] = webhook.webhooks as any[];

  it('needs a TLS component before it: the build stops without one (the API server calls webhooks over HTTPS only)', () => {
    expect(() => build(deployDir, { components: [`components/${POD_WEBHOOK}`] })).toThrow(/\/spec\/ports\/0\/name/);
    expect(config.tls).toBeDefined();
  });

  it('serves the webhook on MODELHOOKS_WEBHOOK_PORT, the Service port the MutatingWebhookConfiguration names, in webhook mode', () => {
    expect(config.hooks.inferenceservice.podInjection).toBe('webhook');
    const port = (server.ports as any[]).find((p) => p.name === 'webhook');
    expect(port.containerPort).toBe(config.webhookPort);
    const service = one(objects, 'Service', serviceName);
    const servicePort = (service.spec.ports as any[]).find((p) => p.port === hook.clientConfig.service.port);
    expect(servicePort.targetPort).toBe('webhook');
    expect(hook.clientConfig.service).toMatchObject({ name: serviceName, namespace: serviceNamespace, path: '/mutate-pods' });
    // The NetworkPolicy lets the API server (no selector names the control plane) reach that port only.
    const rules = one(objects, 'NetworkPolicy').spec.ingress as any[];
    expect(rules.filter((r) => r.from === undefined)).toEqual([{ ports: [{ port: config.webhookPort, protocol: 'TCP' }] }]);
  });

  it("selects what KServe v0.20.0's pod mutator selects, and fails closed (config/webhook/manifests.yaml)", () => {
    expect(hook.objectSelector).toEqual({ matchExpressions: [{ key: 'serving.kserve.io/inferenceservice', operator: 'Exists' }] });
    expect(hook.namespaceSelector).toEqual({ matchExpressions: [{ key: 'control-plane', operator: 'DoesNotExist' }] });
    expect(hook.rules).toEqual([{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }]);
    expect([hook.failurePolicy, hook.reinvocationPolicy, hook.sideEffects]).toEqual(['Fail', 'IfNeeded', 'None']);
  });

  it("has its CA injected by the TLS component's issuer (cert-manager from the serving Certificate, or the service CA)", () => {
    const annotations = webhook.metadata.annotations ?? {};
    if (tls === 'tls-cert-manager') {
      const certificate = one(objects, 'Certificate', 'modelhooks-serving');
      expect(annotations['cert-manager.io/inject-ca-from']).toBe(`${certificate.metadata.namespace}/${certificate.metadata.name}`);
    } else expect(annotations['service.beta.openshift.io/inject-cabundle']).toBe('true');
  });

  it('runs one replica (a replica knows the injections of the syncs it answered), and resyncs InferenceServices every 30 s', () => {
    expect(deployment.spec.replicas).toBe(1);
    expect(one(objects, 'PodDisruptionBudget').spec).toMatchObject({ maxUnavailable: 1 });
    expect(one(objects, 'CompositeController', 'modelhooks-inferenceservice').spec.resyncPeriodSeconds).toBe(30);
  });

  it('is valid, patches applied', () => {
    // The vendored OpenAPI documents have no admissionregistration.k8s.io: the migration test (test/oracle) creates this one on a real API server.
    for (const o of objects.filter((x) => !['CompositeController', 'CustomResourceDefinition', 'MutatingWebhookConfiguration'].includes(String(x.kind))))
      expectValid(o);
  });
});

describe.skipIf(kustomizeMissing !== undefined)(
  `test/deploy/kustomize.ts against the real kustomize${kustomizeMissing ? ` (skipped: ${kustomizeMissing})` : ''}`,
  () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'modelhooks-deploy-'));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));
    const kustomize = (cwd: string, ...args: string[]) => execFileSync(kustomizeBin as string, args, { cwd, encoding: 'utf8', stdio: 'pipe' });
    const key = (o: any) => `${o.kind} ${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
    const objectsOf = (yaml: string) =>
      new Map(
        parseAllDocuments(yaml)
          .map((d) => d.toJS())
          .filter(isObject)
          .map((o) => [key(o), o]),
      );
    const same = (real: Map<string, unknown>, modelled: KubeObject[]) => {
      const model = new Map(modelled.map((o) => [key(o), o]));
      expect([...model.keys()].sort()).toEqual([...real.keys()].sort());
      for (const [k, o] of model) expect(o, k).toEqual(real.get(k));
    };

    it.each(targets.map((t, i) => [t.name, t, i] as const))(
      '%s: `kustomize edit add component` and `edit set image`, then build, make the same objects',
      (_name, target, i) => {
        const copy = path.join(scratch, String(i));
        for (const dir of ['deploy', 'crds', 'compositions']) cpSync(path.join(root, dir), path.join(copy, dir), { recursive: true });
        const deploy = path.join(copy, 'deploy');
        if (target.enabled.length > 0) kustomize(deploy, 'edit', 'add', 'component', ...target.edits.components);
        kustomize(deploy, 'edit', 'set', 'image', `${IMAGE.name}=${IMAGE.newName}:${IMAGE.newTag}`);
        same(objectsOf(kustomize(deploy, 'build', '.')), build(deployDir, { ...target.edits, images: [IMAGE] }));
      },
    );

    it('stops on both TLS components, in either order, with the words of their guard (as the model)', () => {
      for (const [i, order] of [tlsComponents, [...tlsComponents].reverse()].entries()) {
        const copy = path.join(scratch, `both-tls-${i}`);
        for (const dir of ['deploy', 'crds', 'compositions']) cpSync(path.join(root, dir), path.join(copy, dir), { recursive: true });
        const deploy = path.join(copy, 'deploy');
        kustomize(deploy, 'edit', 'add', 'component', ...order.map((c) => `components/${c}`));
        let stderr = '';
        try {
          kustomize(deploy, 'build', '.');
        } catch (e) {
          stderr = String((e as { stderr?: unknown }).stderr);
        }
        expect(stderr, order.join(' + ')).toContain(
          `components/${order[1]}': testing value /the TLS components tls-cert-manager and tls-openshift-service-ca exclude each other (enable one) failed: test failed`,
        );
      }
    });

    it.each([['deploy/examples'], ['test/deploy/fixtures/metacontroller'], ['test/deploy/fixtures/own-kustomization'], ['crds']])(
      'builds %s to the same objects',
      (dir) => {
        same(objectsOf(kustomize(root, 'build', dir)), build(path.join(root, dir)));
      },
    );
  },
);

describe('deploy/ files', () => {
  // A MutatingWebhookConfiguration has no vendored schema (the pod webhook's block above says where it is checked).
  it.each(
    deployFileObjects()
      .filter(({ object }) => object.kind !== 'MutatingWebhookConfiguration')
      .map(({ file, object }) => [`${file}: ${String(object.kind)}`, object]),
  )('%s is valid', (_name, object) => {
    expectValid(object);
  });

  it('names the image as a placeholder to override', () => {
    const deployment = one(loadYamlFile(path.join(baseDir, 'deployment.yaml')), 'Deployment');
    expect(deployment.spec.template.spec.containers[0].image).toBe(`ghcr.io/modelhooks/modelhooks:${version}`);
  });
});

/** What a TLS component must wire up, beyond what every target checks. */
function tlsChecks(objects: KubeObject[], tls: string, server: any, pod: any): void {
  const env = Object.fromEntries((server.env ?? []).map((e: { name: string; value?: string }) => [e.name, e.value]));
  const host = new URL(IN_CLUSTER_HTTPS_HOOK_URL).hostname;
  const certificates = find(objects, 'Certificate');
  /** The keys a Secret volume will hold: cert-manager's (tls.crt, tls.key, ca.crt) or the service CA's (tls.crt, tls.key), or the documented token. */
  const secretKeys = (name: string): string[] => {
    if (certificates.some((c) => c.spec.secretName === name)) return ['tls.crt', 'tls.key', 'ca.crt'];
    const service = one(objects, 'Service', serviceName);
    if (service.metadata.annotations?.['service.beta.openshift.io/serving-cert-secret-name'] === name) return ['tls.crt', 'tls.key'];
    if (name === 'modelhooks-token') return ['token'];
    return [];
  };

  it('mounts the Secrets read-only, and its *_FILE settings name files that are in them', () => {
    const files = ['MODELHOOKS_TLS_CERT_FILE', 'MODELHOOKS_TLS_KEY_FILE', 'MODELHOOKS_CLIENT_CA_FILE', 'MODELHOOKS_TOKEN_FILE'].filter((n) => env[n]);
    expect(files).toEqual(
      tls === 'tls-cert-manager'
        ? ['MODELHOOKS_TLS_CERT_FILE', 'MODELHOOKS_TLS_KEY_FILE', 'MODELHOOKS_CLIENT_CA_FILE']
        : ['MODELHOOKS_TLS_CERT_FILE', 'MODELHOOKS_TLS_KEY_FILE', 'MODELHOOKS_TOKEN_FILE'],
    );
    for (const name of files) {
      const file = env[name] as string;
      const mount = (server.volumeMounts as any[]).find((m) => path.posix.dirname(file) === m.mountPath);
      expect(mount, `${name}=${file} is in a mount`).toBeDefined();
      expect(mount.readOnly, mount.name).toBe(true);
      const volume = (pod.volumes as any[]).find((v) => v.name === mount.name);
      expect(volume.secret?.secretName, `${mount.name} is a Secret volume`).toBeDefined();
      expect(volume.secret.items, 'the whole Secret').toBeUndefined();
      expect(secretKeys(volume.secret.secretName), `${name}: ${volume.secret.secretName}`).toContain(path.posix.basename(file));
    }
    expect(env.MODELHOOKS_METRICS_PORT).toBeDefined();
  });

  it('sends every hook call through one endpointConfigs entry for the Service host, with a CA and a credential', () => {
    for (const cc of find(objects, 'CompositeController')) {
      const configs = cc.spec.endpointConfigs as any[];
      expect(configs.map((c) => c.host)).toEqual([host]);
      for (const hook of Object.values(cc.spec.hooks) as any[]) {
        // A caBundle/clientTLS/authorization on the webhook would replace the entry (pkg/hooks/endpoint_config.go).
        expect(Object.keys(hook.webhook).filter((k) => ['caBundle', 'clientTLS', 'authorization', 'basicAuth'].includes(k))).toEqual([]);
        expect(new URL(hook.webhook.url).host).toBe(host);
      }
      const [entry] = configs;
      expect(entry.caBundle).toBeDefined();
      if (tls === 'tls-cert-manager') {
        const ca = one(objects, 'Certificate', entry.caBundle.secretRef.name);
        expect(ca.spec).toMatchObject({ isCA: true, secretName: entry.caBundle.secretRef.name });
        expect(entry.caBundle.secretRef).toEqual({ name: ca.spec.secretName, namespace: ca.metadata.namespace, key: 'ca.crt' });
        const client = certificates.find((c) => c.spec.secretName === entry.clientTLS.secretRef.name) as Obj;
        expect(client.spec.usages).toContain('client auth');
        expect(entry.clientTLS).toEqual({
          secretRef: { name: client.spec.secretName, namespace: client.metadata.namespace },
          certKey: 'tls.crt',
          privateKeyKey: 'tls.key',
        });
        // The server trusts the CA that signed the client certificate: both come from the same Issuer.
        const serving = certificates.find((c) => c.spec.secretName === pod.volumes.find((v: any) => v.name === 'tls').secret.secretName) as Obj;
        expect(serving.spec.issuerRef).toEqual(client.spec.issuerRef);
        expect(one(objects, 'Issuer', client.spec.issuerRef.name).spec).toEqual({ ca: { secretName: ca.spec.secretName } });
        expect(serving.spec.dnsNames).toContain(host);
        expect(serving.spec.usages).toContain('server auth');
        expect(entry.authorization).toBeUndefined();
      } else {
        const configMap = one(objects, 'ConfigMap', entry.caBundle.configMapRef.name);
        expect(configMap.metadata.annotations).toEqual({ 'service.beta.openshift.io/inject-cabundle': 'true' });
        expect(entry.caBundle.configMapRef).toEqual({ name: configMap.metadata.name, namespace: configMap.metadata.namespace, key: 'service-ca.crt' });
        expect(entry.clientTLS).toBeUndefined();
        // The token Metacontroller sends is the file the server compares with.
        const tokenVolume = pod.volumes.find((v: any) => v.secret?.secretName === entry.authorization.secretRef.name);
        const tokenMount = server.volumeMounts.find((m: any) => m.name === tokenVolume.name);
        expect(env.MODELHOOKS_TOKEN_FILE).toBe(`${tokenMount.mountPath}/${entry.authorization.secretRef.key}`);
        expect(entry.authorization).toEqual({ type: 'Bearer', secretRef: { name: 'modelhooks-token', namespace: serviceNamespace, key: 'token' } });
      }
    }
  });

  it("has the CompositeControllers valid against Metacontroller's CRD (v4.17 fields)", () => {
    for (const cc of find(objects, 'CompositeController')) expectValid(cc);
  });
}

/** `512Mi` → bytes (the binary suffixes this repo uses). */
function memoryBytes(quantity: string): number {
  const [, digits, unit = ''] = /^(\d+)(Ki|Mi|Gi)?$/.exec(quantity) ?? [];
  return Number(digits) * 1024 ** ['', 'Ki', 'Mi', 'Gi'].indexOf(unit);
}
