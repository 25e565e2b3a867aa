import { Gauge, type Registry } from 'prom-client';
import { packageVersion } from './version.js';

/**
 * `modelhooks_build_info{version, node_version} 1`: which release and which Node every replica
 * runs, to join on or to count during a rollout (the `*_build_info` convention of Prometheus's
 * own exporters).
 */
export function registerBuildInfo(
  registry: Registry,
  version = versionOrUnknown(packageVersion),
  nodeVersion = process.version,
): Gauge<'version' | 'node_version'> {
  const gauge = new Gauge({
    name: 'modelhooks_build_info',
    help: 'The modelhooks version and the Node.js version this server runs, as labels; always 1.',
    labelNames: ['version', 'node_version'] as const,
    registers: [registry],
  });
  gauge.set({ version, node_version: nodeVersion }, 1);
  return gauge;
}

/** The package's version; `unknown` where no package.json of modelhooks is above the code (e.g. bundled), rather than no /metrics. */
export function versionOrUnknown(read: () => string): string {
  try {
    return read();
  } catch {
    return 'unknown';
  }
}
