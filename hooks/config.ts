import { z } from 'zod';
import { builtinCompositions } from './compositions.js';
import { ConfigError } from './errors.js';
import { configProblems, configsFrom, type Env } from './kit/config.js';
import type { InferenceServiceConfig } from './inferenceservice/config.js';
import type { MLModelConfig } from './mlmodel/config.js';
import type { TfservConfig } from './tfserv/config.js';
import type { TrustyAIConfig } from './trustyai/config.js';

/** The server's own settings. Each composition declares its own (its `config.ts`). */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  MODELHOOKS_HOST: z.string().default(''),
  MODELHOOKS_BODY_LIMIT: z.string().regex(/^\d+(b|kb|mb|gb)?$/i, 'a size such as 16mb').default('16mb'),
  MODELHOOKS_LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  MODELHOOKS_CACHE_ENTRIES: z.coerce.number().int().min(0).default(512),
  MODELHOOKS_SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(0).default(25),
});

/** The built-in compositions' configurations, by composition name, as the server assembles them. */
export interface HookConfig {
  trustyai: TrustyAIConfig;
  tfserv: TfservConfig;
  mlmodel: MLModelConfig;
  inferenceservice: InferenceServiceConfig;
  [composition: string]: unknown;
}

export interface ServerConfig {
  port: number;
  /** Address to listen on; empty means every interface (what a pod needs). */
  host: string;
  bodyLimit: string;
  logLevel: z.infer<typeof envSchema>['MODELHOOKS_LOG_LEVEL'];
  cacheEntries: number;
  shutdownTimeoutSeconds: number;
  hooks: HookConfig;
}

/** Reads the configuration once, at the entry point; an invalid value names its variable. */
export function loadConfig(env: Env): ServerConfig {
  const parsed = envSchema.safeParse(env);
  const hooks = configsFrom(builtinCompositions, env);
  const problems = [...(parsed.success ? [] : configProblems(parsed.error)), ...hooks.problems];
  if (!parsed.success || problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.MODELHOOKS_HOST,
    bodyLimit: e.MODELHOOKS_BODY_LIMIT,
    logLevel: e.MODELHOOKS_LOG_LEVEL,
    cacheEntries: e.MODELHOOKS_CACHE_ENTRIES,
    shutdownTimeoutSeconds: e.MODELHOOKS_SHUTDOWN_TIMEOUT_SECONDS,
    hooks: hooks.configs as HookConfig,
  };
}

/** Every built-in composition's configuration with its defaults: for tests, `render` and examples. */
export const defaultHookConfig = (): HookConfig => loadConfig({}).hooks;
