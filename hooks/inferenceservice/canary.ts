import type { KubeObject } from '../kit/index.js';
import { LEGACY_SPEC_HASH_LENGTH, SPEC_HASH_ANNOTATION } from './names.js';

/**
 * Whether the predictor runs a canary. A canary exists only while `canaryTrafficPercent`
 * is below 100 and the stable Deployment (as observed) runs another spec than the one asked
 * for now: the stable one is then kept as it is and the new spec runs as `-canary`.
 * Setting 100, or removing the field, promotes: the new spec moves to the stable Deployment.
 * Decided from observed state and the spec alone, so applying the answer changes nothing.
 */
export type CanaryDecision = { canary: false } | { canary: true; percent: number; stable: KubeObject };

export function canaryDecision(
  percent: number | undefined,
  observedStable: KubeObject | undefined,
  desired: { hash: string; legacyHash: () => string },
): CanaryDecision {
  if (percent === undefined || percent >= 100 || !observedStable) return { canary: false };
  const running = observedStable.metadata.annotations?.[SPEC_HASH_ANNOTATION];
  // A stable Deployment an earlier release annotated (its hash of sorted keys) runs this spec
  // too: no canary, and this answer gives it the new hash (a metadata change, no rollout).
  if (running === desired.hash || (running?.length === LEGACY_SPEC_HASH_LENGTH && running === desired.legacyHash())) return { canary: false };
  return { canary: true, percent, stable: observedStable };
}

/** KServe's traffic list for the printer columns (`prev` is the stable, the latest the canary). */
export function trafficOf(decision: CanaryDecision, stableName: string, canaryName: string): Array<Record<string, unknown>> | undefined {
  if (!decision.canary) return undefined;
  return [
    { tag: 'prev', revisionName: stableName, percent: 100 - decision.percent, latestRevision: false },
    { tag: 'latest', revisionName: canaryName, percent: decision.percent, latestRevision: true },
  ];
}
