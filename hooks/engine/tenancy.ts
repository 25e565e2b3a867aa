/**
 * What a parent's namespace decides before its composition runs: whether the server serves
 * it (`MODELHOOKS_NAMESPACE_SELECTOR`), the configuration its annotations give, and which
 * images its children may run (`modelhooks.dev/allowed-images`).
 */
import type { SyncInput } from '../kit/composition.js';
import { condition, READY, type Cond } from '../kit/status/conditions.js';
import { selectorMatches, type NamespaceSelector } from './namespace-selector.js';
import { imagesNotAllowed, namespaceSettings, parentNamespace, withNamespaceSettings } from './namespace-settings.js';
import { isRecord, type KubeObject } from '../kit/types.js';

export const NAMESPACE_NOT_ENABLED = 'NamespaceNotEnabled';
export const INVALID_NAMESPACE_SETTINGS = 'InvalidNamespaceSettings';
export const IMAGE_NOT_ALLOWED = 'ImageNotAllowed';

export interface Tenancy<Config> {
  /** The server's configuration with the namespace's settings laid over it. */
  config: Config;
  /** Ready=False when the parent must not be served: its children are kept, none added. */
  refused?: Cond;
  /** The image prefixes every child's containers must start with; undefined: any image. */
  allowedImages?: string[];
}

/**
 * The namespace's verdict for one parent.
 *
 * A Namespace missing from the related objects (Metacontroller not watching namespaces yet,
 * or not allowed to) cannot be shown to match a selector: with a selector set the parent is
 * not served (NamespaceNotEnabled) until it appears. Without a selector the server's own
 * settings apply, as they did before namespaces had any: an admin who relies on
 * allowed-images sets a selector every namespace matches (`kubernetes.io/metadata.name`), so
 * that nothing runs unchecked while the Namespace is unknown.
 */
export function tenancyOf<Config>(input: SyncInput<unknown, Config>, selector: NamespaceSelector | undefined): Tenancy<Config> {
  const name = input.parent.metadata.namespace;
  const ns = parentNamespace(input.related, name);
  if (selector && selector.requirements.length > 0) {
    if (!ns) {
      return refusal(
        input.config,
        NAMESPACE_NOT_ENABLED,
        `Namespace ${name} has not been observed, so it cannot be shown to match the namespace selector "${selector.text}"; children are kept, none are created`,
      );
    }
    if (!selectorMatches(selector, ns.metadata.labels)) {
      return refusal(
        input.config,
        NAMESPACE_NOT_ENABLED,
        `Namespace ${name} does not match the namespace selector "${selector.text}" (MODELHOOKS_NAMESPACE_SELECTOR): ask the cluster admin to enable it; children are kept, none are created`,
      );
    }
  }
  const { settings, problems } = namespaceSettings(ns);
  if (problems.length > 0) {
    const message = problems.map((p) => `Namespace ${name} annotation ${p.annotation}: ${p.message}`).join('; ');
    return refusal(input.config, INVALID_NAMESPACE_SETTINGS, `${message}; children are kept, none are changed`);
  }
  const config = withNamespaceSettings(input.config, settings);
  return settings.allowedImages ? { config, allowedImages: settings.allowedImages } : { config };
}

function refusal<Config>(config: Config, reason: string, message: string): Tenancy<Config> {
  return { config, refused: condition.false(READY, reason, message) };
}

/** Ready=False/ImageNotAllowed when an answered child runs an image outside the allowed prefixes. */
export function imageRefusalAnswer(response: Record<string, unknown>, allowed: string[] | undefined): Cond | undefined {
  if (!allowed) return undefined;
  const children = (Array.isArray(response.children) ? response.children : []).filter(isRecord) as unknown as KubeObject[];
  const refused = imagesNotAllowed(children, allowed);
  if (refused.length === 0) return undefined;
  const list = refused.map((r) => `${r.child} container ${r.container} image ${r.image}`).join('; ');
  return condition.false(
    READY,
    IMAGE_NOT_ALLOWED,
    `${list}: not under the namespace's allowed images (${allowed.join(', ')}); children are kept as they run, none are created or changed`,
  );
}
