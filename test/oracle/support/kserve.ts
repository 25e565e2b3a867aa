import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { freePort, logTail, spawnLogged, terminate } from '../../e2e/support/cluster.js';
import { readObjects } from '../../e2e/support/files.js';
import { type Crd, installCrd } from '../../e2e/support/install.js';
import type { Kube, KubeObject } from '../../e2e/support/kube.js';
import { waitFor } from '../../live/support/cluster.js';

/** KServe's namespace, as its kustomization and Helm chart name it (`$(kserveNamespace)`). */
export const KSERVE_NAMESPACE = 'kserve';
export const CONFIG_NAME = 'inferenceservice-config';

/**
 * `config/crd/full` of the KServe module: InferenceService, InferenceGraph, ServingRuntime,
 * ClusterServingRuntime, TrainedModel, and the local model CRDs (the manager watches them);
 * not the LLMInferenceService ones (v1alpha2, another controller).
 */
export function kserveCrds(moduleDir: string): Crd[] {
  const dirs = ['config/crd/full', 'config/crd/full/localmodel', 'config/crd/full/clusterstoragecontainer'].map((d) => path.join(moduleDir, d));
  return dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
      .flatMap((f) => readObjects(path.join(dir, f))),
  ) as Crd[];
}

/**
 * `config/configmap/inferenceservice.yaml` in raw ("Standard") mode, with Istio's VirtualService
 * off (no Istio here), each key a JSON document as KServe reads it; `overrides` are merged into
 * those documents key by key (a corpus group's `inferenceservice-config` variation).
 */
export function kserveConfig(moduleDir: string, overrides: Record<string, Record<string, unknown>> = {}): KubeObject {
  const [cm] = readObjects(path.join(moduleDir, 'config/configmap/inferenceservice.yaml'));
  return configWith((cm?.data ?? {}) as Record<string, string>, overrides);
}

/** `inferenceservice-config` from the shipped data: Standard mode, no VirtualService, then `overrides` merged key by key (without `_example`). */
export function configWith(shipped: Record<string, string>, overrides: Record<string, Record<string, unknown>> = {}): KubeObject {
  const data = { ...shipped };
  delete data._example;
  const patch: Record<string, Record<string, unknown>> = {
    deploy: { defaultDeploymentMode: 'Standard' },
    ingress: { disableIstioVirtualHost: true },
  };
  for (const [key, value] of Object.entries(overrides)) patch[key] = { ...(patch[key] ?? {}), ...value };
  for (const [key, value] of Object.entries(patch)) {
    data[key] = JSON.stringify({ ...(JSON.parse(data[key] ?? '{}') as Record<string, unknown>), ...value }, null, 2);
  }
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: CONFIG_NAME, namespace: KSERVE_NAMESPACE }, data };
}

/**
 * `config/runtimes`'s ClusterServingRuntimes with the kustomization's image mapping applied
 * (`<name>:replace` → newName:newTag), KServe's own images pinned to the release as its Helm
 * chart renders them (`latest` → the version), as test/inferenceservice/kserve-runtimes.test.ts
 * reads them.
 */
export function kserveRuntimes(moduleDir: string, version: string): KubeObject[] {
  const dir = path.join(moduleDir, 'config/runtimes');
  const kustomization = parseAllDocuments(readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8'))[0]?.toJS() as {
    resources: string[];
    images: Array<{ name: string; newName: string; newTag: string }>;
  };
  const image = (replace: string) => {
    const entry = kustomization.images.find((i) => i.name === replace.replace(/:replace$/, ''));
    if (!entry) return replace;
    return `${entry.newName}:${entry.newTag === 'latest' && entry.newName.startsWith('kserve/') ? version : entry.newTag}`;
  };
  return kustomization.resources.flatMap((f) =>
    readObjects(path.join(dir, f)).map((rt) => {
      const spec = rt.spec as { containers?: Array<{ image?: string }>; workerSpec?: { containers?: Array<{ image?: string }> } };
      for (const c of [...(spec.containers ?? []), ...(spec.workerSpec?.containers ?? [])]) if (c.image) c.image = image(c.image);
      return rt;
    }),
  );
}

/**
 * `config/webhook/manifests.yaml` with each `clientConfig.service` replaced by a URL on
 * loopback (the manager runs on the host) and the CA that signed its serving certificate.
 */
export function kserveWebhooks(moduleDir: string, port: number, caPem: string): KubeObject[] {
  return readObjects(path.join(moduleDir, 'config/webhook/manifests.yaml')).map((cfg) => {
    const webhooks = (cfg.webhooks as Array<{ clientConfig: { service?: { path: string }; url?: string; caBundle?: string } }>).map((w) => ({
      ...w,
      clientConfig: { url: `https://127.0.0.1:${port}${w.clientConfig.service?.path ?? '/'}`, caBundle: Buffer.from(caPem).toString('base64') },
    }));
    return { ...cfg, webhooks };
  });
}

export interface KServeInstall {
  moduleDir: string;
  version: string;
  /** The manager binary (test/oracle/build.sh). */
  binary: string;
  /** The cluster's temp dir: its logs, and ca.crt / server.crt / server.key (SAN 127.0.0.1) signed by the API server's CA. */
  dir: string;
  kubeconfig: string;
  /** Run once the CRDs, ConfigMap, runtimes and webhooks are in, before the manager starts (kube-controller-manager). */
  beforeStart?: () => Promise<void>;
}

export interface KServeManager {
  /** (Re)writes `inferenceservice-config` with these overrides and restarts the manager (it reads deploy and ingress keys at start); resolves once ready. */
  restart(overrides?: Record<string, Record<string, unknown>>): Promise<number>;
  stop(): Promise<void>;
  /** Seconds the last start took, until its webhook server answered /readyz. */
  startSeconds: number;
  logTail(): string;
}

/**
 * Installs KServe v0.20.0 as its kustomization does (CRDs, namespace, ConfigMap, runtimes,
 * webhooks by URL) and starts its manager on the host: `POD_NAMESPACE=kserve`, its serving
 * certificate in `$TMPDIR/k8s-webhook-server/serving-certs` (controller-runtime's default dir),
 * no leader election. Resolves once the manager's /readyz (its webhook server started) is 200.
 */
export async function installKServe(kube: Kube, opts: KServeInstall): Promise<KServeManager> {
  for (const crd of kserveCrds(opts.moduleDir)) await installCrd(kube, crd);
  await kube.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: KSERVE_NAMESPACE, labels: { 'control-plane': 'kserve-controller-manager' } } });
  await kube.apply(kserveConfig(opts.moduleDir));
  for (const rt of kserveRuntimes(opts.moduleDir, opts.version)) await kube.apply(rt);

  const tmp = path.join(opts.dir, 'kserve-tmp');
  const certs = path.join(tmp, 'k8s-webhook-server', 'serving-certs');
  mkdirSync(certs, { recursive: true });
  copyFileSync(path.join(opts.dir, 'server.crt'), path.join(certs, 'tls.crt'));
  copyFileSync(path.join(opts.dir, 'server.key'), path.join(certs, 'tls.key'));
  const [webhookPort, metricsPort, probePort] = [await freePort(), await freePort(), await freePort()];
  for (const cfg of kserveWebhooks(opts.moduleDir, webhookPort, readFileSync(path.join(opts.dir, 'ca.crt'), 'utf8'))) await kube.apply(cfg);

  let proc: ChildProcess | undefined;
  const start = async () => {
    const t0 = Date.now();
    proc = withEnv({ POD_NAMESPACE: KSERVE_NAMESPACE, TMPDIR: tmp }, () =>
      spawnLogged(opts.dir, 'kserve-manager', opts.binary, [
        `--metrics-addr=127.0.0.1:${metricsPort}`,
        `--health-probe-addr=127.0.0.1:${probePort}`,
        `--webhook-port=${webhookPort}`,
        '--leader-elect=false',
        `--kubeconfig=${opts.kubeconfig}`,
      ]),
    );
    const p = proc;
    await waitFor(
      async () => (await fetch(`http://127.0.0.1:${probePort}/readyz`).catch(() => undefined))?.ok === true,
      120_000,
      () => (p.exitCode !== null ? `kserve-manager exited:\n${logTail(opts.dir, 'kserve-manager')}` : ''),
    );
    return (Date.now() - t0) / 1000;
  };
  const manager: KServeManager = {
    startSeconds: 0,
    async restart(overrides = {}) {
      if (proc) await terminate(proc);
      await kube.apply(kserveConfig(opts.moduleDir, overrides));
      manager.startSeconds = await start();
      return manager.startSeconds;
    },
    async stop() {
      if (proc) await terminate(proc);
    },
    logTail: () => logTail(opts.dir, 'kserve-manager'),
  };
  await opts.beforeStart?.();
  manager.startSeconds = await start();
  return manager;
}

/** Runs `fn` with these variables in process.env (spawnLogged gives a child the parent's environment), restored after. */
function withEnv<T>(env: Record<string, string>, fn: () => T): T {
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return fn();
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
