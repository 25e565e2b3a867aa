/** Every benchmark case, by composition. Building them runs the compositions (a second or so). */
import type { BenchCase } from './build.js';
import { inferenceserviceCases } from './inferenceservice.js';
import { inferencegraphCases } from './inferencegraph.js';
import { mlmodelCases } from './mlmodel.js';
import { tfservCases } from './tfserv.js';
import { trustyaiCases } from './trustyai.js';

export type { BenchCase } from './build.js';
export { GENERATION_MARKER, scaled } from './build.js';

const BUILDERS: Record<string, () => BenchCase[]> = {
  inferenceservice: inferenceserviceCases,
  trustyai: trustyaiCases,
  mlmodel: mlmodelCases,
  tfserv: tfservCases,
  inferencegraph: inferencegraphCases,
};

export const COMPOSITIONS = Object.keys(BUILDERS);

/** The cases of the named compositions (all when the list is empty). */
export function benchCases(compositions: readonly string[] = []): BenchCase[] {
  return (compositions.length ? compositions : COMPOSITIONS).flatMap((name) => {
    const build = BUILDERS[name];
    if (!build) throw new Error(`unknown composition "${name}"; known: ${COMPOSITIONS.join(', ')}`);
    return build();
  });
}

/** The cases --only names: whole compositions or single cases. */
export function selectCases(only: string[]): BenchCase[] {
  const compositions = only.map((o) => o.split('/')[0] as string);
  for (const c of compositions) if (!COMPOSITIONS.includes(c)) throw new Error(`--only: unknown composition "${c}"; known: ${COMPOSITIONS.join(', ')}`);
  const cases = benchCases([...new Set(compositions)]);
  const picked = only.length ? cases.filter((c) => only.some((o) => o === c.name || o === c.composition)) : cases;
  const missing = only.filter((o) => !picked.some((c) => c.name === o || c.composition === o));
  if (missing.length) throw new Error(`--only: no case ${missing.join(', ')}; cases: ${cases.map((c) => c.name).join(', ')}`);
  return picked;
}
