import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import http from 'node:http';
import { main } from '../hooks/cli/main.js';
import { readObjects } from '../hooks/cli/render.js';
import { builtinCompositions } from '../hooks/compositions.js';
import { loadConfig } from '../hooks/server/config.js';
import { variantNames } from '../hooks/engine/manifests.js';
import { ConfigError } from '../hooks/server/errors.js';
import { syncRequest } from '../hooks/testing/index.js';
import { trustyai } from '../hooks/trustyai/index.js';
import { freePort } from './support/free-port.js';

const root = path.resolve(import.meta.dirname, '..');

async function run(args: string[], cwd = root, more: { stdin?: string; env?: Record<string, string> } = {}) {
  let out = '';
  let err = '';
  const stdin = more.stdin;
  const code = await main(args, {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    env: more.env ?? {},
    cwd,
    ...(stdin === undefined ? {} : { stdin: async () => stdin }),
  });
  return { code, out, err };
}

const docsOf = (yaml: string) => parseAllDocuments(yaml).map((d) => d.toJS());
const NOW = ['--now', '2026-01-01T00:00:00Z'];

/** Each example that is a parent, with the related objects it needs (the Tfserv's ConfigMap). */
const exampleParents = readdirSync(path.join(root, 'examples'))
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => `examples/${f}`)
  .filter((f) => readObjects(path.join(root, f)).some((o) => builtinCompositions.some((c) => c.parent.kind === o.kind)))
  .map((f) => [f, f === 'examples/tfserv.yaml' ? ['--related', 'examples/tfserv-configmap.yaml'] : []] as const);

/** What `kubectl apply --dry-run=client -f -` needs of every document. */
function expectCompleteObjects(yaml: string) {
  const docs = docsOf(yaml);
  expect(docs.length).toBeGreaterThan(0);
  for (const doc of docs) {
    expect(doc, yaml).toEqual(expect.objectContaining({ apiVersion: expect.stringMatching(/^([a-z0-9.-]+\/)?v\d/), kind: expect.stringMatching(/^[A-Z]/) }));
    expect(typeof doc.metadata?.name, `${doc.kind} without metadata.name`).toBe('string');
  }
}

describe('modelhooks render', () => {
  it('prints the parent first, whole, with its new status, then the children sorted by kind and name', async () => {
    const { code, out } = await run(['render', 'examples/trustyai.yaml', ...NOW]);
    expect(code).toBe(0);
    const docs = docsOf(out);
    expect(docs.map((d) => d.kind)).toEqual(['TrustyAIService', 'Deployment', 'PersistentVolumeClaim', 'Service']);
    const [given] = readObjects(path.join(root, 'examples/trustyai.yaml'));
    expect(docs[0]).toMatchObject({ apiVersion: given?.apiVersion, kind: given?.kind, metadata: given?.metadata, spec: given?.spec });
    expect(docs[0].status.conditions[0]).toMatchObject({ type: 'Ready', lastTransitionTime: '2026-01-01T00:00:00Z' });
  });

  it('--children-only prints exactly the children', async () => {
    const all = docsOf((await run(['render', 'examples/trustyai.yaml', ...NOW])).out);
    const { code, out } = await run(['render', 'examples/trustyai.yaml', '--children-only', ...NOW]);
    expect(code).toBe(0);
    expect(docsOf(out)).toEqual(all.slice(1));
  });

  it('finds a parent in every example', () =>
    expect(exampleParents.map(([f]) => f)).toEqual(
      expect.arrayContaining([
        'examples/trustyai.yaml',
        'examples/tfserv.yaml',
        'examples/mlmodel.yaml',
        'examples/inferenceservice.yaml',
        'examples/inferencegraph.yaml',
      ]),
    ));

  for (const [file, extra] of exampleParents) {
    it(`${file}: every document is a complete object, with and without --children-only`, async () => {
      for (const flags of [[], ['--children-only']]) {
        const { code, out, err } = await run(['render', file, ...extra, ...flags]);
        expect(err).toBe('');
        expect(code).toBe(0);
        expectCompleteObjects(out);
      }
    });

    it(`${file}: its own output, given back as --observed, converges and keeps the conditions' times`, async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'render-'));
      const first = await run(['render', file, ...extra, '--now', '2026-01-01T00:00:00Z']);
      writeFileSync(path.join(dir, 'first.yaml'), first.out);
      const second = await run(['render', file, ...extra, '--observed', path.join(dir, 'first.yaml'), '--now', '2026-01-02T00:00:00Z']);
      expect(second.err).toBe('');
      writeFileSync(path.join(dir, 'second.yaml'), second.out);
      const third = await run(['render', file, ...extra, '--observed', path.join(dir, 'second.yaml'), '--now', '2026-01-03T00:00:00Z']);
      const [, ...firstChildren] = docsOf(first.out);
      const [parent2, ...secondChildren] = docsOf(second.out);
      const [parent3, ...thirdChildren] = docsOf(third.out);
      // The parent in --observed is the parent, not a child to keep.
      expect(secondChildren).toEqual(firstChildren);
      expect(thirdChildren).toEqual(secondChildren);
      // Nothing changed between the second and third sync: every condition keeps its time.
      expect(parent3.status).toEqual(parent2.status);
      expect(third.out).not.toContain('2026-01-03');
    });
  }

  it('reads the parent from stdin with -, or the observed state with --observed -, never both', async () => {
    const parent = readFileSync(path.join(root, 'examples/trustyai.yaml'), 'utf8');
    const fromFile = await run(['render', 'examples/trustyai.yaml', ...NOW]);
    expect(await run(['render', '-', ...NOW], root, { stdin: parent })).toEqual(fromFile);
    const pvc = 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: trustyai-service-pvc, namespace: fairness}\nstatus: {phase: Bound}\n';
    const observed = await run(['render', 'examples/trustyai.yaml', '--observed', '-', ...NOW], root, { stdin: pvc });
    expect(observed.out).toContain('reason: PVCBound');
    const both = await run(['render', '-', '--observed', '-'], root, { stdin: parent });
    expect(both.code).toBe(1);
    expect(both.err).toMatch(/stdin \(-\) can be read only once/);
    const none = await run(['render', '-']);
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/stdin\) is not available/);
    const bad = await run(['render', '-'], root, { stdin: 'kind: [' });
    expect(bad.err).toMatch(/<stdin>: invalid YAML/);
  });

  it('takes the previous status from the parent in --observed, so an unchanged condition keeps its time', async () => {
    const first = await run(['render', 'examples/trustyai.yaml', '--now', '2026-01-01T00:00:00Z']);
    const [parent] = docsOf(first.out);
    const later = await run(['render', 'examples/trustyai.yaml', '--observed', '-', '--now', '2026-01-05T00:00:00Z'], root, { stdin: stringify(parent) });
    const conditions = docsOf(later.out)[0].status.conditions as Array<{ type: string; lastTransitionTime: string }>;
    expect(conditions.map((c) => c.lastTransitionTime)).toEqual(conditions.map(() => '2026-01-01T00:00:00Z'));
    // Without it, the same call stamps the new time.
    const alone = await run(['render', 'examples/trustyai.yaml', '--now', '2026-01-05T00:00:00Z']);
    expect(docsOf(alone.out)[0].status.conditions[0].lastTransitionTime).toBe('2026-01-05T00:00:00Z');
  });

  it('refuses the parent twice in --observed', async () => {
    const [parent] = docsOf((await run(['render', 'examples/trustyai.yaml', ...NOW])).out);
    const twice = `${stringify(parent)}---\n${stringify(parent)}`;
    const { code, err } = await run(['render', 'examples/trustyai.yaml', '--observed', '-'], root, { stdin: twice });
    expect(code).toBe(1);
    expect(err).toMatch(/--observed holds TrustyAIService trustyai-service 2 times/);
  });

  it('takes observed children and the variant', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'render-'));
    const pvc = path.join(dir, 'pvc.yaml');
    writeFileSync(pvc, 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: trustyai-service-pvc, namespace: fairness}\nstatus: {phase: Bound}\n');
    const { code, out } = await run(['render', 'examples/trustyai.yaml', '--observed', pvc, '--variant', 'openshift']);
    expect(code).toBe(0);
    expect(out).toContain('kind: Route');
    expect(out).toContain('reason: PVCBound');
  });

  it('combines variants, repeated or comma-separated, with the same names for every kind', async () => {
    const kinds = async (...args: string[]) => {
      const { code, out, err } = await run(['render', ...args]);
      expect(err).toBe('');
      expect(code).toBe(0);
      return parseAllDocuments(out)
        .map((d) => d.toJS().kind)
        .filter(Boolean);
    };
    const openshift = await kinds('examples/trustyai.yaml', '--variant', 'openshift');
    expect(openshift).toContain('Route');
    expect(openshift).not.toContain('ServiceMonitor');
    const both = await kinds('examples/trustyai.yaml', '--variant', 'openshift', '--variant', 'prometheus');
    expect(both).toEqual(expect.arrayContaining(['Route', 'ServiceMonitor']));
    expect(await kinds('examples/trustyai.yaml', '--variant', 'prometheus,openshift')).toEqual(both);
    // A variant that adds nothing to a kind leaves it as the default renders it.
    expect(await kinds('examples/inferenceservice.yaml', '--variant', 'openshift,prometheus')).toEqual(await kinds('examples/inferenceservice.yaml'));
    expect(await kinds('examples/inferenceservice.yaml', '--variant', 'openshift,gateway-api')).toContain('HTTPRoute');
  });

  const failures: Array<[string, string, RegExp]> = [
    ['a missing file', 'no-such.yaml', /cannot read .*no-such\.yaml/],
    ['a kind no composition serves', 'test/fixtures/cli/unknown-kind.yaml', /no composition serves Widget/],
    ['an invalid spec', 'test/fixtures/cli/invalid-spec.yaml', /invalid spec: spec\.storage\.databaseConfigurations: required/],
    ['broken YAML', 'test/fixtures/cli/broken.yaml', /invalid YAML/],
  ];
  for (const [reason, file, message] of failures) {
    it(`exits 1 with a clear message for ${reason}`, async () => {
      const { code, out, err } = await run(['render', file]);
      expect(code).toBe(1);
      expect(out).toBe('');
      expect(err).toMatch(message);
    });
  }
  it('exits 1 with a usage error for an unknown flag, and for an invalid environment variable', async () => {
    const unknown = await run(['render', 'examples/trustyai.yaml', '--bogus']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe('modelhooks: render: unknown option --bogus (modelhooks render --help lists its options)\n');
    const badEnv = await run(['render', 'examples/trustyai.yaml'], root, { env: { MODELHOOKS_URL_SCHEME: 'ftp' } });
    expect(badEnv.code).toBe(1);
    expect(badEnv.err).toMatch(/^modelhooks: invalid configuration: MODELHOOKS_URL_SCHEME/);
    expect(() => loadConfig({ MODELHOOKS_URL_SCHEME: 'ftp' })).toThrow(ConfigError);
  });

  it('exits 1 for an unknown variant and a malformed --now', async () => {
    expect((await run(['render', 'examples/trustyai.yaml', '--variant', 'mars'])).err).toMatch(
      /no variant "mars"; variants: default, cert-manager, gateway-api, openshift, prometheus/,
    );
    expect((await run(['render', 'examples/trustyai.yaml', '--variant', 'default,openshift'])).err).toMatch(/--variant: variant "default" means no variant/);
    expect((await run(['render', 'examples/trustyai.yaml', '--now', 'yesterday'])).code).toBe(1);
  });
});

describe('production code', () => {
  it('never imports the test helpers (hooks/testing/index.ts and hooks/testing/)', () => {
    const isHelper = (f: string) => f === 'testing.ts' || f.startsWith(`testing${path.sep}`);
    const sources = (readdirSync(path.join(root, 'hooks'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !isHelper(f));
    expect(sources).toContain(path.join('cli', 'render.ts'));
    const importers = sources.filter((f) => /from '[./]*testing(\.js|\/)/.test(readFileSync(path.join(root, 'hooks', f), 'utf8')));
    expect(importers).toEqual([]);
  });
});

describe('modelhooks --help and --version', () => {
  for (const command of ['serve', 'render', 'manifests']) {
    it(`${command} --help prints its usage and exits 0`, async () => {
      for (const flag of ['--help', '-h']) {
        const { code, out, err } = await run([command, flag]);
        expect(err).toBe('');
        expect(code).toBe(0);
        expect(out).toMatch(new RegExp(`^usage: modelhooks ${command} `));
      }
    });
  }

  it('render --help names every option render takes', async () => {
    const { out } = await run(['render', 'examples/trustyai.yaml', '--help']);
    for (const option of ['--observed', '--related', '--variant', '--now', '--children-only']) expect(out).toContain(option);
  });

  it('render --help names every variant --variant takes', async () => {
    const { out } = await run(['render', '--help']);
    const variants = variantNames(builtinCompositions).filter((v) => v !== 'default');
    expect(variants.length).toBeGreaterThan(0);
    for (const variant of variants) expect(out, variant).toMatch(new RegExp(`[ :,]${variant}[,;]`));
  });

  it('--version and -v print the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) expect(await run([flag])).toEqual({ code: 0, out: `modelhooks ${version}\n`, err: '' });
  });

  it('--version works from the source file, run as a program', async () => {
    // From another directory: package.json is found from the module's file, not the cwd.
    const child = spawn(process.execPath, ['--import', 'tsx', '../hooks/cli/main.ts', '--version'], {
      cwd: path.join(root, 'test'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(out).toMatch(/^modelhooks \d+\.\d+\.\d+/);
  });
});

describe('start-up cost', () => {
  it('loads the server (pino, prom-client) only for serve: render and --version stay fast', async () => {
    // CommonJS packages imported from ESM land in require.cache: none of them after importing the CLI.
    const probe = [
      "import { createRequire } from 'node:module';",
      "await import('./hooks/cli/main.ts');",
      'const cache = Object.keys(createRequire(import.meta.url).cache);',
      'console.log(JSON.stringify(cache.filter((k) => /node_modules[\\\\/](pino|prom-client|pino-std-serializers)[\\\\/]/.test(k))));',
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    expect(await new Promise<number | null>((resolve) => child.on('exit', resolve))).toBe(0);
    expect(JSON.parse(out)).toEqual([]);
  });
});

describe('README and docs/ render commands', () => {
  // Every page a reader runs commands from: README.md and the manual in docs/.
  const pages = [
    'README.md',
    ...readdirSync(path.join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const readme = pages.map((page) => readFileSync(path.join(root, page), 'utf8')).join('\n');
  const blocks = [...readme.matchAll(/```(sh|console)\n([\s\S]*?)```/g)].map((m) => ({ console: m[1] === 'console', lines: (m[2] ?? '').split('\n') }));
  const PREFIX = /^(npm run -s modelhooks --|modelhooks) /;

  /** `[kind, name]` of each document shown (abridged YAML: read with patterns, not parsed). */
  const identities = (shown: string) =>
    shown
      .split(/^---$/m)
      .map((doc) => [
        /^kind: (\S+)/m.exec(doc)?.[1],
        (/^metadata: \{\s*name: ([^,}\s]+)/m.exec(doc) ?? /^metadata:\n\s+name: (\S+)/m.exec(doc))?.[1]?.replace(/"/g, ''),
      ]);

  it('runs every render command of the README and docs/ and finds what it shows', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'readme-'));
    cpSync(path.join(root, 'examples'), path.join(dir, 'examples'), { recursive: true });
    const ran: string[] = [];
    for (const block of blocks) {
      for (let i = 0; i < block.lines.length; i++) {
        let line = block.lines[i] ?? '';
        if (block.console && !line.startsWith('$ ')) continue;
        line = line
          .replace(/^\$ /, '')
          .replace(/\s+#.*$/, '')
          .trim();
        let shown = '';
        if (block.console) {
          const next = block.lines.findIndex((l, j) => j > i && l.startsWith('$ '));
          shown = block.lines.slice(i + 1, next === -1 ? undefined : next).join('\n');
        }
        const cat = /^cat (\S+)$/.exec(line);
        if (cat && block.console) {
          // `$ cat FILE` shows a file the next command reads (KServe's sample): write it.
          writeFileSync(path.join(dir, cat[1] as string), `${shown}\n`);
          continue;
        }
        if (!/(^|\| )(npm run -s modelhooks --|modelhooks) /.test(line) || / (serve|manifests)\b/.test(line)) continue;
        if (line.includes('PARENT.yaml')) {
          // The synopsis: the same as render --help prints.
          const help = (await run(['render', '--help'])).out.split('\n')[0]?.replace(/^usage: /, '');
          expect(line).toBe(help);
          continue;
        }
        const segments = line.split(' | ');
        const stdinFile = /^cat (\S+)$/.exec(segments[0] ?? '')?.[1];
        if (stdinFile) segments.shift();
        const [command = '', ...after] = segments;
        const [invocation = '', redirect] = command.split(' > ');
        expect(invocation, `a README command this test does not understand: ${line}`).toMatch(PREFIX);
        const args = invocation.replace(PREFIX, '').split(/\s+/);
        const result = await run(args, dir, stdinFile ? { stdin: readFileSync(path.join(dir, stdinFile), 'utf8') } : {});
        expect(result.err, line).toBe('');
        expect(result.code, line).toBe(0);
        ran.push(line);
        if (redirect) writeFileSync(path.join(dir, redirect.trim()), result.out);
        for (const consumer of after) {
          expect(consumer, line).toMatch(/^kubectl (apply|diff) .*-f -$/);
          expectCompleteObjects(result.out);
        }
        if (shown) {
          const actual = docsOf(result.out);
          expect(identities(shown), line).toEqual(actual.map((d) => [d.kind, d.metadata.name]));
          const reasons = new Set(actual.flatMap((d) => (d.status?.conditions ?? []).map((c: { reason: string }) => c.reason)));
          for (const [, reason] of shown.matchAll(/reason: (\w+)/g)) expect(reasons, `${line}: reason ${reason}`).toContain(reason);
        }
      }
    }
    expect(ran.length).toBeGreaterThanOrEqual(8);
  });
});

describe('modelhooks manifests', () => {
  it('--check passes on the committed tree', async () => {
    const { code, err } = await run(['manifests', '--check']);
    expect(err).toBe('');
    expect(code).toBe(0);
  });
  it('--check fails and names the file when a generated file was edited by hand', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'manifests-'));
    cpSync(path.join(root, 'crds'), path.join(dir, 'crds'), { recursive: true });
    cpSync(path.join(root, 'compositions'), path.join(dir, 'compositions'), { recursive: true });
    writeFileSync(path.join(dir, 'crds', 'trustyaiservices.trustyai.opendatahub.io.yaml'), '# edited\n');
    const { code, err } = await run(['manifests', '--check', '--dir', dir]);
    expect(code).toBe(1);
    expect(err).toContain('crds/trustyaiservices.trustyai.opendatahub.io.yaml: differs');
    expect((await run(['manifests', '--dir', dir])).code).toBe(0);
    expect((await run(['manifests', '--check', '--dir', dir])).code).toBe(0);
  });
});

describe('modelhooks serve', () => {
  it('serves, then on SIGTERM stops accepting, finishes and exits 0', async () => {
    const port = String(await freePort());
    const child = spawn(process.execPath, ['--import', 'tsx', 'hooks/cli/main.ts', 'serve', '--port', port], {
      cwd: root,
      env: { ...process.env, MODELHOOKS_LOG_LEVEL: 'info', MODELHOOKS_HOST: '127.0.0.1', MODELHOOKS_DRAIN_SECONDS: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let logs = '';
    child.stdout.on('data', (d) => (logs += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Starting under tsx takes seconds, more on a loaded 2-core machine: wait up to 60 s (stop early if it exits).
    for (let i = 0; i < 600 && !logs.includes('serving hooks') && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 100));
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(await res.text()).toBe('ok');
    // A request in flight when SIGTERM arrives: half its body sent before, half after.
    const body = JSON.stringify(syncRequest(trustyai, { parent: readObjects(path.join(root, 'examples/trustyai.yaml'))[0] }));
    const inFlight = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/hooks/trustyai/sync',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (r) => {
          let text = '';
          r.on('data', (d) => (text += String(d)));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 100));
      setTimeout(() => {
        child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(100)), 300);
      }, 200);
    });
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.text).children.length).toBeGreaterThan(0);
    expect(await exited).toBe(0);
    expect(logs).toContain('draining');
    expect(logs).toContain('"host":"127.0.0.1"');
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });
});
