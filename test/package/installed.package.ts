// `npm run test:package`: packs modelhooks, installs the tarball into a temporary project
// (as a user would, from the npm registry or its cache), then from that project's side:
// compiles the shipped examples/custom with tsc, runs their vitest tests, and serves the
// compiled composition with `modelhooks serve --composition`, answering a sync request.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');
const work = mkdtempSync(path.join(tmpdir(), 'modelhooks-package-'));
const keep = process.env.KEEP_PACKAGE_PROJECT === '1';
const project = path.join(work, 'project');
const timings: Array<[string, number]> = [];

function timed<T>(step: string, fn: () => T): T {
  const start = performance.now();
  try {
    return fn();
  } finally {
    timings.push([step, Math.round(performance.now() - start) / 1000]);
  }
}

/** Runs a command; returns stdout and stderr together, or throws with both. */
function sh(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false', NO_COLOR: '1', FORCE_COLOR: '0' },
    }) as string;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

const versionOf = (name: string) => (JSON.parse(readFileSync(path.join(repo, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

let installLog = '';

beforeAll(() => {
  const tarball = timed('npm pack (build included)', () => {
    const out = sh('npm', ['pack', '--silent', '--pack-destination', work], repo).trim().split('\n').at(-1) as string;
    return path.join(work, out);
  });
  cpSync(path.join(repo, 'examples/custom'), path.join(project, 'src'), { recursive: true });
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'my-compositions', private: true, type: 'module' }, null, 2));
  // The user's compiler settings: strict, NodeNext, and the library declarations checked too.
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: false,
          outDir: 'dist',
          rootDir: 'src',
          types: ['node'],
        },
        include: ['src'],
      },
      null,
      2,
    ),
  );
  installLog = timed('npm install (tarball, typescript, vitest)', () =>
    sh(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        tarball,
        `typescript@${versionOf('typescript')}`,
        `vitest@${versionOf('vitest')}`,
        `@types/node@${versionOf('@types/node')}`,
      ],
      project,
    ),
  );
});

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
  process.stdout.write(`package tier timings (s): ${timings.map(([step, s]) => `${step} ${s}`).join(', ')}\n`);
  if (keep) process.stdout.write(`kept ${project}\n`);
  else rmSync(work, { recursive: true, force: true });
});

describe('the packed package, installed into a new project', () => {
  it('installs zod (its peer) and neither @kubernetes/client-node nor an EBADENGINE warning', () => {
    expect(installLog).not.toMatch(/EBADENGINE/);
    expect(existsSync(path.join(project, 'node_modules/zod/package.json'))).toBe(true);
    expect(existsSync(path.join(project, 'node_modules/@kubernetes/client-node'))).toBe(false);
    expect(readdirSync(path.join(project, 'node_modules/modelhooks/examples/custom')).sort()).toEqual(['echo.test.ts', 'echo.ts']);
  });

  it('compiles the shipped example with tsc against modelhooks/kit, /testing and /server', () => {
    timed('tsc (example, without @kubernetes/client-node)', () => sh('npx', ['tsc', '-p', '.', '--skipLibCheck'], project));
    expect(existsSync(path.join(project, 'dist/echo.js'))).toBe(true);
  });

  it("type-checks the package's .d.ts files too, with the optional type peers installed", () => {
    const dev = (JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;
    // @types/ws is not ours: @kubernetes/client-node's own declarations need it once libraries are checked.
    const types = [`@kubernetes/client-node@${dev['@kubernetes/client-node']}`, '@types/ws@^8'];
    timed('npm install the type peers', () => sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...types], project));
    timed('tsc (example and the .d.ts files)', () => sh('npx', ['tsc', '-p', '.'], project));
  });

  it("runs the example's vitest tests", () => {
    const out = timed('vitest (example tests)', () => sh('npx', ['vitest', 'run', 'src'], project));
    expect(out).toMatch(/Tests\s+\d+ passed/);
  });

  it("writes the composition's CRD and CompositeController with docs/writing-compositions.md's `npx modelhooks manifests` command", () => {
    const command = ['modelhooks', 'manifests', '--composition', 'dist/echo.js', '--no-builtin', '--dir', 'deploy/echo'];
    expect(readFileSync(path.join(repo, 'docs/writing-compositions.md'), 'utf8')).toContain(`\nnpx ${command.join(' ')}\n`);
    const out = timed('modelhooks manifests', () => sh('npx', command, project));
    expect(out).toMatch(/^wrote crds\/echoes\.example\.dev\.yaml, /);
    const crd = readFileSync(path.join(project, 'deploy/echo/crds/echoes.example.dev.yaml'), 'utf8');
    expect(crd).toContain('kind: CustomResourceDefinition');
    expect(crd).toContain('message:');
    expect(readFileSync(path.join(project, 'deploy/echo/compositions/base/echo.yaml'), 'utf8')).toContain(
      'url: http://modelhooks.modelhooks-system.svc/hooks/echo/sync',
    );
    expect(existsSync(path.join(project, 'deploy/echo/crds/trustyaiservices.trustyai.opendatahub.io.yaml'))).toBe(false);
  });

  it('serves the compiled composition with `modelhooks serve --composition`, beside the built-in ones', async () => {
    const port = await freePort();
    const started = performance.now();
    const server = spawn(process.execPath, ['node_modules/.bin/modelhooks', 'serve', '--composition', 'dist/echo.js', '--port', String(port)], {
      cwd: project,
      env: { ...process.env, MODELHOOKS_HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(server);
    let logs = '';
    server.stdout?.on('data', (d) => (logs += String(d)));
    server.stderr?.on('data', (d) => (logs += String(d)));
    for (let i = 0; i < 300 && !logs.includes('serving hooks'); i++) await new Promise((r) => setTimeout(r, 100));
    timings.push(['serve start', Math.round(performance.now() - started) / 1000]);
    expect(logs).toContain('"compositions":["trustyai","tfserv","mlmodel","inferenceservice","inferencegraph","echo"]');

    // The request body, built from the user's side with the installed modelhooks/testing.
    const script = `import { syncRequest } from 'modelhooks/testing'; import { echo } from './dist/echo.js';
      process.stdout.write(JSON.stringify(syncRequest(echo, { parent: { apiVersion: 'example.dev/v1', kind: 'Echo', metadata: { name: 'hello', namespace: 'demo' }, spec: { message: 'hi' } } })));`;
    const body = sh(process.execPath, ['--input-type=module', '-e', script], project);
    const res = await fetch(`http://127.0.0.1:${port}/hooks/echo/sync`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as {
      children: Array<{ kind: string; metadata: { name: string }; data?: unknown }>;
      status: { conditions: Array<{ type: string; status: string }> };
    };
    expect(answer.children.map((c) => `${c.kind}/${c.metadata.name}`)).toEqual(['ConfigMap/hello', 'Deployment/hello', 'Service/hello']);
    expect(answer.children[0]?.data).toEqual({ message: 'hi' });
    expect(answer.status.conditions[0]).toMatchObject({ type: 'Ready', status: 'Unknown' });
    // The built-in compositions are still there: a malformed body is a 400, not an unknown route.
    expect(
      (await fetch(`http://127.0.0.1:${port}/hooks/trustyai/sync`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status,
    ).toBe(400);
  });
});
