import { z } from 'zod';

/** The environment, as `process.env` holds it. */
export type Env = Record<string, string | undefined>;

/** A composition's settings: a zod schema over the environment, with every default in it. */
export type ConfigSchema<Config> = z.ZodType<Config>;

/** Each composition's parsed configuration, by composition name (what the server hands the kit). */
export type CompositionConfigs = Record<string, unknown>;

/** `MODELHOOKS_IMAGE_<KEY>`: the key upper-cased, `-` → `_`. */
export function imageVariable(key: string): string {
  return `MODELHOOKS_IMAGE_${key.toUpperCase().replace(/-/g, '_')}`;
}

/** The `MODELHOOKS_IMAGE_<KEY>` variables of a composition's images, for its config schema. */
export function imageVariables(defaults: Record<string, string>): Record<string, z.ZodOptional<z.ZodString>> {
  return Object.fromEntries(
    Object.entries(defaults).map(([k, image]) => [
      imageVariable(k),
      z
        .string()
        .optional()
        .meta({ description: `the ${k} image`, unset: image }),
    ]),
  );
}

/** One environment variable a config schema reads: what `serve --help` and the Helm chart list. */
export interface ConfigVariable {
  name: string;
  /** The default as text (`''` for an empty one), or what leaving it unset means, e.g. `(none)`. */
  default: string;
  /** One line: its `.describe()` (or `.meta({ description })`). */
  description: string;
  /** Its zod schema: what it accepts (the Helm chart's values.schema.json is made from it). */
  schema: z.ZodType;
}

/**
 * The variables of a config schema (a `z.object` over the environment, maybe `.transform`ed),
 * in the order it declares them. A variable's default is its schema's `.default()`, unless its
 * meta says what being unset means (`.meta({ unset: '(none)' })`) — for an optional one, or an
 * empty default that stands for something.
 */
export function configVariablesOf(schema: ConfigSchema<unknown>): ConfigVariable[] {
  let object = schema as unknown as ZodInternals;
  while (object._zod.def.type === 'pipe' && object._zod.def.in) object = object._zod.def.in;
  const shape = object._zod.def.shape ?? {};
  return Object.entries(shape).map(([name, field]) => {
    const meta = (field.meta?.() ?? {}) as { description?: string; unset?: string };
    const { defaultValue } = field._zod.def;
    const shown = meta.unset ?? (defaultValue === undefined ? '(none)' : String(defaultValue));
    return { name, default: shown, description: meta.description ?? field.description ?? '', schema: field as unknown as z.ZodType };
  });
}

/** The parts of a zod schema's internals `configVariablesOf` reads. */
type ZodInternals = {
  _zod: { def: { type: string; in?: ZodInternals; shape?: Record<string, ZodInternals>; defaultValue?: unknown } };
  meta?: () => unknown;
  description?: string;
};

/**
 * The images a composition runs: each default unless `MODELHOOKS_IMAGE_<KEY>` overrides it
 * (an empty value keeps the default). Two compositions may share a key: one variable sets both.
 */
export function imagesFrom<K extends string>(defaults: Record<K, string>, env: Env): Record<K, string> {
  const images = { ...defaults };
  for (const k of Object.keys(defaults) as K[]) {
    const override = env[imageVariable(k)];
    if (typeof override === 'string' && override !== '') images[k] = override;
  }
  return images;
}

/** The config schema of a composition whose only settings are its images. */
export function imagesOnlyConfig<K extends string>(defaults: Record<K, string>): ConfigSchema<{ images: Record<K, string> }> {
  return z.looseObject(imageVariables(defaults)).transform((env) => ({ images: imagesFrom(defaults, env as Env) }));
}

/** `VARIABLE: problem` for each issue of a failed parse. */
export function configProblems(error: z.ZodError): string[] {
  return error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

/**
 * Every composition's configuration from the environment, with every problem of every
 * composition listed (so a bad start names all the variables at once).
 */
export function configsFrom(
  compositions: ReadonlyArray<{ name: string; config?: ConfigSchema<unknown> }>,
  env: Env,
): { configs: CompositionConfigs; problems: string[] } {
  const configs: CompositionConfigs = {};
  const problems: string[] = [];
  for (const c of compositions) {
    if (!c.config) continue;
    const parsed = c.config.safeParse(env);
    if (parsed.success) configs[c.name] = parsed.data;
    else problems.push(...configProblems(parsed.error));
  }
  return { configs, problems };
}

/** A composition's own configuration: the one given, or its defaults when none was. */
export function configFor<Config>(composition: { name: string; config?: ConfigSchema<Config> }, configs: CompositionConfigs | undefined): Config {
  if (configs && composition.name in configs) return configs[composition.name] as Config;
  return composition.config ? composition.config.parse({}) : (undefined as Config);
}
