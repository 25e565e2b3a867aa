import path from 'node:path';

/** The environment helm runs with: its cache, config and data under `scratch`, none of $HOME. */
export const helmEnv = (scratch: string): NodeJS.ProcessEnv => ({
  ...process.env,
  HELM_CACHE_HOME: path.join(scratch, 'helm/cache'),
  HELM_CONFIG_HOME: path.join(scratch, 'helm/config'),
  HELM_DATA_HOME: path.join(scratch, 'helm/data'),
});
