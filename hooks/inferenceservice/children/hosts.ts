import type { IngressConfig } from '../config.js';
import { isDns1123Host, type Parent } from '../../kit/index.js';
import { serviceHost, serviceName, VISIBILITY_LABEL, type Role } from '../names.js';
import type { ComponentName } from '../spec.js';

/**
 * KServe's domain template, `{{ .Name }}-{{ .Namespace }}.{{ .IngressDomain }}`, and the
 * short spelling `{{name}}-{{namespace}}.{{domain}}`; `.Annotations.x` / `.Labels.x` too.
 */
export function renderDomain(template: string, name: string, parent: Parent<unknown>, domain: string): string {
  return template.replace(/\{\{\s*\.?([A-Za-z]+)(?:\.([\w./-]+))?\s*\}\}/g, (_m, key: string, sub: string | undefined) => {
    switch (key.toLowerCase()) {
      case 'name':
        return name;
      case 'namespace':
        return parent.metadata.namespace;
      case 'ingressdomain':
      case 'domain':
        return domain;
      case 'annotations':
        return (sub && parent.metadata.annotations?.[sub]) ?? '';
      case 'labels':
        return (sub && parent.metadata.labels?.[sub]) ?? '';
      default:
        return '';
    }
  });
}

/** A host an Ingress or HTTPRoute accepts: DNS-1123 labels of ≤63 characters, ≤253 in all. */
export const isValidHost = isDns1123Host;

export const isClusterLocal = (parent: Parent<unknown>) => parent.metadata.labels?.[VISIBILITY_LABEL] === 'cluster-local';

/** The external hosts: the whole service's (named after the parent) and each component's (after its Service). */
export interface ExternalHosts {
  service: string;
  components: Partial<Record<ComponentName, string>>;
  /** Whether every host is a DNS name an Ingress or HTTPRoute accepts. */
  valid: boolean;
}

/** Every external host, rendered once from the domain template. */
export function externalHostsFor(parent: Parent<unknown>, ingress: IngressConfig, components: ComponentName[]): ExternalHosts {
  const render = (name: string) => renderDomain(ingress.domainTemplate, name, parent, ingress.domain);
  const service = render(parent.metadata.name);
  const byRole = Object.fromEntries(components.map((role) => [role, render(serviceName(parent, role))]));
  return { service, components: byRole, valid: [service, ...Object.values(byRole)].every(isValidHost) };
}

/**
 * What each external host is rendered from: the parent's name (the service's host) and each
 * component's Service name. Known from the parent alone — unlike the domain and template,
 * which a Namespace may set — so customize asks for the routes labelled with them
 * (kit host-conflicts.ts). A cluster-local parent has no external host.
 */
export function hostSourcesFor(parent: Parent<unknown>, components: ComponentName[]): string[] {
  if (isClusterLocal(parent)) return [];
  return [parent.metadata.name, ...components.map((role) => serviceName(parent, role))];
}

/** The host of a component, or of the whole service. */
export const hostOf = (hosts: ExternalHosts, role?: ComponentName): string => (role ? (hosts.components[role] ?? '') : hosts.service);

/** The in-cluster URL of a role's Service. */
export const internalUrl = (parent: Parent<unknown>, role: Role) => `http://${serviceHost(parent, role)}`;
