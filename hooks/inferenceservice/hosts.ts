import type { HookConfig } from '../config.js';
import type { Parent } from '../kit/index.js';
import { serviceHost, serviceName, VISIBILITY_LABEL, type Role } from './names.js';
import type { ComponentName } from './spec.js';

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
        return parent.metadata.namespace ?? 'default';
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

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** A host an Ingress or HTTPRoute accepts: DNS-1123 labels of ≤63 characters, ≤253 in all. */
export function isValidHost(host: string): boolean {
  return host.length <= 253 && host.split('.').every((l) => l.length <= 63 && DNS_LABEL.test(l));
}

export const isClusterLocal = (parent: Parent<unknown>) => parent.metadata.labels?.[VISIBILITY_LABEL] === 'cluster-local';

/** The external host of the whole service (`name` = the parent) or of one component's Service. */
export function externalHost(parent: Parent<unknown>, config: HookConfig, role?: ComponentName): string {
  const name = role ? serviceName(parent, role) : parent.metadata.name;
  return renderDomain(config.ingress.domainTemplate, name, parent, config.ingress.domain);
}

/** The in-cluster URL of a role's Service. */
export const internalUrl = (parent: Parent<unknown>, role: Role) => `http://${serviceHost(parent, role)}`;
