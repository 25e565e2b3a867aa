// `npm run test:package`: `modelhooks init` as a new user runs it, from the packed tarball:
// the project it writes installs, passes its own `npm test`, builds, writes its manifests for
// another Service, and its compiled composition is served from a compositions directory laid
// out as the image lays out /compositions (issue 33).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');
const work = mkdtempSync(path.join(tmpdir(), 'modelhooks-init-'));
const project = path.join(work, 'greeter-hooks');
const timings: Array<[string, number]> = [];
const env = { ...process.env, npm_config_update_notifier: 'false', NO_COLOR: '1', FORCE_COLOR: '0' };

function timed<T>(step: string, fn: () => T): T {
  const start = performance.now();
  try {
    return fn();
  } finally {
    timings.push([step, Math.round(performance.now() - start) / 1000]);
  }
}

function sh(command: string, args: string[], cwd: string, more: Record<string, string> = {}): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, ...more } }) as string;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

const npmInstall = (cwd: string, args: string[]) => sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...args], cwd);

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

let tarball = '';
let initOut = '';

beforeAll(() => {
  tarball = timed('npm pack (build included)', () =>
    path.join(work, sh('npm', ['pack', '--silent', '--pack-destination', work], repo).trim().split('\n').at(-1) as string),
  );
  // The CLI as `npx modelhooks` has it: installed from the tarball.
  const tool = path.join(work, 'tool');
  mkdirSync(tool);
  timed('npm install the CLI', () => npmInstall(tool, [tarball]));
  initOut = timed('modelhooks init', () => sh(process.execPath, [path.join(tool, 'node_modules/.bin/modelhooks'), 'init', 'greeter-hooks'], work));
  // What the project's package.json asks for, with modelhooks from the tarball instead of the registry.
  timed('npm install (project)', () => npmInstall(project, [tarball]));
});

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
  process.stdout.write(`init tier timings (s): ${timings.map(([step, s]) => `${step} ${s}`).join(', ')}\n`);
  if (process.env.KEEP_PACKAGE_PROJECT === '1') process.stdout.write(`kept ${work}\n`);
  else rmSync(work, { recursive: true, force: true });
});

describe('modelhooks init, from the packed package', () => {
  it('writes the project and says the next step', () => {
    expect(initOut).toContain('next: cd greeter-hooks && npm install && npm test');
    expect(readdirSync(project).sort()).toEqual(
      [
        '.gitignore',
        'Dockerfile',
        'README.md',
        'greeter.yaml',
        'node_modules',
        'package-lock.json',
        'package.json',
        'src',
        'tsconfig.build.json',
        'tsconfig.json',
        'vitest.config.ts',
      ].sort(),
    );
  });

  it('passes its own npm test out of the box (tsc, then vitest on src/ only)', () => {
    const out = timed('npm test (project)', () => sh('npm', ['test'], project));
    expect(out).toMatch(/Test Files\s+1 passed \(1\)/);
    expect(out).toMatch(/Tests\s+4 passed \(4\)/);
  });

  it('builds dist/ without the tests; npm test afterwards still runs only src/', () => {
    timed('npm run build (project)', () => sh('npm', ['run', 'build'], project));
    expect(readdirSync(path.join(project, 'dist')).filter((f) => f.endsWith('.js'))).toEqual(['greeter.js']);
    // A stale compiled test in dist/ (an older build, another tsconfig) is not run either.
    cpSync(path.join(project, 'src/greeter.test.ts'), path.join(project, 'dist/greeter.test.js'));
    expect(sh('npx', ['vitest', 'run'], project)).toMatch(/Test Files\s+1 passed \(1\)/);
    rmSync(path.join(project, 'dist/greeter.test.js'));
  });

  it('renders greeter.yaml with `npm run render`', () => {
    const out = sh('npm', ['run', '-s', 'render'], project);
    expect(out).toContain('kind: Greeter');
    expect(out).toContain('-text=Hello, world!');
  });

  it('writes the CRD and a CompositeController for its own Service with `manifests --hook-url`', () => {
    const out = sh(
      'npx',
      ['modelhooks', 'manifests', '--no-builtin', '--composition', 'dist/greeter.js', '--dir', 'deploy', '--hook-url', 'http://greeter-hooks.team.svc'],
      project,
    );
    expect(out).toMatch(/^wrote crds\/greeters\.example\.dev\.yaml, /);
    expect(readFileSync(path.join(project, 'deploy/compositions/base/greeter.yaml'), 'utf8')).toContain(
      'url: http://greeter-hooks.team.svc/hooks/greeter/sync',
    );
  });

  it('a missing optional ajv says how to install it, not MODULE_NOT_FOUND', () => {
    expect(existsSync(path.join(project, 'node_modules/ajv'))).toBe(false);
    const script = `import { validateChildren } from 'modelhooks/testing';
      try { validateChildren([{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'x' } }]); console.log('no error'); } catch (e) { console.log(e.message); }`;
    const out = sh(process.execPath, ['--input-type=module', '-e', script], project);
    expect(out.trim()).toBe('modelhooks/testing: validating children needs the optional peer dependency ajv; install it: npm install --save-dev ajv@^8');
  });

  it("is served from a compositions directory laid out as the image's (/compositions beside /node_modules/modelhooks and zod)", async () => {
    // The image: /app is modelhooks, /node_modules/{modelhooks,zod} link to it, dist/ copied to /compositions.
    const image = path.join(work, 'image');
    mkdirSync(path.join(image, 'node_modules'), { recursive: true });
    symlinkSync(path.join(project, 'node_modules/modelhooks'), path.join(image, 'node_modules/modelhooks'));
    symlinkSync(path.join(project, 'node_modules/zod'), path.join(image, 'node_modules/zod'));
    cpSync(path.join(project, 'dist'), path.join(image, 'compositions'), { recursive: true });
    const port = await freePort();
    const server = spawn(process.execPath, [path.join(image, 'node_modules/modelhooks/dist/hooks/cli/main.js'), 'serve', '--port', String(port)], {
      cwd: image,
      env: { ...env, MODELHOOKS_HOST: '127.0.0.1', MODELHOOKS_COMPOSITIONS_DIR: path.join(image, 'compositions') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(server);
    let logs = '';
    server.stdout?.on('data', (d) => (logs += String(d)));
    server.stderr?.on('data', (d) => (logs += String(d)));
    for (let i = 0; i < 300 && !logs.includes('serving hooks'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(logs).toContain('"compositions":["trustyai","tfserv","mlmodel","inferenceservice","inferencegraph","greeter"]');
    const parent = { apiVersion: 'example.dev/v1', kind: 'Greeter', metadata: { name: 'hello', namespace: 'demo' }, spec: { name: 'world' } };
    const res = await fetch(`http://127.0.0.1:${port}/hooks/greeter/sync`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ parent }),
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { children: Array<{ kind: string }> };
    expect(answer.children.map((c) => c.kind)).toEqual(['Deployment', 'Service']);
  });
});
