import type { V1ConfigMap, V1ServiceAccount } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { childMeta, type Parent } from '../kit/index.js';
import { labelsFor, proxyConfigName, proxyServiceAccountName, PROXY_UPSTREAM_PORT, serviceName } from './names.js';

/** kube-rbac-proxy's identity (service_accounts.go@11c335b: `<n>-proxy`). */
export function proxyServiceAccountFor(parent: Parent<unknown>, version: string): V1ServiceAccount {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: childMeta(parent, proxyServiceAccountName(parent), labelsFor(parent, version)) };
}

/**
 * kube-rbac-proxy's configuration (templates/kube-rbac-proxy/config.tmpl.yaml@11c335b): a
 * caller passes only if it may `get` this service's Service; TLS 1.2+ with the same cipher suites.
 */
export function proxyConfigFor(parent: Parent<unknown>, version: string): V1ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: childMeta(parent, proxyConfigName(parent), { ...labelsFor(parent, version), 'app.kubernetes.io/component': 'kube-rbac-proxy' }),
    data: { 'config.yaml': configText(parent.metadata.namespace, serviceName(parent)) },
  };
}

/**
 * The text depends on the namespace and the Service's name only: written once per pair, not
 * once per sync (YAML serialisation is a large part of a sync otherwise). A bounded table, so a
 * server that sees many services does not grow without end; the text is the same either way.
 */
const configTexts = new Map<string, string>();
const MAX_CONFIG_TEXTS = 1024;

function configText(namespace: string, service: string): string {
  const key = `${namespace}/${service}`;
  const known = configTexts.get(key);
  if (known !== undefined) return known;
  if (configTexts.size >= MAX_CONFIG_TEXTS) configTexts.clear();
  const text = stringify(rbacProxyConfig(namespace, service));
  configTexts.set(key, text);
  return text;
}

function rbacProxyConfig(namespace: string, service: string) {
  return {
    authorization: {
      resourceAttributes: { namespace, resource: 'services', resourceName: service, verb: 'get', apiGroup: '' },
    },
    upstreamConfig: { url: `http://127.0.0.1:${PROXY_UPSTREAM_PORT}`, proxyTimeout: '30s' },
    tlsConfig: {
      minVersion: 'VersionTLS12',
      cipherSuites: [
        'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
        'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
        'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
        'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
        'TLS_RSA_WITH_AES_128_GCM_SHA256',
        'TLS_RSA_WITH_AES_256_GCM_SHA384',
      ],
    },
  };
}
