// npm run release            dist/install.yaml from `kustomize build deploy/` (the real binary),
//                            and dist/modelhooks-<version>.tgz (helm package) where helm is built
// npm run chart [-- --check] charts/modelhooks from deploy/ (kustomize's model, no Go needed)
// npm run docs [-- --check]  docs/configuration.md and docs/kit-api.md (release/docs.ts)
//
// The release needs the kustomize binary: $KUSTOMIZE, else .cache/e2e/bin/current/kustomize,
// else test/e2e/build.sh builds it (Go). `npm test` never runs it: test/release/ checks the
// same functions with test/deploy/kustomize.ts's model of kustomize, and CI runs both.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { build as modelBuild } from '../test/deploy/kustomize.js';
import { type Build, CHART_DIR, chartFiles, chartProblems, type KubeObject } from './chart.js';
import { installManifest, installProblems } from './install.js';
import { docsFiles, docsProblems } from './docs.js';

const root = path.resolve(import.meta.dirname, '..');
const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;

/** The model of kustomize the tests check against the binary (test/deploy/deploy.test.ts). */
export const modelKustomize: Build = (dir, components) => modelBuild(dir, { components });

function kustomizeBinary(): string {
  if (process.env.KUSTOMIZE) return process.env.KUSTOMIZE;
  const cached = path.join(root, '.cache/e2e/bin/current/kustomize');
  if (!existsSync(cached)) {
    process.stderr.write('release: no kustomize binary; building it with test/e2e/build.sh (needs Go)\n');
    execFileSync('bash', [path.join(root, 'test/e2e/build.sh')], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return cached;
}

function release(): number {
  const text = execFileSync(kustomizeBinary(), ['build', path.join(root, 'deploy')], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const objects = parseAllDocuments(text).map((d) => d.toJS() as KubeObject);
  const manifest = installManifest(objects, version);
  const problems = installProblems(manifest, root);
  if (problems.length > 0) {
    process.stderr.write(`release: dist/install.yaml would be wrong:\n  ${problems.join('\n  ')}\n`);
    return 1;
  }
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  writeFileSync(path.join(root, 'dist/install.yaml'), manifest);
  process.stdout.write(`wrote dist/install.yaml (${objects.length} objects, modelhooks ${version})\n`);
  packageChart();
  return 0;
}

/** dist/modelhooks-<version>.tgz, where the e2e tier has built helm (`bash test/e2e/build.sh helm`). */
function packageChart(): void {
  const helm = process.env.HELM ?? path.join(root, '.cache/e2e/bin/current/helm');
  if (!existsSync(helm)) {
    process.stdout.write('no helm binary (HELM, or bash test/e2e/build.sh helm): the chart is not packaged\n');
    return;
  }
  const home = path.join(root, '.cache/helm');
  const env = { ...process.env, HELM_CACHE_HOME: `${home}/cache`, HELM_CONFIG_HOME: `${home}/config`, HELM_DATA_HOME: `${home}/data` };
  process.stdout.write(execFileSync(helm, ['package', path.join(root, CHART_DIR), '--destination', path.join(root, 'dist')], { encoding: 'utf8', env }));
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
