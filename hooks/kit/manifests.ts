import type { AnyComposition, ChildType, Composition } from './composition.js';
import { crdSchemaOf, type JsonSchema } from './schema.js';
import { MANAGED_BY } from './labels.js';

export const DEFAULT_VARIANT = 'default';

export interface ManifestOptions {
  /** Base URL of the hook server as Metacontroller reaches it. */
  hookBaseUrl: string;
  /** Seconds Metacontroller may wait for one hook call. */
  hookTimeout?: string;
}

export function crdFor(c: AnyComposition): Record<string, unknown> {
  const { parent } = c;
  const status: JsonSchema = c.status ? crdSchemaOf(c.status) : { type: 'object' };
  // Metacontroller writes observedGeneration; anything a newer hook adds must survive too.
  status['x-kubernetes-preserve-unknown-fields'] = true;
  const schema = {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: crdSchemaOf(c.spec),
      status,
    },
    required: ['spec'],
  };
  const columns = [
    ...(parent.printerColumns ?? []),
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ];
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${parent.plural}.${parent.group}`, labels: { 'app.kubernetes.io/managed-by': MANAGED_BY } },
    spec: {
      group: parent.group,
      names: {
        kind: parent.kind,
        listKind: `${parent.kind}List`,
        plural: parent.plural,
        singular: parent.singular,
        ...(parent.shortNames ? { shortNames: parent.shortNames } : {}),
        ...(parent.categories ? { categories: parent.categories } : {}),
      },
      scope: 'Namespaced',
      versions: parent.versions.map((name, i) => ({
        name,
        served: true,
        storage: i === 0,
        subresources: { status: {} },
        additionalPrinterColumns: columns,
        schema: { openAPIV3Schema: schema },
      })),
    },
  };
}

/** Child types a variant declares: every required child plus the optional ones it names. */
export function childTypesFor(c: Composition<unknown, unknown> | AnyComposition, variant: string): ChildType[] {
  const wanted = c.variants?.find((v) => v.name === variant)?.optionalChildren ?? [];
  const optional = (c.optionalChildren ?? []).filter((t) => wanted.includes(t.resource));
  return [...c.children, ...optional];
}

export function compositeControllerFor(c: AnyComposition, variant: string, options: ManifestOptions): Record<string, unknown> {
  const webhook = (hook: string) => ({
    url: `${options.hookBaseUrl}/hooks/${c.name}/${hook}`,
    timeout: options.hookTimeout ?? '10s',
    etag: { enabled: true, cacheTimeoutSeconds: 60, cacheCleanupSeconds: 300 },
  });
  const hooks: Record<string, unknown> = { sync: { version: 'v2', webhook: webhook('sync') } };
  if (c.customize) hooks.customize = { version: 'v2', webhook: webhook('customize') };
  if (c.finalize) hooks.finalize = { version: 'v2', webhook: webhook('finalize') };
  const v = c.variants?.find((x) => x.name === variant);
  return {
    apiVersion: 'metacontroller.k8s.io/v1alpha1',
    kind: 'CompositeController',
    metadata: {
      name: `modelhooks-${c.name}`,
      labels: { 'app.kubernetes.io/managed-by': MANAGED_BY, 'modelhooks.dev/variant': v ? v.name : DEFAULT_VARIANT },
    },
    spec: {
      generateSelector: true,
      ...(c.resyncPeriodSeconds ? { resyncPeriodSeconds: c.resyncPeriodSeconds } : {}),
      parentResource: { apiVersion: `${c.parent.group}/${c.parent.versions[0]}`, resource: c.parent.plural },
      childResources: childTypesFor(c, variant).map((t) => ({
        apiVersion: t.apiVersion,
        resource: t.resource,
        updateStrategy: { method: t.updateStrategy ?? 'InPlace' },
      })),
      hooks,
    },
  };
}

/** Every variant name any composition knows, the default first. */
export function variantNames(compositions: AnyComposition[]): string[] {
  const names = new Set<string>();
  for (const c of compositions) for (const v of c.variants ?? []) names.add(v.name);
  return [DEFAULT_VARIANT, ...[...names].sort()];
}
