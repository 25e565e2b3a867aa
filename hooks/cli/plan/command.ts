import { parseArgs } from 'node:util';
import { loadConfig } from '../../server/config.js';
import { UsageError } from '../../server/errors.js';
import { COMMANDS } from '../commands.js';
import { DEFAULT_NAMESPACE } from '../../engine/protocol.js';
import { parseNamespaceSelector, selectorMatches, type NamespaceSelector } from '../../engine/namespace-selector.js';
import type { AnyComposition } from '../../kit/composition.js';
import type { KubeObject } from '../../kit/types.js';
import { COMPOSITION_OPTIONS, compositionsFromOptions } from '../load-compositions.js';
import { Dump, parseDump, readDumpTexts, secretValues, withOverrides, yamlLoader } from './dump.js';
import { exitCodeOf, redacted, reportOf, textOf } from './output.js';
import { controllerFor, planParent, type ParentPlan, type PlanContext } from './plan.js';

/** What plan needs of the CLI's Io (main.ts). */
export interface PlanIo {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
  stdin?: () => Promise<string>;
}

/** `modelhooks plan`: resolves to its exit code; any error is reported and exits 1 (2 means changes). */
export async function planCommand(args: string[], io: PlanIo): Promise<number> {
  try {
    return await run(args, io);
  } catch (err) {
    const message = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? (err as Error).message : String(err);
    io.err(`modelhooks plan: ${message}\n`);
    return 1;
  }
}

async function run(args: string[], io: PlanIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...COMPOSITION_OPTIONS,
      'set-config': { type: 'string', multiple: true, default: [] },
      namespace: { type: 'string', multiple: true, default: [] },
      selector: { type: 'string' },
      kind: { type: 'string', multiple: true, default: [] },
      output: { type: 'string', short: 'o', default: 'text' },
      variant: { type: 'string', multiple: true, default: [] },
      now: { type: 'string' },
    },
  });
  if (positionals.length === 0) throw new UsageError(`plan takes at least one dump (a file, a directory, or - for stdin)\nusage: ${COMMANDS.plan.help}`);
  if (values.output !== 'text' && values.output !== 'json') throw new UsageError(`-o must be text or json, got "${values.output}"`);
  if (values.now !== undefined && !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(values.now)) {
    throw new UsageError(`--now must be an RFC 3339 UTC time such as 2026-01-01T00:00:00Z, got "${values.now}"`);
  }
  let selector: NamespaceSelector | undefined;
  try {
    selector = values.selector === undefined ? undefined : parseNamespaceSelector(values.selector);
  } catch (err) {
    throw new UsageError(`--selector: ${(err as Error).message}`);
  }
  const stdin = positionals.includes('-') || values['set-config'].includes('-') ? await io.stdin?.() : undefined;
  const started = Date.now();
  const load = await yamlLoader();
  const objects = readDumpTexts(positionals, io.cwd, stdin).flatMap((t) => parseDump(t.name, t.text, load));
  const overrides = readDumpTexts(values['set-config'], io.cwd, stdin).flatMap((t) => parseDump(t.name, t.text, load));
  const compositions = await compositionsFromOptions(values, io.cwd);
  const server = loadConfig(io.env, compositions);
  const all = withOverrides(objects, overrides);
  const dump = new Dump(all, compositions);
  const kinds = kindFilter(compositions, values.kind);
  const parents = parentsOf(compositions, dump).filter(
    ({ composition, parent }) =>
      kinds.has(composition) &&
      (values.namespace.length === 0 || values.namespace.includes(parent.metadata.namespace ?? DEFAULT_NAMESPACE)) &&
      (!selector || selectorMatches(selector, parent.metadata.labels)),
  );
  const ctx: PlanContext = {
    dump,
    now: values.now ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    config: server.hooks,
    ...(server.namespaceSelector.requirements.length > 0 ? { namespaceSelector: server.namespaceSelector } : {}),
    controllers: new Map(compositions.map((c) => [c.name, controllerFor(c, dump, values.variant)])),
    warnings: new Set(),
  };
  const plans: ParentPlan[] = [];
  let lastProgress = Date.now();
  for (const [i, { composition, parent }] of parents.entries()) {
    plans.push(planParent(composition, parent, ctx));
    if (Date.now() - lastProgress >= 2000) {
      lastProgress = Date.now();
      io.err(`plan: ${i + 1}/${parents.length} parents (${((lastProgress - started) / 1000).toFixed(1)} s)\n`);
    }
  }
  if (overrides.length > 0) ctx.warnings.add(`compared with ${overrides.length} object(s) from --set-config laid over the dump`);
  const report = redacted(reportOf(plans, [...ctx.warnings]), secretValues(all));
  io.out(values.output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : textOf(report));
  await stdoutTaken();
  if (parents.length >= 100) io.err(`plan: ${parents.length} parents in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return exitCodeOf(report);
}

/** The compositions `--kind` names (a kind, a plural or a composition name, any case); all without it. */
function kindFilter(compositions: AnyComposition[], kinds: string[]): Set<AnyComposition> {
  if (kinds.length === 0) return new Set(compositions);
  const wanted = kinds.flatMap((k) => k.split(',')).map((k) => k.trim().toLowerCase());
  const matches = (c: AnyComposition, k: string) => [c.parent.kind.toLowerCase(), c.parent.plural, c.parent.singular, c.name].includes(k);
  const unknown = wanted.filter((k) => !compositions.some((c) => matches(c, k)));
  if (unknown.length > 0) {
    throw new UsageError(`--kind: no composition serves ${unknown.join(', ')}; kinds: ${compositions.map((c) => c.parent.kind).join(', ')}`);
  }
  return new Set(compositions.filter((c) => wanted.some((k) => matches(c, k))));
}

/** Every parent in the dump, of every served version of every composition's kind, in the dump's order by namespace and name. */
function parentsOf(compositions: AnyComposition[], dump: Dump): Array<{ composition: AnyComposition; parent: KubeObject }> {
  const key = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
  return compositions.flatMap((composition) =>
    composition.parent.versions
      .flatMap((v) => dump.list(`${composition.parent.group}/${v}`, composition.parent.kind))
      .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
      .map((parent) => ({ composition, parent })),
  );
}

/**
 * main.ts ends the process with process.exit, which drops what a pipe has not taken yet: a large
 * report piped to jq came out cut (bench:plan). Wait until stdout has written it all (nothing to
 * wait for when the report went elsewhere, as in the tests).
 */
function stdoutTaken(): Promise<void> {
  if (process.stdout.writableLength === 0) return Promise.resolve();
  return new Promise((resolve) => {
    process.stdout.once('drain', resolve);
    process.stdout.once('error', () => resolve());
    process.stdout.once('close', resolve);
  });
}
