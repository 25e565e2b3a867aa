import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot, objectsIn } from '../e2e/support/files.js';
import { installCrd, type Crd } from '../e2e/support/install.js';
import type { KubeObject } from '../e2e/support/kube.js';
import { freePort } from '../support/free-port.js';
import { kube, printLogsOnFailure } from './support/context.js';
import { childUids, readyWithin } from './support/wait.js';
import { waitFor } from './support/cluster.js';

/**
 * docs/your-composition.md, through the real Metacontroller (issue 33): `modelhooks init` writes
 * the Greeter project; its composition, compiled, sits in a compositions directory as the image
 * has /compositions; a second hook server (`serve --no-builtin`, MODELHOOKS_COMPOSITIONS_DIR)
 * serves it; `manifests --hook-url` writes the CRD and the CompositeController for that server;
 * and a Greeter becomes Ready. The compiled module imports `modelhooks/kit` and `zod`, found in
 * the directory's parent node_modules, as the image links them (Dockerfile).
 */
const READY_BOUND_MS = 90_000;
const ns = 'live-greeter';
printLogsOnFailure();

const work = mkdtempSync(path.join(tmpdir(), 'modelhooks-live-greeter-'));
const project = path.join(work, 'greeter-hooks');
const compositions = path.join(work, 'compositions');
let server: ChildProcess | undefined;
let serverLog = '';
let hookUrl = '';

const cli = (args: string[], env: Record<string, string> = {}) =>
  execFileSync(fromRoot('node_modules/.bin/tsx'), ['hooks/cli/main.ts', ...args], { cwd: fromRoot(), encoding: 'utf8', env: { ...process.env, ...env } });

beforeAll(async () => {
  cli(['init', project]);
  // The image's layout: node_modules beside /compositions resolve modelhooks (here: this
  // repository's source, which the tsx-run server loads too, so there is one kit) and zod.
  mkdirSync(path.join(work, 'node_modules/modelhooks'), { recursive: true });
  symlinkSync(fromRoot('hooks'), path.join(work, 'node_modules/modelhooks/hooks'));
  writeFileSync(
    path.join(work, 'node_modules/modelhooks/package.json'),
    JSON.stringify({ name: 'modelhooks', type: 'module', exports: { './kit': './hooks/kit/index.ts' } }),
  );
  symlinkSync(fromRoot('node_modules/zod'), path.join(work, 'node_modules/zod'));
  // `npm run build`, for one file: ES2022 modules, as the project's tsconfig (NodeNext, "type": "module") emits.
  mkdirSync(compositions);
  const source = readFileSync(path.join(project, 'src/greeter.ts'), 'utf8');
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 }, fileName: 'greeter.ts' });
  writeFileSync(path.join(compositions, 'greeter.js'), js.outputText);
  writeFileSync(path.join(compositions, 'package.json'), '{"type":"module"}\n');

  const port = await freePort();
  hookUrl = `http://127.0.0.1:${port}`;
  server = spawn(fromRoot('node_modules/.bin/tsx'), ['hooks/cli/main.ts', 'serve', '--no-builtin'], {
    cwd: fromRoot(),
    env: { ...process.env, PORT: String(port), MODELHOOKS_HOST: '127.0.0.1', MODELHOOKS_DRAIN_SECONDS: '0', MODELHOOKS_COMPOSITIONS_DIR: compositions },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (d) => (serverLog += String(d)));
  server.stderr?.on('data', (d) => (serverLog += String(d)));
  const s = server;
  await waitFor(
    async () => (await fetch(`${hookUrl}/readyz`).catch(() => undefined))?.ok === true,
    60_000,
    () => (s.exitCode !== null ? `greeter hook server exited:\n${serverLog}` : ''),
  );
});

afterAll(async () => {
  await kube()
    .delete({ apiVersion: 'metacontroller.k8s.io/v1alpha1', kind: 'CompositeController', metadata: { name: 'greeter' } } as KubeObject)
    .catch(() => undefined);
  server?.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});

describe('an init-made Greeter, served from a compositions directory, through the real Metacontroller', () => {
  const k = kube();

  it('the server serves the directory’s composition alone', () => {
    expect(serverLog).toContain('"compositions":["greeter"]');
  });

  it('manifests --hook-url writes the CRD and a CompositeController calling that server; a Greeter becomes Ready', async () => {
    const deploy = path.join(work, 'deploy');
    cli(['manifests', '--no-builtin', '--dir', deploy, '--hook-url', hookUrl], { MODELHOOKS_COMPOSITIONS_DIR: compositions });
    const objects = [...objectsIn(path.join(deploy, 'crds')), ...objectsIn(path.join(deploy, 'compositions/base'))].map((o) => o.obj);
    const crd = objects.find((o) => o.kind === 'CustomResourceDefinition') as Crd;
    const controller = objects.find((o) => o.kind === 'CompositeController') as KubeObject;
    expect(JSON.stringify(controller)).toContain(`${hookUrl}/hooks/greeter/sync`);
    await installCrd(k, crd);
    await k.apply(controller);
    await k.ensureNamespace(ns);

    const greeter = { ...objectsIn(project).find((o) => o.obj.kind === 'Greeter')?.obj, metadata: { name: 'hello', namespace: ns } } as KubeObject;
    const applied = Date.now();
    const created = await k.apply(greeter);
    const { value, ms } = await readyWithin(k, greeter, READY_BOUND_MS, applied);
    console.log(`greeter.yaml: Ready ${(ms / 1000).toFixed(1)}s after apply`);
    expect(value.metadata.uid).toBe((created.metadata as { uid?: string }).uid);
    expect(Object.keys(await childUids(k, ns, value.metadata.uid ?? ''))).toEqual(['Deployment/hello', 'Service/hello']);
  });
});
