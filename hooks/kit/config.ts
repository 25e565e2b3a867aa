import { z } from 'zod';
import { POD_SECURITY_LEVELS, POD_SECURITY_VARIABLE } from './pod-security.js';

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
  return Object.fromEntries(Object.keys(defaults).map((k) => [imageVariable(k), z.string().optional()]));
}

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

/**
 * `MODELHOOKS_POD_SECURITY`: the Pod Security Standard level tenant-supplied pod fields must
 * keep (restricted by default), for the config schema of every composition that takes any.
 */
export const podSecurityVariable = { [POD_SECURITY_VARIABLE]: z.enum(POD_SECURITY_LEVELS).default('restricted') };
