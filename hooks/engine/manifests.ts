import type { AnyComposition, ChildType, Composition } from '../kit/composition.js';
import { crdSchemaOf, type JsonSchema } from './schema.js';
import { MANAGED_BY } from '../kit/children/labels.js';
import { DNS1123_LABEL } from '../kit/children/names.js';
import { decoratorControllerName } from './decorator.js';

/** The name of no variant: a CompositeController with the required children only. */
export const DEFAULT_VARIANT = 'default';

/**
 * Variants as a caller names them: `default`, one name (`openshift`), a comma list
 * (`openshift,prometheus`) or an array of names. Variants combine: each adds its own optional
 * children, and a name a composition does not declare adds nothing to it.
 */
export type VariantSelection = string | readonly string[];

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
  const columns = [...(parent.printerColumns ?? []), { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }];
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

const VARIANT_NAME = DNS1123_LABEL;

/** The variant names of a selection, in order, without repeats; `default` alone is none. */
export function parseVariants(selection: VariantSelection | undefined): string[] {
  const parts = (typeof selection === 'string' ? [selection] : [...(selection ?? [])]).flatMap((s) => s.split(','));
  const names = [...new Set(parts.map((s) => s.trim()).filter((s) => s !== ''))];
  if (names.includes(DEFAULT_VARIANT)) {
    if (names.length > 1)
      throw new Error(`variant "${DEFAULT_VARIANT}" means no variant; it cannot be combined with ${names.filter((n) => n !== DEFAULT_VARIANT).join(', ')}`);
    return [];
  }
  for (const n of names) if (!VARIANT_NAME.test(n)) throw new Error(`invalid variant name "${n}": lower-case letters, digits and "-"`);
  return names;
}

/** Child types a selection declares: every required child, then each variant's optional ones in order. */
export function childTypesFor(c: Composition<unknown, unknown> | AnyComposition, variant: VariantSelection = DEFAULT_VARIANT): ChildType[] {
  const types = [...c.children];
  for (const name of parseVariants(variant)) for (const t of variantChildTypes(c, name)) if (!types.includes(t)) types.push(t);
  return types;
}

/** The optional child types one variant adds to a composition (none when it does not declare the variant). */
export function variantChildTypes(c: Composition<unknown, unknown> | AnyComposition, name: string): ChildType[] {
  const wanted = c.variants?.find((v) => v.name === name)?.optionalChildren ?? [];
  return (c.optionalChildren ?? []).filter((t) => wanted.includes(t.resource));
}

/**
 * Metacontroller's informers resync every parent this often when a CompositeController sets no
 * resyncPeriodSeconds: the default of its `--cache-flush-interval` (30m, pkg/cmd/metacontroller/main.go).
 */
export const METACONTROLLER_RELIST_SECONDS = 1800;

/** How often Metacontroller calls sync for an unchanged parent. */
export function resyncPeriodOf(c: AnyComposition): number {
  return c.resyncPeriodSeconds ?? METACONTROLLER_RELIST_SECONDS;
}

/**
 * How long Metacontroller keeps a hook answer to send its ETag back (If-None-Match). The entry
 * is stored by a 200 and never refreshed by a 304 (Metacontroller's pkg/hooks/webhook_etag.go;
 * zcache's Get does not extend an entry), so with a timeout shorter than the resync period no
 * steady-state call can be a 304. Two periods and a margin for a busy queue: at least two of
 * every three resyncs of an unchanged parent are 304s, and so is every other call in between.
 */
export function etagCacheTimeoutSeconds(c: AnyComposition): number {
  return 2 * resyncPeriodOf(c) + 60;
}

export function compositeControllerFor(c: AnyComposition, variant: VariantSelection, options: ManifestOptions): Record<string, unknown> {
  const webhook = (hook: string) => ({
    url: `${options.hookBaseUrl}/hooks/${c.name}/${hook}`,
    timeout: options.hookTimeout ?? '10s',
    etag: { enabled: true, cacheTimeoutSeconds: etagCacheTimeoutSeconds(c), cacheCleanupSeconds: 300 },
  });
  const hooks: Record<string, unknown> = { sync: { version: 'v2', webhook: webhook('sync') } };
  if (c.customize) hooks.customize = { version: 'v2', webhook: webhook('customize') };
  return {
    apiVersion: 'metacontroller.k8s.io/v1alpha1',
    kind: 'CompositeController',
    metadata: { name: compositeControllerName(c), labels: { 'app.kubernetes.io/managed-by': MANAGED_BY } },
    spec: {
      generateSelector: true,
      ...(c.resyncPeriodSeconds ? { resyncPeriodSeconds: c.resyncPeriodSeconds } : {}),
      parentResource: {
        apiVersion: `${c.parent.group}/${c.parent.versions[0]}`,
        resource: c.parent.plural,
        ...(c.ignoreStatusChanges ? { ignoreStatusChanges: true } : {}),
      },
      childResources: childTypesFor(c, variant).map(childResource),
      hooks,
    },
  };
}

export const compositeControllerName = (c: AnyComposition) => `modelhooks-${c.name}`;

/**
 * The composition's DecoratorController (kit/composition.ts Decorator), if it has one: its
 * resource with no selector, its customize and sync hooks (v2, with ETags as the
 * CompositeController's), no attachments. Metacontroller's ClusterRole must let it update that
 * resource (its production one allows everything).
 */
export function decoratorControllerFor(c: AnyComposition, options: ManifestOptions): Record<string, unknown> | undefined {
  const d = c.decorator;
  if (d === undefined) return undefined;
  const webhook = (hook: string) => ({
    url: `${options.hookBaseUrl}/hooks/${c.name}/${hook}`,
    timeout: options.hookTimeout ?? '10s',
    etag: { enabled: true, cacheTimeoutSeconds: etagCacheTimeoutSeconds(c), cacheCleanupSeconds: 300 },
  });
  return {
    apiVersion: 'metacontroller.k8s.io/v1alpha1',
    kind: 'DecoratorController',
    metadata: { name: decoratorControllerName(c, d), labels: { 'app.kubernetes.io/managed-by': MANAGED_BY } },
    spec: {
      resources: [{ apiVersion: d.resource.apiVersion, resource: d.resource.resource }],
      hooks: {
        sync: { version: 'v2', webhook: webhook('decorator-sync') },
        customize: { version: 'v2', webhook: webhook('decorator-customize') },
      },
    },
  };
}

const childResource = (t: ChildType) => ({ apiVersion: t.apiVersion, resource: t.resource, updateStrategy: { method: t.updateStrategy ?? 'InPlace' } });

/**
 * The JSON 6902 operations that turn the default CompositeController of `c` into one that also
 * declares the children of `variant`; [] when the variant adds nothing to it. Appending makes
 * them combine, since no two variants of a composition declare the same child (checked).
 */
export function variantPatchFor(c: AnyComposition, variant: string): Array<{ op: 'add'; path: string; value: unknown }> {
  return variantChildTypes(c, variant).map((t) => ({ op: 'add', path: '/spec/childResources/-', value: childResource(t) }));
}

/** Every variant name any composition knows, the default first. */
export function variantNames(compositions: AnyComposition[]): string[] {
  const names = new Set<string>();
  for (const c of compositions) for (const v of c.variants ?? []) names.add(v.name);
  return [DEFAULT_VARIANT, ...[...names].sort()];
}

/** Problems that would keep the variants of `c` from combining (one child type in two variants, unknown types). */
export function variantProblems(c: AnyComposition): string[] {
  const problems: string[] = [];
  const claimed = new Map<string, string>();
  for (const v of c.variants ?? []) {
    if (!VARIANT_NAME.test(v.name) || v.name === DEFAULT_VARIANT) problems.push(`${c.name}: invalid variant name "${v.name}"`);
    for (const r of v.optionalChildren) {
      if (!(c.optionalChildren ?? []).some((t) => t.resource === r)) problems.push(`${c.name}: variant ${v.name} names ${r}, not an optional child`);
      const other = claimed.get(r);
      if (other) problems.push(`${c.name}: ${r} is in variants ${other} and ${v.name}; combined they would declare it twice`);
      claimed.set(r, v.name);
    }
  }
  return problems;
}
