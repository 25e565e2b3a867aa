import { isRecord, type SpecProblem } from '../../kit/index.js';
import { mergedContainerSecurity, mergedPodSecurity } from '../pod/merged-security.js';
import { podSecurityTypeProblems } from './pod-security-types.js';
import { podSecurityViolations, type PodSecurityLevel } from './pod-security-standards.js';
import { componentsOf, FRAMEWORK_KEYS, type InferenceServiceSpec } from '../spec.js';

type Obj = Record<string, unknown>;

/**
 * Each component's pod as the user asked for it, with our restricted defaults under every
 * field the user left unset where the level is restricted (as the pod builders merge them only
 * then: at baseline and privileged the pod is the user's, as KServe builds it), checked against
 * the parent's pod security level. A field the level forbids is named by its path in the spec; so is, at
 * every level, a security field of the wrong type (`privileged: "true"`), which the API server
 * would refuse in the Deployment whatever the level (kit/pod-security-types.ts).
 */
export function podSecurityProblems(spec: InferenceServiceSpec, level: PodSecurityLevel, parentAnnotations: Record<string, string> = {}): SpecProblem[] {
  return [
    ...inheritedAnnotationProblems(spec, level, parentAnnotations),
    ...componentsOf(spec).flatMap((role) => {
      const component = spec[role] as Obj;
      const prefix = `spec.${role}`;
      // A model (`model` or a framework key) is the predictor's first container; `art` the explainer's (explainer-art.ts).
      const modelKey =
        role === 'predictor'
          ? ['model', ...FRAMEWORK_KEYS].find((k) => isRecord(component[k]))
          : role === 'explainer' && isRecord(component.art)
            ? 'art'
            : undefined;
      const own = Array.isArray(component.containers) ? (component.containers as unknown[]) : [];
      const withDefaults = (c: unknown) => withContainerDefaults(c, level === 'restricted');
      const containers = [...(modelKey ? [component[modelKey]] : []), ...own].map(withDefaults);
      const containerPaths = [...(modelKey ? [`${prefix}.${modelKey}`] : []), ...own.map((_, i) => `${prefix}.containers[${i}]`)];
      const pod: Obj = {
        ...component,
        securityContext: level === 'restricted' ? mergedPodSecurity(component.securityContext) : component.securityContext,
        containers,
        ...(Array.isArray(component.initContainers) ? { initContainers: component.initContainers.map(withDefaults) } : {}),
        ...(Array.isArray(component.ephemeralContainers) ? { ephemeralContainers: component.ephemeralContainers.map(withDefaults) } : {}),
      };
      const annotations = isRecord(component.annotations)
        ? { values: component.annotations as Record<string, string>, path: `${prefix}.annotations` }
        : undefined;
      // Types first, on what the user wrote (not the merged defaults): a wrong type makes the value checks meaningless.
      const types = podSecurityTypeProblems(
        { ...component, containers: containers.map((_, i) => (i === 0 && modelKey ? component[modelKey] : own[i - (modelKey ? 1 : 0)])) },
        prefix,
        { containers: containerPaths },
      );
      if (types.length > 0) return types;
      return podSecurityViolations(pod, level, prefix, { containers: containerPaths, ...(annotations ? { annotations } : {}) });
    }),
  ];
}

/**
 * The InferenceService's own annotations reach every component's pods (metadata.ts), so a
 * forbidden one there (an unconfined AppArmor profile) is refused as in a component's,
 * unless every component overrides it.
 */
function inheritedAnnotationProblems(spec: InferenceServiceSpec, level: PodSecurityLevel, annotations: Record<string, string>): SpecProblem[] {
  const roles = componentsOf(spec);
  const overridden = (k: string) => roles.every((role) => isRecord(spec[role]?.annotations) && (spec[role]?.annotations as Obj)[k] !== undefined);
  const values = Object.fromEntries(Object.entries(annotations).filter(([k]) => !overridden(k)));
  return podSecurityViolations({}, level, 'metadata', { annotations: { values, path: 'metadata.annotations' } });
}

function withContainerDefaults(c: unknown, restricted: boolean): Obj {
  const container = isRecord(c) ? c : {};
  return restricted ? { ...container, securityContext: mergedContainerSecurity(container.securityContext) } : container;
}
