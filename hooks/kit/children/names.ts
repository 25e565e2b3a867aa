import { shortHash } from './hash.js';

export const MAX_NAME_LENGTH = 63;
/** The DNS rules of Kubernetes names, in one place (apimachinery's validation). */
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** Names that must start with a letter (Services): DNS-1035 labels. */
export const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
/** Names of ConfigMaps, Secrets and most objects; dots allowed. The 253-character limit is checked apart. */
export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** A name of most objects without dots: a DNS-1123 label of ≤63 characters. */
export function isDns1123Label(name: string): boolean {
  return name.length <= MAX_NAME_LENGTH && DNS1123_LABEL.test(name);
}

/** Service names must also start with a letter (DNS-1035). */
export function isDns1035Label(name: string): boolean {
  return name.length <= MAX_NAME_LENGTH && DNS1035_LABEL.test(name);
}

/** `namespace/name`, both DNS-1123 labels (a Gateway's reference, as the settings give it). */
export function isLabelPair(ref: string): boolean {
  const parts = ref.split('/');
  return parts.length === 2 && parts.every(isDns1123Label);
}

/** A name with dots (ConfigMaps, Secrets, most objects): ≤253 characters. */
export function isDns1123Subdomain(name: string): boolean {
  return name.length <= 253 && DNS1123_SUBDOMAIN.test(name);
}

/** A host name: DNS-1123 labels of ≤63 characters, ≤253 in all. */
export function isDns1123Host(host: string): boolean {
  return host.length <= 253 && host.split('.').every(isDns1123Label);
}

/** How `childName` shortens a name: DNS-1035 for Services, and a length other than 63. */
export interface NameOptions {
  /** DNS-1035: the name must start with a letter (Services). */
  dns1035?: boolean;
  maxLength?: number;
}

/** Hex characters of the hash a changed name carries: 48 bits, so a colliding pair needs ~2^24 tries. */
export const NAME_HASH_LENGTH = 12;

/**
 * A child name built from parts joined by '-'. A name that needs no change is kept as it
 * is, so users recognise it. Any name that had to change — characters replaced (`.`, upper
 * case), a letter put in front of a leading digit, or cut to fit — ends with a 48-bit hash
 * of the ORIGINAL joined input: `foo.bar` and `foo-bar`, or two long names that differ only
 * at the end, never give the same name.
 */
export function childName(parts: string[], options: NameOptions = {}): string {
  const max = options.maxLength ?? MAX_NAME_LENGTH;
  const joined = parts.filter((p) => p !== '').join('-');
  // Most names need no change: one test instead of lower-casing and two replaces.
  let name = DNS1123_LABEL.test(joined) ? joined : sanitize(joined);
  if (options.dns1035 && !/^[a-z]/.test(name)) name = `x${name}`;
  if (name === joined && name !== '' && name.length <= max) return name;
  const suffix = shortHash(joined, NAME_HASH_LENGTH);
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
