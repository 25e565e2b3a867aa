import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_NAMES, COMMANDS } from '../hooks/cli/commands.js';
import { compositionsFromOptions } from '../hooks/cli/load-compositions.js';
import { main } from '../hooks/cli/main.js';
import { builtinCompositions } from '../hooks/compositions.js';
import { packageVersion } from '../hooks/server/version.js';

// Issue 33: a new user's first minutes with the CLI.
const root = path.resolve(import.meta.dirname, '..');

async function run(args: string[], cwd = root, env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const code = await main(args, { out: (t) => void (out += t), err: (t) => void (err += t), env, cwd });
  return { code, out, err };
}
const temp = () => mkdtempSync(path.join(tmpdir(), 'modelhooks-cli-'));

describe('help', () => {
  it('names the five built-in compositions, as hooks/compositions.ts has them', async () => {
    expect(BUILTIN_NAMES).toEqual(builtinCompositions.map((c) => c.name));
    for (const command of ['serve', 'render', 'manifests']) {
      const { out } = await run([command, '--help']);
      expect(out).toContain(`without the five built-in compositions (${BUILTIN_NAMES.join(', ')})`);
      expect(out).not.toMatch(/\bfour\b/);
    }
  });

  it('lists every command', async () => {
    const { out, code } = await run(['--help']);
    expect(code).toBe(0);
    for (const c of Object.keys(COMMANDS)) expect(out).toContain(`modelhooks ${c}`);
  });
});

describe('did you mean', () => {
  it('suggests the nearest command', async () => {
    expect(await run(['rendr', 'x.yaml'])).toEqual({
      code: 1,
      out: '',
      err: 'modelhooks: unknown command "rendr", did you mean "render"? (modelhooks --help lists the commands)\n',
    });
  });

  it('suggests the nearest option, and names the command an option belongs to', async () => {
    expect((await run(['render', 'examples/trustyai.yaml', '--observd', 'x'])).err).toBe(
      'modelhooks: render: unknown option --observd, did you mean --observed? (modelhooks render --help lists its options)\n',
    );
    expect((await run(['manifests', '--output', 'json'])).err).toBe(
      'modelhooks: manifests takes no --output: it is an option of render and plan (modelhooks manifests --help lists its options)\n',
    );
    expect((await run(['render', 'examples/trustyai.yaml', '--now'])).err).toBe(
      'modelhooks: render: --now needs a value (modelhooks render --help lists its options)\n',
    );
  });
});

describe('render -o yaml|json', () => {
  it('-o json prints one List of the same objects as the YAML stream', async () => {
    const yaml = await run(['render', 'examples/trustyai.yaml', '--now', '2026-01-01T00:00:00Z']);
    const json = await run(['render', 'examples/trustyai.yaml', '--now', '2026-01-01T00:00:00Z', '-o', 'json']);
    const list = JSON.parse(json.out) as { apiVersion: string; kind: string; items: Array<{ kind: string }> };
    expect(list.kind).toBe('List');
    expect(list.items.map((i) => i.kind)).toEqual(['TrustyAIService', 'Deployment', 'PersistentVolumeClaim', 'Service']);
    expect((await run(['render', 'examples/trustyai.yaml', '--now', '2026-01-01T00:00:00Z', '--output', 'yaml'])).out).toBe(yaml.out);
  });

  it('refuses another format in words', async () => {
    expect(await run(['render', 'examples/trustyai.yaml', '-o', 'jsn'])).toEqual({
      code: 1,
      out: '',
      err: 'modelhooks: --output: yaml or json, not "jsn", did you mean json?\n',
    });
  });
});

describe('render names unknown fields on stderr', () => {
  const write = (spec: string) => {
    const dir = temp();
    writeFileSync(path.join(dir, 'isvc.yaml'), `apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: typo\nspec:\n${spec}`);
    return dir;
  };

  it('storageURI: still rendered (exit 0), with a warning naming storageUri', async () => {
    const dir = write('  predictor:\n    sklearn:\n      storageURI: gs://a/b\n');
    const { code, err } = await run(['render', 'isvc.yaml'], dir);
    expect(code).toBe(0);
    expect(err).toBe(
      `modelhooks: warning: ${dir}/isvc.yaml: unknown field spec.predictor.sklearn.storageURI, did you mean spec.predictor.sklearn.storageUri?\n`,
    );
  });

  it('predictr: the warning, then the invalid spec naming the key', async () => {
    const dir = write('  predictr:\n    sklearn:\n      storageUri: gs://a/b\n');
    const { code, err } = await run(['render', 'isvc.yaml'], dir);
    expect(code).toBe(1);
    expect(err).toContain(`modelhooks: warning: ${dir}/isvc.yaml: unknown field spec.predictr, did you mean spec.predictor?\n`);
    expect(err).toContain('invalid spec: unknown field spec.predictr, did you mean spec.predictor?; spec.predictor:');
  });
});

describe('completion', () => {
  it.each(['bash', 'zsh', 'fish'])('%s: every command and the values of --output', async (shell) => {
    const { code, out } = await run(['completion', shell]);
    expect(code).toBe(0);
    for (const c of Object.keys(COMMANDS)) expect(out).toContain(c);
    expect(out).toMatch(/yaml json/);
  });

  it('bash: the script parses and completes a command and an option', () => {
    const script = spawnSync(process.execPath, ['--import', 'tsx', 'hooks/cli/main.ts', 'completion', 'bash'], { cwd: root, encoding: 'utf8' }).stdout;
    const probe = `${script}\nCOMP_WORDS=(modelhooks ren); COMP_CWORD=1; _modelhooks; echo "\${COMPREPLY[@]}"\nCOMP_WORDS=(modelhooks render --out); COMP_CWORD=2; _modelhooks; echo "\${COMPREPLY[@]}"\nCOMP_WORDS=(modelhooks render -o ''); COMP_CWORD=3; _modelhooks; echo "\${COMPREPLY[@]}"`;
    const res = spawnSync('bash', ['-c', probe], { encoding: 'utf8' });
    expect(res.stderr).toBe('');
    expect(res.stdout.split('\n').slice(0, 3)).toEqual(['render', '--output', 'yaml json']);
  });

  it('refuses an unknown shell', async () => {
    expect((await run(['completion', 'tcsh'])).err).toBe('modelhooks: completion: give one of bash, zsh, fish, not "tcsh"\n');
  });
});

describe('manifests --hook-url', () => {
  it('writes CompositeControllers that call another Service, and no https component', async () => {
    const dir = temp();
    const { code } = await run(['manifests', '--dir', dir, '--hook-url', 'http://greeter-hooks.team.svc/']);
    expect(code).toBe(0);
    const controller = readFileSync(path.join(dir, 'compositions/base/tfserv.yaml'), 'utf8');
    expect(controller).toContain('url: http://greeter-hooks.team.svc/hooks/tfserv/sync');
    expect(existsSync(path.join(dir, 'compositions/components/https'))).toBe(false);
  });

  it('refuses what is not an http(s) URL', async () => {
    expect((await run(['manifests', '--hook-url', 'greeter-hooks'])).err).toBe(
      'modelhooks: --hook-url: an http:// or https:// URL such as http://greeter-hooks.my-team.svc, not "greeter-hooks"\n',
    );
  });
});

describe('MODELHOOKS_COMPOSITIONS_DIR', () => {
  const module = (name: string) =>
    `export const c = { name: '${name}', parent: { group: 'example.dev', kind: '${name[0]?.toUpperCase()}${name.slice(1)}', plural: '${name}s', singular: '${name}', versions: ['v1'] }, spec: { safeParse: (v) => ({ success: true, data: v }) }, children: [], sync: () => ({ status: {}, children: [] }) };\n`;

  it('serves every .js and .mjs module at the top of the directory, but tests and subdirectories', async () => {
    const dir = temp();
    writeFileSync(path.join(dir, 'greeter.js'), module('greeter'));
    writeFileSync(path.join(dir, 'waver.mjs'), module('waver'));
    writeFileSync(path.join(dir, 'greeter.test.js'), 'throw new Error("a test must not be loaded");\n');
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}\n');
    mkdirSync(path.join(dir, 'lib'));
    writeFileSync(path.join(dir, 'lib/helper.js'), 'throw new Error("a helper is imported by its composition, not loaded");\n');
    const served = await compositionsFromOptions({ 'no-builtin': true }, root, { MODELHOOKS_COMPOSITIONS_DIR: dir });
    expect(served.map((c) => c.name)).toEqual(['greeter', 'waver']);
    const withBuiltins = await compositionsFromOptions({}, root, { MODELHOOKS_COMPOSITIONS_DIR: dir });
    expect(withBuiltins.map((c) => c.name)).toEqual([...BUILTIN_NAMES, 'greeter', 'waver']);
  });

  it('an empty directory serves the built-in ones; a missing one is an error naming the variable', async () => {
    expect((await compositionsFromOptions({}, root, { MODELHOOKS_COMPOSITIONS_DIR: temp() })).map((c) => c.name)).toEqual(BUILTIN_NAMES);
    const { code, err } = await run(['manifests', '--dir', temp()], root, { MODELHOOKS_COMPOSITIONS_DIR: '/no/such/dir' });
    expect(code).toBe(1);
    expect(err).toBe('modelhooks: MODELHOOKS_COMPOSITIONS_DIR=/no/such/dir: no such directory\n');
  });
});

describe('init', () => {
  it('writes a project that depends on this version of modelhooks, and says what to do next', async () => {
    const parent = temp();
    const { code, out } = await run(['init', 'My Hooks'], parent);
    expect(code).toBe(0);
    expect(out).toBe(
      'created My Hooks: .gitignore, Dockerfile, README.md, greeter.yaml, package.json, src/greeter.test.ts, src/greeter.ts, tsconfig.build.json, tsconfig.json, vitest.config.ts\nnext: cd My Hooks && npm install && npm test\n',
    );
    const dir = path.join(parent, 'My Hooks');
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      name: string;
      dependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(pkg.name).toBe('my-hooks');
    expect(pkg.dependencies.modelhooks).toBe(`^${packageVersion()}`);
    expect(pkg.scripts.test).toBe('tsc --noEmit && vitest run');
    // The scaffold's sources are examples/init's, which this repository's tests run.
    expect(readFileSync(path.join(dir, 'src/greeter.ts'), 'utf8')).toBe(readFileSync(path.join(root, 'examples/init/src/greeter.ts'), 'utf8'));
    const dockerfile = readFileSync(path.join(dir, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain(`FROM ghcr.io/modelhooks/modelhooks:${packageVersion()}\nCOPY --from=build /src/dist/ /compositions/\n`);
    expect(readFileSync(path.join(root, 'deploy/base/deployment.yaml'), 'utf8')).toContain(`image: ghcr.io/modelhooks/modelhooks:${packageVersion()}`);
  });

  it('refuses a directory that is not empty', async () => {
    const dir = temp();
    writeFileSync(path.join(dir, 'x'), '');
    expect((await run(['init', dir])).err).toBe(`modelhooks: init: ${dir} is not empty; give a new or empty directory\n`);
  });

  it('the vitest config runs the sources, never the compiled copies in dist/', async () => {
    const config = (await import('../examples/init/vitest.config.js')).default as { test: { include: string[]; exclude: string[] } };
    expect(config.test.include).toEqual(['src/**/*.test.ts']);
    expect(config.test.exclude).toContain('dist/**');
  });
});

describe('the image loads compositions from /compositions', () => {
  const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  it('sets MODELHOOKS_COMPOSITIONS_DIR and lets a module there import modelhooks/kit and zod', () => {
    expect(dockerfile).toContain('ENV NODE_ENV=production MODELHOOKS_COMPOSITIONS_DIR=/compositions');
    expect(dockerfile).toContain('ln -s /app /node_modules/modelhooks');
    expect(dockerfile).toContain('ln -s /app/node_modules/zod /node_modules/zod');
  });
});
