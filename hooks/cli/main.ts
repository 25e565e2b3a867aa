#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { configVariables, loadConfig } from '../server/config.js';
import { builtinCompositions } from '../compositions.js';
import { COMPOSITION_OPTIONS, compositionsFromOptions } from './load-compositions.js';
import { ConfigError, UsageError } from '../server/errors.js';
import { checkManifests, manifestFiles, sourceOf, writeManifests } from './manifests.js';
import { readSource, render, type YamlSource } from './render.js';
import { packageVersion } from '../server/version.js';
import { PLAN_HELP, planCommand } from './plan/command.js';

const COMPOSITION_HELP = `
      --composition FILE the compositions a compiled module of yours exports, too (repeatable)
      --no-builtin       without the four built-in compositions`;

const COMMANDS = {
  serve: `modelhooks serve [--port N]
    Serves the hooks over HTTP (PORT, default 8080; MODELHOOKS_* variables configure the rest).${COMPOSITION_HELP}`,
  render: `modelhooks render PARENT.yaml|- [--observed FILE]... [--related FILE]... [--variant NAME[,NAME]]... [--now RFC3339] [--children-only]
    Prints what one sync makes of PARENT, offline: the parent with its new status, then the
    desired children, as a YAML stream (\`-\` reads the parent from stdin).
      --observed FILE    the cluster's state: children (e.g. \`kubectl get … -o yaml\`), and the
                         parent itself, whose status is the previous one (render's own output fits)
      --related FILE     objects the customize hook asks for (e.g. a Tfserv's ConfigMap)
      --variant NAME     a variant of the calling CompositeController: openshift, prometheus,
                         gateway-api, cert-manager; repeat it or give a comma list to combine
                         (default: none)
      --now RFC3339      the clock, e.g. 2026-01-01T00:00:00Z (default: now)
      --children-only    only the children: what \`kubectl apply -f -\` should get
    Any one FILE (or PARENT) may be \`-\`: stdin.${COMPOSITION_HELP}`,
  manifests: `modelhooks manifests [--check] [--dir DIR]
    Writes (or, with --check, checks) crds/ and compositions/ under DIR (default: .).${COMPOSITION_HELP}`,
  plan: `${PLAN_HELP}${COMPOSITION_HELP}`,
} as const;

const USAGE = `usage:
${Object.values(COMMANDS)
  .map((c) => `  ${c.split('\n')[0]}`)
  .join('\n')}
  modelhooks --version
  modelhooks COMMAND --help    (that command's options)
every command also takes --composition FILE (repeatable) and --no-builtin (see --help)`;

/** `serve --help`'s list of every variable the server and the built-in compositions read, from their schemas. */
function environmentHelp(): string {
  const lines = configVariables(builtinCompositions).map((v) => `      ${v.name}=${v.default === '' ? "''" : v.default}\n          ${v.description}`);
  return `    Environment (VARIABLE=default, read once at start; (…): what leaving it unset means):\n${lines.join('\n')}\n`;
}

export interface Io {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** All of stdin (a command reads it only when told to with `-`); absent: stdin is unavailable. */
  stdin?: () => Promise<string>;
}

/** Runs one command; resolves to the exit code (serve resolves only once it has stopped). */
export async function main(argv: string[], io: Io): Promise<number> {
  const [command, ...args] = argv;
  try {
    if (command && Object.hasOwn(COMMANDS, command) && args.some((a) => a === '--help' || a === '-h')) {
      io.out(`usage: ${COMMANDS[command as keyof typeof COMMANDS]}\n${command === 'serve' ? environmentHelp() : ''}`);
      return 0;
    }
    switch (command) {
      case 'serve':
        return await serve(args, io);
      case 'render':
        return await renderCommand(args, io);
      case 'manifests':
        return await manifestsCommand(args, io);
      case 'plan':
        return await planCommand(args, io);
      case undefined:
      case '-h':
      case '--help':
        io.out(`${USAGE}\n`);
        return command === undefined ? 1 : 0;
      case '-v':
      case '--version':
        io.out(`modelhooks ${packageVersion()}\n`);
        return 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`modelhooks: ${(err as Error).message}\n`);
      return 1;
    }
    if (err instanceof ConfigError) {
      io.err(`modelhooks: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

async function renderCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...COMPOSITION_OPTIONS,
      observed: { type: 'string', multiple: true, default: [] },
      related: { type: 'string', multiple: true, default: [] },
      variant: { type: 'string', multiple: true, default: [] },
      now: { type: 'string' },
      'children-only': { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) throw new UsageError(`render takes one parent file (or - for stdin)\nusage: ${COMMANDS.render}`);
  if (values.now !== undefined && !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(values.now)) {
    throw new UsageError(`--now must be an RFC 3339 UTC time such as 2026-01-01T00:00:00Z, got "${values.now}"`);
  }
  const files = [positionals[0] as string, ...values.observed, ...values.related];
  if (files.filter((f) => f === '-').length > 1)
    throw new UsageError('stdin (-) can be read only once: give it as the parent or as one --observed or --related file');
  // Read before the configuration, so a usage problem is reported first.
  const read = async (f: string): Promise<YamlSource> => {
    if (f !== '-') return readSource(path.resolve(io.cwd, f));
    if (!io.stdin) throw new UsageError('- (stdin) is not available here');
    return { name: '<stdin>', text: await io.stdin() };
  };
  const parent = await read(positionals[0] as string);
  const observed = await Promise.all(values.observed.map(read));
  const related = await Promise.all(values.related.map(read));
  const compositions = await compositionsFromOptions(values, io.cwd);
  const config = loadConfig(io.env, compositions).hooks;
  io.out(
    render(compositions, config, {
      parent,
      observed,
      related,
      ...(values.variant.length > 0 ? { variant: values.variant } : {}),
      now: values.now ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      childrenOnly: values['children-only'],
    }),
  );
  return 0;
}

async function manifestsCommand(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({ args, options: { ...COMPOSITION_OPTIONS, check: { type: 'boolean', default: false }, dir: { type: 'string' } } });
  const root = path.resolve(io.cwd, values.dir ?? '.');
  const files = manifestFiles(await compositionsFromOptions(values, io.cwd), undefined, sourceOf(values.composition, !values['no-builtin']));
  if (values.check) {
    const problems = checkManifests(root, files);
    if (problems.length > 0) {
      io.err(`modelhooks: crds/ and compositions/ are out of date; run \`npm run manifests\`:\n  ${problems.join('\n  ')}\n`);
      return 1;
    }
    io.out(`${files.size} files up to date\n`);
    return 0;
  }
  const changed = writeManifests(root, files);
  io.out(changed.length === 0 ? `${files.size} files up to date\n` : `wrote ${changed.join(', ')}\n`);
  return 0;
}

async function serve(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({ args, options: { ...COMPOSITION_OPTIONS, port: { type: 'string' } } });
  const compositions = await compositionsFromOptions(values, io.cwd);
  const config = loadConfig({ ...io.env, ...(values.port ? { PORT: values.port } : {}) }, compositions);
  // The server (pino and prom-client: CommonJS, most of ~0.4 s of loading) only for `serve`, so that
  // `render`, `manifests` and `--version` start fast (npm run bench:render).
  const [{ listen }, { createMetrics }, { createApp, createHealthApp, createLogger }] = await Promise.all([
    import('../server/listen.js'),
    import('../server/metrics.js'),
    import('../server/app.js'),
  ]);
  const logger = createLogger(config.logLevel);
  const state = { draining: false };
  const metrics = createMetrics();
  const app = createApp({ compositions, config, logger, metrics, state });
  const { shutdown } = await listen(app, createHealthApp(metrics, state, logger), config, logger, state);
  logger.info(
    {
      port: config.port,
      host: config.host || '*',
      tls: config.tls ? (config.tls.clientCaFile ? 'client certificates required' : 'on') : 'off',
      token: config.tokenFile ? 'required' : 'off',
      ...(config.metricsPort ? { metricsPort: config.metricsPort } : {}),
      compositions: compositions.map((c) => c.name),
    },
    'serving hooks',
  );
  return new Promise<number>((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      void shutdown().then(() => resolve(0));
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}

function invokedDirectly(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  const io: Io = {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    env: process.env,
    cwd: process.cwd(),
    stdin: async () => {
      let text = '';
      for await (const chunk of process.stdin) text += String(chunk);
      return text;
    },
  };
  main(process.argv.slice(2), io).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`modelhooks: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(2);
    },
  );
}
