import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { main } from '../hooks/cli/main.js';
import { compositionProblem, compositionsFromOptions, loadCompositions } from '../hooks/cli/load-compositions.js';
import { UsageError } from '../hooks/server/errors.js';

const root = path.resolve(import.meta.dirname, '..');
const fixture = (name: string) => `test/fixtures/compositions/${name}`;
const names = (list: Array<{ name: string }>) => list.map((c) => c.name);

async function run(args: string[]) {
  let out = '';
  let err = '';
  const code = await main(args, { out: (t) => void (out += t), err: (t) => void (err += t), env: {}, cwd: root });
  return { code, out, err };
}

describe('--composition: loading a user module', () => {
  it('takes named exports that are compositions and skips the rest', async () => {
    const loaded = await loadCompositions([fixture('named.mjs')], root);
    expect(loaded.map((l) => `${l.composition.name} from ${l.source}`)).toEqual(['alpha from test/fixtures/compositions/named.mjs']);
  });

  it('takes a default export that is a list, counting an object exported twice once', async () => {
    expect(names((await loadCompositions([fixture('default-list.mjs')], root)).map((l) => l.composition))).toEqual(['beta', 'gamma']);
  });

  it('resolves the path against the working directory', async () => {
    expect(await loadCompositions(['named.mjs'], path.join(root, 'test/fixtures/compositions'))).toHaveLength(1);
  });

  it('serves user compositions after the built-in ones, or alone with --no-builtin', async () => {
    expect(names(await compositionsFromOptions({ composition: [fixture('named.mjs')] }, root))).toEqual([
      'trustyai',
      'tfserv',
      'mlmodel',
      'inferenceservice',
      'inferencegraph',
      'alpha',
    ]);
    expect(names(await compositionsFromOptions({ composition: [fixture('named.mjs'), fixture('default-list.mjs')], 'no-builtin': true }, root))).toEqual([
      'alpha',
      'beta',
      'gamma',
    ]);
    expect(names(await compositionsFromOptions({}, root))).toEqual(['trustyai', 'tfserv', 'mlmodel', 'inferenceservice', 'inferencegraph']);
  });

  const refusals: Array<{ reason: string; options: { composition: string[]; 'no-builtin'?: boolean }; message: RegExp }> = [
    { reason: 'a missing file', options: { composition: ['no/such.js'] }, message: /--composition no\/such\.js: no such file \(.*no\/such\.js\)/ },
    { reason: 'a module that throws at import', options: { composition: [fixture('broken.mjs')] }, message: /broken\.mjs: cannot load it: boom at import/ },
    {
      reason: 'a module that exports none',
      options: { composition: [fixture('empty.mjs')] },
      message: /empty\.mjs exports no composition: .*defineComposition.* \(exports: helper\)/,
    },
    {
      reason: 'a near miss, saying what it lacks',
      options: { composition: [fixture('none.mjs')] },
      message: /none\.mjs exports no composition: .*; almost: parent\.plural must be a non-empty string/,
    },
    {
      reason: 'a default list holding something else',
      options: { composition: [fixture('bad-default-list.mjs')] },
      message: /default export \[1\] is not a composition: no parent type/,
    },
    {
      reason: 'a name a built-in has',
      options: { composition: [fixture('clash-name.mjs')] },
      message: /composition "trustyai" is defined twice: by the built-in compositions \(--no-builtin leaves them out\) and by .*clash-name\.mjs/,
    },
    {
      reason: 'a kind a built-in serves',
      options: { composition: [fixture('clash-kind.mjs')] },
      message: /TrustyAIService\.trustyai\.opendatahub\.io is served twice: .*built-in.* and by .*clash-kind\.mjs \(composition "my-trustyai"\)/,
    },
    {
      reason: 'one module given twice',
      options: { composition: [fixture('named.mjs'), fixture('named.mjs')], 'no-builtin': true },
      message: /composition "alpha" is defined twice: by .*named\.mjs and by .*named\.mjs/,
    },
    { reason: '--no-builtin with nothing else', options: { composition: [], 'no-builtin': true }, message: /--no-builtin needs at least one --composition/ },
  ];
  for (const r of refusals) {
    it(`refuses ${r.reason} with a usage error`, async () => {
      const failure = compositionsFromOptions(r.options, root);
      await expect(failure).rejects.toThrow(r.message);
      await expect(failure).rejects.toBeInstanceOf(UsageError);
    });
  }

  it('says why a value is not a composition', () => {
    expect(compositionProblem(null)).toBe('not an object');
    expect(compositionProblem({ name: 'Upper' })).toMatch(/lowercase DNS label/);
  });
});

describe('--composition on the commands', () => {
  it('render renders a parent of a user kind', async () => {
    const { code, out, err } = await run(['render', fixture('alpha.yaml'), '--composition', fixture('named.mjs'), '--now', '2026-01-01T00:00:00Z']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const docs = parseAllDocuments(out).map((d) => d.toJS());
    expect(docs.map((d) => d.kind)).toEqual(['Alpha', 'ConfigMap']);
    expect(docs[0]).toMatchObject({ metadata: { name: 'first' }, status: { text: 'hello' } });
    expect(docs[1]).toMatchObject({ metadata: { name: 'first', namespace: 'demo' }, data: { text: 'hello' } });
  });

  it('manifests --no-builtin writes only the user composition', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'manifests-'));
    const { code, out } = await run(['manifests', '--composition', fixture('named.mjs'), '--no-builtin', '--dir', dir]);
    expect(code).toBe(0);
    expect(out).toMatch(/^wrote crds\/alphas\.example\.dev\.yaml, /);
    expect(readFileSync(path.join(dir, 'compositions/base/alpha.yaml'), 'utf8')).toContain('url: http://modelhooks.modelhooks-system.svc/hooks/alpha/sync');
    expect(existsSync(path.join(dir, 'crds/trustyaiservices.trustyai.opendatahub.io.yaml'))).toBe(false);
  });

  it("manifests --composition: every file says it comes from the user's module, none from hooks/", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'manifests-'));
    const module = fixture('named.mjs');
    expect((await run(['manifests', '--composition', module, '--no-builtin', '--dir', dir])).code).toBe(0);
    const written = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(written.length).toBeGreaterThan(2);
    for (const e of written) {
      const first = readFileSync(path.join(e.parentPath, e.name), 'utf8').split('\n')[0];
      expect(first, e.name).toBe(`# Generated by \`modelhooks manifests\` from the compositions of ${module}. Do not edit.`);
    }
    // With the built-in ones too, both are named.
    const both = mkdtempSync(path.join(tmpdir(), 'manifests-'));
    expect((await run(['manifests', '--composition', module, '--dir', both])).code).toBe(0);
    expect(readFileSync(path.join(both, 'compositions/base/alpha.yaml'), 'utf8')).toMatch(
      /^# Generated by `modelhooks manifests` from the compositions of .*named\.mjs and modelhooks's built-in ones\. Do not edit\.\n/,
    );
  });

  it('every command documents the options in its --help', async () => {
    for (const command of ['serve', 'render', 'manifests']) {
      const { out } = await run([command, '--help']);
      expect(out, command).toContain('--composition FILE');
      expect(out, command).toContain('--no-builtin');
    }
  });

  it('exits 1 with the message for a module that cannot be served', async () => {
    const { code, err } = await run(['serve', '--composition', fixture('empty.mjs'), '--port', '1']);
    expect(code).toBe(1);
    expect(err).toMatch(/^modelhooks: test\/fixtures\/compositions\/empty\.mjs exports no composition/);
  });
});
