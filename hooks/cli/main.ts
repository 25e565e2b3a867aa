#!/usr/bin/env node
// Only node: built-ins and the help texts are imported up front: each command imports what it
// needs when it runs, so that `--help` starts in a node start-up's time and `render` loads no
// server (npm run bench:render measures both).
import { realpathSync } from 'node:fs';
import nodeModule from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { COMMANDS, type CommandName, USAGE } from './commands.js';
import { didYouMean } from '../engine/fields/suggest.js';
import { COMPOSITION_OPTIONS, compositionsFromOptions } from './load-compositions.js';
import { ConfigError, UsageError } from '../server/errors.js';

/** `serve --help`'s list of every variable the server and the built-in compositions read, from their schemas. */
async function environmentHelp(): Promise<string> {
  const [{ configVariables }, { builtinCompositions }] = await Promise.all([import('../server/config.js'), import('../compositions.js')]);
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
      io.out(`usage: ${COMMANDS[command as CommandName].help}\n${command === 'serve' ? await environmentHelp() : ''}`);
      return 0;
    }
    switch (command) {
      case 'serve':
        return await serve(args, io);
      case 'render':
        return await renderCommand(args, io);
      case 'manifests':
        return await manifestsCommand(args, io);
      case 'init':
        return await initCommand(args, io);
      case 'completion':
        return await completionCommand(args, io);
      case 'plan':
        return await (await import('./plan/command.js')).planCommand(args, io);
      case undefined:
      case '-h':
      case '--help':
        io.out(`${USAGE}\n`);
        return command === undefined ? 1 : 0;
      case '-v':
      case '--version':
        io.out(`modelhooks ${(await import('../server/version.js')).packageVersion()}\n`);
        return 0;
      default:
        throw new UsageError(
          `unknown command "${command}"${didYouMean(command, Object.keys(COMMANDS), (c) => `"${c}"`)} (modelhooks --help lists the commands)`,
        );
    }
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError) {
      io.err(`modelhooks: ${err.message}\n`);
      return 1;
    }
    const code = (err as { code?: string }).code;
    if (code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`modelhooks: ${parseArgsMessage(command as CommandName, err as Error)}\n`);
      return 1;
    }
    throw err;
  }
}

/**
 * node:util parseArgs's message in words of this CLI: an unknown option gets the nearest known
 * one (or the command that has it: `--output` is render's), and a missing value says which.
 */
function parseArgsMessage(command: CommandName, err: Error & { code?: string }): string {
  const options: readonly string[] = COMMANDS[command]?.options ?? [];
  const help = `modelhooks ${command} --help lists its options`;
  const unknown = /^Unknown option '(-{1,2}[^']+)'/.exec(err.message)?.[1];
  if (unknown) {
    const elsewhere = (Object.keys(COMMANDS) as CommandName[]).filter((c) => c !== command && (COMMANDS[c].options as readonly string[]).includes(unknown));
    if (elsewhere.length > 0) return `${command} takes no ${unknown}: it is an option of ${elsewhere.join(' and ')} (${help})`;
    return `${command}: unknown option ${unknown}${didYouMean(unknown, options)} (${help})`;
  }
  const missing = /^Option '(-[^']+)' argument missing/.exec(err.message)?.[1];
  if (missing) return `${command}: ${missing.replace(/ <value>$/, '')} needs a value (${help})`;
  return `${command}: ${err.message.split('. ')[0]} (${help})`;
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
      output: { type: 'string', short: 'o', default: 'yaml' },
    },
  });
  if (positionals.length !== 1) throw new UsageError(`render takes one parent file (or - for stdin)\nusage: ${COMMANDS.render.help}`);
  if (values.output !== 'yaml' && values.output !== 'json')
    throw new UsageError(`--output: yaml or json, not "${values.output}"${didYouMean(values.output, ['yaml', 'json'])}`);
  if (values.now !== undefined && !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(values.now)) {
    throw new UsageError(`--now must be an RFC 3339 UTC time such as 2026-01-01T00:00:00Z, got "${values.now}"`);
  }
  const files = [positionals[0] as string, ...values.observed, ...values.related];
  if (files.filter((f) => f === '-').length > 1)
    throw new UsageError('stdin (-) can be read only once: give it as the parent or as one --observed or --related file');
  const [{ readSource, render }, { loadConfig }] = await Promise.all([import('./render.js'), import('../server/config.js')]);
  // Read before the configuration, so a usage problem is reported first.
  const read = async (f: string) => {
    if (f !== '-') return readSource(path.resolve(io.cwd, f));
    if (!io.stdin) throw new UsageError('- (stdin) is not available here');
    return { name: '<stdin>', text: await io.stdin() };
  };
  const parent = await read(positionals[0] as string);
  const observed = await Promise.all(values.observed.map(read));
  const related = await Promise.all(values.related.map(read));
  const compositions = await compositionsFromOptions(values, io.cwd, io.env);
  const config = loadConfig(io.env, compositions).hooks;
  io.out(
    render(compositions, config, {
      parent,
      observed,
      related,
      ...(values.variant.length > 0 ? { variant: values.variant } : {}),
      now: values.now ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      childrenOnly: values['children-only'],
      output: values.output,
      warn: (text) => io.err(`modelhooks: warning: ${text}\n`),
    }),
  );
  return 0;
}

async function manifestsCommand(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { ...COMPOSITION_OPTIONS, check: { type: 'boolean', default: false }, dir: { type: 'string' }, 'hook-url': { type: 'string' } },
  });
  const hookUrl = values['hook-url'];
  if (hookUrl !== undefined && !/^https?:\/\/[^/\s]+(\/[^\s]*)?$/.test(hookUrl))
    throw new UsageError(`--hook-url: an http:// or https:// URL such as http://greeter-hooks.my-team.svc, not "${hookUrl}"`);
  const { checkManifests, IN_CLUSTER_HOOK_URL, manifestFiles, sourceOf, writeManifests } = await import('./manifests.js');
  const root = path.resolve(io.cwd, values.dir ?? '.');
  const compositions = await compositionsFromOptions(values, io.cwd, io.env);
  const files = manifestFiles(compositions, hookUrl?.replace(/\/+$/, '') ?? IN_CLUSTER_HOOK_URL, sourceOf(values.composition, !values['no-builtin']));
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

async function initCommand(args: string[], io: Io): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  if (positionals.length !== 1) throw new UsageError(`init takes one directory\nusage: ${COMMANDS.init.help}`);
  const { initProject } = await import('./init.js');
  const dir = path.resolve(io.cwd, positionals[0] as string);
  const files = initProject(dir);
  const shown = path.relative(io.cwd, dir) || '.';
  io.out(`created ${shown}: ${files.join(', ')}\nnext: cd ${shown} && npm install && npm test\n`);
  return 0;
}

async function completionCommand(args: string[], io: Io): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  if (positionals.length !== 1) throw new UsageError(`completion takes one shell: bash, zsh or fish\nusage: ${COMMANDS.completion.help}`);
  const { completionScript } = await import('./completion.js');
  io.out(completionScript(positionals[0] as string));
  return 0;
}

async function serve(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({ args, options: { ...COMPOSITION_OPTIONS, port: { type: 'string' } } });
  const compositions = await compositionsFromOptions(values, io.cwd, io.env);
  const { loadConfig } = await import('../server/config.js');
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
  // Node ≥ 22.1 keeps the compiled code of the modules it loads on disk (in the OS's temp
  // directory), so the next `render` skips compiling zod, yaml and the kit; Node 20 has no such
  // cache. Not for `serve`: a pod's root filesystem is read-only, and it starts once.
  if (process.argv[2] !== 'serve') (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
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
