import { ignoredFieldsOf } from '../input/ignored-fields.js';
import type { ArtSpec } from './explainer-art.js';
import type { ComponentSpec, InferenceServiceSpec } from '../spec.js';
import { storageUriProblem } from '../storage/uri.js';

/*
 * What serves a transformer or an explainer, as KServe v0.20.0 counts it
 * (GetImplementations in pkg/apis/serving/v1beta1/transformer.go and explainer.go; the webhook's
 * validateExactlyOneImplementation): a transformer is its containers; an explainer is `art` or
 * its containers. A component with none, or with two, is one modelhooks cannot serve: it gets a
 * False condition of its own (Unsupported<Component>) and the rest of the InferenceService is
 * served — KServe's webhook refuses the whole object instead, with the message quoted here.
 */

export type Implementation = { kind: 'custom' } | { kind: 'art'; art: ArtSpec } | { kind: 'unsupported'; reason: string; message: string };

/** ExactlyOneErrorFor: the Go fields of the spec struct but the last. */
const EXACTLY_ONE = {
  transformer: 'exactly one of [PodSpec, ComponentExtensionSpec] must be specified in TransformerSpec',
  explainer: 'exactly one of [ART, PodSpec, ComponentExtensionSpec] must be specified in ExplainerSpec',
};

export const UNSUPPORTED_REASON = { transformer: 'UnsupportedTransformer', explainer: 'UnsupportedExplainer' } as const;

export function implementationOf(spec: InferenceServiceSpec, role: 'transformer' | 'explainer'): Implementation {
  const component = spec[role] as ComponentSpec;
  const containers = (component.containers ?? []).length > 0;
  const art = role === 'explainer' && isArt(component.art) ? component.art : undefined;
  const unsupported = (what: string, why: string): Implementation => ({
    kind: 'unsupported',
    reason: UNSUPPORTED_REASON[role],
    message: `${what}: ${why} (KServe: ${EXACTLY_ONE[role]}); the rest of the InferenceService is served`,
  });
  if (art && containers) return unsupported(`spec.${role}`, 'art and containers are both set');
  if (art) {
    const problem = art.storageUri ? storageUriProblem(art.storageUri) : undefined;
    return problem ? { kind: 'unsupported', reason: UNSUPPORTED_REASON.explainer, message: `spec.explainer.art.storageUri: ${problem}` } : { kind: 'art', art };
  }
  if (containers) return { kind: 'custom' };
  // Fields nothing here acts on name what was meant (an `alibi:` explainer of KServe before v0.13).
  const unknown = ignoredFieldsOf({ predictor: {}, [role]: component } as InferenceServiceSpec).filter((p) => p.startsWith(`spec.${role}.`));
  const served = role === 'explainer' ? 'art or containers' : 'containers';
  return unknown.length > 0 ? unsupported(unknown.join(', '), `not served; modelhooks serves ${served}`) : unsupported(`spec.${role}`, `no ${served}`);
}

const isArt = (v: unknown): v is ArtSpec => typeof v === 'object' && v !== null && !Array.isArray(v);
