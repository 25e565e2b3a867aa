// npm run release            dist/release/: the npm tarball (npm/, `npm pack`), the chart package
//                            (chart/, `helm package`, or made in Node without helm), install.yaml
//                            (`kustomize build deploy/`) and image/ (the image build context)
// npm run chart [-- --check] charts/modelhooks from deploy/ (kustomize's model, no Go needed)
// npm run docs [-- --check]  docs/configuration.md and docs/kit-api.md (release/docs.ts)
//
// kustomize: $KUSTOMIZE, else `kustomize` or `kubectl kustomize` on PATH, else the e2e tier's
// build (.cache/e2e/bin/current/kustomize), else test/deploy/kustomize.ts's model of it (which
// test/deploy/ checks against the binary): no Go build. helm: $HELM, else `helm` on PATH, else the
// e2e tier's build, else the package is made in Node (release/package.ts).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { build as modelBuild } from '../test/deploy/kustomize.js';
import { type Build, CHART_DIR, chartFiles, chartProblems, type KubeObject } from './chart.js';
import { installManifest, installProblems } from './install.js';
import { docsFiles, docsProblems } from './docs.js';
import { tarGz } from './package.js';

const root = path.resolve(import.meta.dirname, '..');
const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;

/** The model of kustomize the tests check against the binary (test/deploy/deploy.test.ts). */
export const modelKustomize: Build = (dir, components) => modelBuild(dir, { components });

/** The path of a command on PATH, or undefined. */
function onPath(command: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** `kustomize build deploy/`, by the first kustomize found (the header above); says which. */
function kustomizeBuild(): { objects: KubeObject[]; by: string } {
  const cached = path.join(root, '.cache/e2e/bin/current/kustomize');
  const kubectl = onPath('kubectl');
  const binary: [string, string[]] | undefined = process.env.KUSTOMIZE
    ? [process.env.KUSTOMIZE, ['build']]
    : onPath('kustomize')
      ? ['kustomize', ['build']]
      : kubectl
        ? [kubectl, ['kustomize']]
        : existsSync(cached)
          ? [cached, ['build']]
          : undefined;
  if (binary === undefined)
    return { objects: modelBuild(path.join(root, 'deploy'), { components: [] }), by: 'test/deploy/kustomize.ts (no kustomize or kubectl on PATH)' };
  const [command, args] = binary;
  const text = execFileSync(command, [...args, path.join(root, 'deploy')], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return { objects: parseAllDocuments(text).map((d) => d.toJS() as KubeObject), by: `${command} ${args.join(' ')}` };
}

const OUT = path.join(root, 'dist/release');

function release(): number {
  const { objects, by } = kustomizeBuild();
  const manifest = installManifest(objects, version);
  const problems = installProblems(manifest, root);
  if (problems.length > 0) {
    process.stderr.write(`release: install.yaml would be wrong:\n  ${problems.join('\n  ')}\n`);
    return 1;
  }
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  writeFileSync(path.join(OUT, 'install.yaml'), manifest);
  say(`install.yaml: ${objects.length} objects (${by})`);
  packageChart();
  imageContext();
  mkdirSync(path.join(OUT, 'npm'));
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', path.join(OUT, 'npm')], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  say(`npm/${packed.trim().split('\n').at(-1)}: the npm package (npm pack)`);
  return 0;
}

const say = (line: string) => process.stdout.write(`dist/release/${line}\n`);

/** chart/modelhooks-<version>.tgz: `helm package` where a helm is found, else the same layout made here. */
function packageChart(): void {
  const dir = path.join(OUT, 'chart');
  mkdirSync(dir);
  const cached = path.join(root, '.cache/e2e/bin/current/helm');
  const helm = process.env.HELM ?? onPath('helm') ?? (existsSync(cached) ? cached : undefined);
  if (helm === undefined) {
    writeFileSync(path.join(dir, `modelhooks-${version}.tgz`), tarGz(path.join(root, CHART_DIR), 'modelhooks'));
    say(`chart/modelhooks-${version}.tgz: the chart package (made in Node: no helm found)`);
    return;
  }
  const home = path.join(root, '.cache/helm');
  const env = { ...process.env, HELM_CACHE_HOME: `${home}/cache`, HELM_CONFIG_HOME: `${home}/config`, HELM_DATA_HOME: `${home}/data` };
  execFileSync(helm, ['package', path.join(root, CHART_DIR), '--destination', dir], { encoding: 'utf8', env });
  say(`chart/modelhooks-${version}.tgz: the chart package (${helm} package)`);
}

/** image/: the Dockerfile and what it copies (the build context `docker build dist/release/image` needs). */
function imageContext(): void {
  const dir = path.join(OUT, 'image');
  for (const f of ['Dockerfile', '.dockerignore', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'hooks'])
    cpSync(path.join(root, f), path.join(dir, f), { recursive: true });
  say('image/: the image build context (docker build dist/release/image)');
}

function chart(check: boolean): number {
  const files = chartFiles(root, modelKustomize, version);
  if (check) {
    const problems = chartProblems(root, files);
    if (problems.length > 0) {
      process.stderr.write(`${CHART_DIR} is out of date; run \`npm run chart\`:\n  ${problems.join('\n  ')}\n`);
      return 1;
    }
    process.stdout.write(`${files.size} files of ${CHART_DIR} up to date\n`);
    return 0;
  }
  for (const [rel, content] of files) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), content);
  }
  const stale = chartProblems(root, files);
  if (stale.length > 0) process.stderr.write(`remove what is no longer generated:\n  ${stale.join('\n  ')}\n`);
  process.stdout.write(`wrote ${files.size} files of ${CHART_DIR}\n`);
  return stale.length > 0 ? 1 : 0;
}

function docs(check: boolean): number {
  const files = docsFiles(root);
  const stale = docsProblems(root, files);
  if (check) {
    if (stale.length > 0) {
      process.stderr.write(`docs/ is out of date; run \`npm run docs\`:\n  ${stale.join('\n  ')}\n`);
      return 1;
    }
    process.stdout.write(`${files.size} generated pages of docs/ up to date\n`);
    return 0;
  }
  for (const [rel, content] of files) writeFileSync(path.join(root, rel), content);
  process.stdout.write(`wrote ${[...files.keys()].join(', ')}\n`);
  return 0;
}

const COMMANDS: Record<string, (check: boolean) => number> = { chart, install: release, docs };
const [command = '', ...args] = process.argv.slice(2);
const run = COMMANDS[command];
process.exitCode = run ? run(args.includes('--check')) : (process.stderr.write('usage: tsx release/run.ts install | chart [--check] | docs [--check]\n'), 2);
