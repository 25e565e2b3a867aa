// The choices deploy/ offers (its components) as the Helm chart's toggles, and every
// combination a user can make of them: what the chart is generated from and tested against.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** One TLS mode at most: deploy/components/tls-<mode>, or none. */
export const NO_TLS = 'none';

export interface Toggles {
  /** deploy/components/<name> that are not tls-*: the chart's `<camelCase>.enabled`. */
  flags: string[];
  /** The <mode> of each deploy/components/tls-<mode>: the chart's `tls.mode`. */
  tlsModes: string[];
}

/** One choice of components: which flags are on, which TLS mode. */
export interface Combination {
  flags: Record<string, boolean>;
  tls: string;
}

export function togglesOf(deployDir: string): Toggles {
  const dir = path.join(deployDir, 'components');
  // pod-webhook goes after a TLS component (its kustomization says why): not a chart toggle yet (docs/install.md).
  const names = readdirSync(dir)
    .filter((d) => statSync(path.join(dir, d)).isDirectory() && d !== 'pod-webhook')
    .sort();
  return {
    flags: names.filter((n) => !n.startsWith('tls-')),
    tlsModes: names.filter((n) => n.startsWith('tls-')).map((n) => n.slice('tls-'.length)),
  };
}

/** `gateway-api` → `gatewayApi`: the values key of a flag. */
export const valuesKey = (flag: string) => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Every combination: each flag on or off, times no TLS or one mode. */
export function combinations(t: Toggles): Combination[] {
  const flagSets = t.flags.reduce<Record<string, boolean>[]>(
    (acc, f) =>
      acc.flatMap((s) => [
        { ...s, [f]: false },
        { ...s, [f]: true },
      ]),
    [{}],
  );
  return flagSets.flatMap((flags) => [NO_TLS, ...t.tlsModes].map((tls) => ({ flags, tls })));
}

/** The deploy/ components of a combination, as `kustomize edit add component` would list them. */
export function componentsOf(c: Combination): string[] {
  return [...Object.keys(c.flags).filter((f) => c.flags[f]), ...(c.tls === NO_TLS ? [] : [`tls-${c.tls}`])].map((n) => `components/${n}`);
}

/** The Helm values that choose a combination (what `--set` or a values file would say). */
export function valuesOf(c: Combination): Record<string, unknown> {
  return { ...Object.fromEntries(Object.entries(c.flags).map(([f, on]) => [valuesKey(f), { enabled: on }])), tls: { mode: c.tls } };
}
