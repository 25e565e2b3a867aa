import { shortHash } from './hash.js';

export const MAX_NAME_LENGTH = 63;
/** The DNS rules of Kubernetes names, in one place (apimachinery's validation). */
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
/** Names of ConfigMaps, Secrets and most objects; dots allowed. The 253-character limit is checked apart. */
export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

export function isDns1123Label(name: string): boolean {
  return name.length <= MAX_NAME_LENGTH && DNS1123_LABEL.test(name);
}

/** Service names must also start with a letter (DNS-1035). */
export function isDns1035Label(name: string): boolean {
  return name.length <= MAX_NAME_LENGTH && DNS1035_LABEL.test(name);
}

/** A host name: DNS-1123 labels of ≤63 characters, ≤253 in all. */
export function isDns1123Host(host: string): boolean {
  return host.length <= 253 && host.split('.').every(isDns1123Label);
}

export interface NameOptions {
  /** DNS-1035: the name must start with a letter (Services). */
  dns1035?: boolean;
  maxLength?: number;
}

/**
 * A child name built from parts joined by '-'. Names that fit are kept as they are,
 * so users recognise them; a name that is too long is cut and given a hash of the
 * full name, so two long parents that share a prefix never collide.
 */
export function childName(parts: string[], options: NameOptions = {}): string {
  const max = options.maxLength ?? MAX_NAME_LENGTH;
  let name = sanitize(parts.filter((p) => p !== '').join('-'));
  if (options.dns1035 && !/^[a-z]/.test(name)) name = `x${name}`;
  if (name.length <= max && name !== '') return name;
  const suffix = shortHash(parts.join('-'), 8);
  const head = name.slice(0, max - suffix.length - 1).replace(/-+$/, '');
  return head === '' ? (options.dns1035 ? `x${suffix}` : suffix) : `${head}-${suffix}`;
}

/** Lower-cases and replaces what a DNS label cannot hold; trims leading/trailing dashes. */
function sanitize(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/^-+|-+$/g, '');
}
