#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { builtinCompositions } from './compositions.js';
import { loadConfig } from './config.js';
import { checkManifests, manifestFiles, writeManifests } from './cli/manifests.js';
import { render, UsageError } from './cli/render.js';
import { createApp } from './server.js';

const USAGE = `usage:
  modelhooks serve [--port N]                    serve the hooks (PORT, default 8080)
  modelhooks render <parent.yaml> [--observed FILE]... [--related FILE]... [--variant NAME] [--now RFC3339]
                                                 print the desired children and the new status
  modelhooks manifests [--check] [--dir DIR]     write (or check) crds/ and compositions/`;

export interface Io {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
}

/** Runs one command; resolves to the exit code (serve resolves only once it has stopped). */
export async function main(argv: string[], io: Io): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serve(args, io);
      case 'render':
        return renderCommand(args, io);
      case 'manifests':
        return manifestsCommand(args, io);
      case undefined:
      case '-h':
      case '--help':
        io.out(`${USAGE}\n`);
        return command === undefined ? 1 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`modelhooks: ${(err as Error).message}\n`);
      return 1;
    }
    if (err instanceof Error && err.message.startsWith('invalid configuration')) {
      io.err(`modelhooks: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

function renderCommand(args: string[], io: Io): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      observed: { type: 'string', multiple: true, default: [] },
      related: { type: 'string', multiple: true, default: [] },
      variant: { type: 'string' },
      now: { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new UsageError(`render takes one parent file\n${USAGE}`);
  if (values.now !== undefined && !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(values.now)) {
    throw new UsageError(`--now must be an RFC 3339 UTC time such as 2026-01-01T00:00:00Z, got "${values.now}"`);
  }
  const resolve = (f: string) => path.resolve(io.cwd, f);
  const config = loadConfig(io.env).hooks;
  io.out(
    render(builtinCompositions, config, {
      parentFile: resolve(positionals[0] as string),
      observedFiles: values.observed.map(resolve),
      relatedFiles: values.related.map(resolve),
      ...(values.variant ? { variant: values.variant } : {}),
      now: values.now ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    }),
  );
  return 0;
}

function manifestsCommand(args: string[], io: Io): number {
  const { values } = parseArgs({ args, options: { check: { type: 'boolean', default: false }, dir: { type: 'string' } } });
  const root = path.resolve(io.cwd, values.dir ?? '.');
  const files = manifestFiles(builtinCompositions);
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
  const { values } = parseArgs({ args, options: { port: { type: 'string' } } });
  const config = loadConfig({ ...io.env, ...(values.port ? { PORT: values.port } : {}) });
  const logger = pino({ level: config.logLevel });
  const state = { draining: false };
  const app = createApp({ compositions: builtinCompositions, config, logger, state });
  const server: Server = config.host ? app.listen(config.port, config.host) : app.listen(config.port);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  logger.info({ port: config.port, host: config.host || '*', compositions: builtinCompositions.map((c) => c.name) }, 'serving hooks');
  return new Promise<number>((resolve) => {
    const stop = (signal: string) => {
      if (state.draining) return;
      state.draining = true;
      logger.info({ signal }, 'draining: no new connections, finishing requests in flight');
      // Stops accepting and closes idle keep-alive connections; busy ones finish first.
      server.close(() => {
        logger.info('stopped');
        resolve(0);
      });
      setTimeout(() => {
        logger.warn({ timeoutSeconds: config.shutdownTimeoutSeconds }, 'requests still in flight at the shutdown timeout; closing them');
        server.closeAllConnections();
      }, config.shutdownTimeoutSeconds * 1000).unref();
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
  const io: Io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), env: process.env, cwd: process.cwd() };
  main(process.argv.slice(2), io).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`modelhooks: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(2);
    },
  );
}
