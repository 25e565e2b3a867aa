import type { z } from 'zod';
import type { ConfigSchema } from './config.js';
import type { ObjectIndex } from './observed.js';
import type { Composed, KubeObject, Parent } from './types.js';

/** How Metacontroller updates a child type (the CompositeController's childResources updateStrategy.method). */
export type UpdateMethod = 'OnDelete' | 'Recreate' | 'InPlace' | 'RollingRecreate' | 'RollingInPlace';

/** A child type, as declared in the CompositeController's childResources. */
export interface ChildType {
  apiVersion: string;
  kind: string;
  /** Plural resource name, e.g. `deployments`. */
  resource: string;
  /** Defaults to InPlace: Metacontroller's own default, OnDelete, never applies our changes. */
  updateStrategy?: UpdateMethod;
}

/** One `kubectl get` column of the parent's CRD (additionalPrinterColumns). */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  priority?: number;
}

/** The parent custom resource: group, versions, kind, plural, short names and printer columns of its CRD. */
export interface ParentType {
  group: string;
  kind: string;
  plural: string;
  singular: string;
  shortNames?: string[];
  categories?: string[];
  /** Served versions, all with the same schema; the first one is the storage version. */
  versions: string[];
  printerColumns?: PrinterColumn[];
}

/** A related-resource rule of the customize hook. */
export interface RelatedRule {
  apiVersion: string;
  resource: string;
  namespace?: string;
  names?: string[];
  labelSelector?: LabelSelector;
}

/** A Kubernetes label selector (metav1.LabelSelector): every term must hold. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/** One term: NotIn and DoesNotExist also match an object without the key (labels.Selector). */
export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

/**
 * An object a composition reads by name from a fixed, documented namespace other than the
 * parent's — an admin's ConfigMap in a system namespace (KServe's inferenceservice-config). The
 * kit asks for it by name (a hook v2 rule may name another namespace) and lets it through to
 * `related`; every other object of another namespace stays out.
 */
export interface SystemObject {
  apiVersion: string;
  resource: string;
  kind: string;
  namespace: string;
  name: string;
}

/** The names a parent may give its children of one type (names it might not emit are harmless). */
export interface ChildNames {
  apiVersion: string;
  kind: string;
  names: string[];
}

/**
 * A variant: something the cluster serves (e.g. `openshift`: Routes) that lets a composition emit
 * some of its optional children. One naming scheme for every composition: a name it does not
 * declare adds nothing to it. Variants combine (`openshift,prometheus`), so no two variants of a
 * composition may name the same child. `modelhooks manifests` writes each variant as the kustomize
 * Component compositions/components/<name>/, which adds these children to the CompositeController.
 */
export interface Variant {
  /** e.g. `openshift`; lower-case letters, digits and `-`. */
  name: string;
  description: string;
  optionalChildren: string[];
}

/**
 * A DecoratorController beside the composition's CompositeController: it watches objects the
 * composition does not own (e.g. ServiceAccounts), asks for what its customize names, and writes
 * only labels and annotations onto each watched object — a summary that parents then read where
 * they already ask for that object. Metacontroller writes the object only when a value changes
 * (decorator/controller.go syncParentObject, updateStringMap), so an answer that stays the same
 * wakes no parent. Its hooks are `/hooks/<composition>/decorator-customize` and `decorator-sync`;
 * `modelhooks manifests` writes it as `modelhooks-<composition>-<name>` beside the composition's
 * CompositeController.
 */
export interface Decorator {
  /** e.g. `credentials`: lower-case letters, digits and `-`. */
  name: string;
  /** The decorated resource, e.g. `{ apiVersion: 'v1', resource: 'serviceaccounts', kind: 'ServiceAccount' }`. */
  resource: { apiVersion: string; resource: string; kind: string };
  /** The related objects the sync reads, from the decorated object alone (cached per uid and generation, as a composition's). */
  customize(object: KubeObject): RelatedRule[];
  /** The annotations to set on the object (`null` removes one), from it and the related objects. Pure. */
  sync(object: KubeObject, related: ObjectIndex): { annotations: Record<string, string | null> };
}

/** What `sync` is given: the parsed parent, its observed children, the related objects and the configuration. */
export interface SyncInput<Spec, Config = unknown> {
  parent: Parent<Spec>;
  /** Children Metacontroller observed for this parent (those it owns). */
  observed: ObjectIndex;
  /** Objects the customize hook asked for. */
  related: ObjectIndex;
  /** Whether the calling CompositeController declares this child type (e.g. Routes on OpenShift). */
  declares(apiVersion: string, kind: string): boolean;
  /** RFC 3339 time of this call, passed in: hooks never read a clock. */
  now: string;
  config: Config;
  finalizing: boolean;
}

/** A spec problem found after parsing: `spec.predictor.containers[0].securityContext.privileged`, and why. */
export interface SpecProblem {
  path: string;
  message: string;
}

/** What `sync` answers: the desired children (every one; a child left out is deleted) and the parent's status. */
export interface SyncOutput {
  status: Record<string, unknown>;
  /** Every desired child (typed builders' objects or kept wire objects): the kit orders them. */
  children: Composed[];
  resyncAfterSeconds?: number;
}

/** A composition: the parent type, its spec schema, its child types, customize rules and the `sync` function. */
export interface Composition<Spec = unknown, Config = unknown> {
  /** Route segment and manifest name, e.g. `trustyai`. */
  name: string;
  parent: ParentType;
  /** The single source of truth of the CRD's spec schema and of spec defaults. */
  spec: z.ZodType<Spec>;
  /**
   * The composition's settings: a zod schema over the environment with every default in it.
   * The server parses every composition's at start; `sync` and `customize` get the result.
   */
  config?: ConfigSchema<Config>;
  /** Optional schema of the status, for the CRD (unknown fields are kept regardless). */
  status?: z.ZodType;
  children: ChildType[];
  /** Emitted only where the CompositeController declares them. */
  optionalChildren?: ChildType[];
  variants?: Variant[];
  /**
   * CRDs of upstream kinds the composition reads (related objects), shipped in crds/ beside
   * the parent's so that a cluster without their operator can hold such objects.
   */
  upstreamCrds?: KubeObject[];
  /** A DecoratorController of the composition's (see Decorator). */
  decorator?: Decorator;
  /** Seconds between full resyncs, written to the CompositeController. */
  resyncPeriodSeconds?: number;
  /**
   * Written to the CompositeController's `parentResource.ignoreStatusChanges`: a change of the
   * parent's status alone (Metacontroller's own write after each sync) enqueues no sync
   * (metacontroller composite/controller.go updateParentObject), one sync fewer per status
   * write. Only for a composition whose answer never waits for its own status: the sync after
   * the write would answer the same.
   */
  ignoreStatusChanges?: boolean;
  /** `declares` tells whether the calling CompositeController declares a child type (e.g. HTTPRoutes). */
  customize?(parent: Parent<Spec>, config: Config, declares: (apiVersion: string, kind: string) => boolean): RelatedRule[];
  /**
   * The names of the children this parent may emit, derived from the parent alone. The kit
   * asks customize for same-named objects in the parent's namespace and, in sync, leaves out
   * a child whose name another owner holds, reporting Ready=False/ChildNameConflict.
   */
  childNames?(parent: Parent<Spec>, config: Config): ChildNames[];
  /** Objects read by name from a fixed namespace (see SystemObject); the same for every parent. */
  systemObjects?(config: Config): SystemObject[];
  /**
   * The server's configuration with what the cluster's own settings give laid over it (an
   * admin's ConfigMap among the related objects); the namespace's settings are laid over the
   * result. Pure; a setting it cannot read keeps the server's (the sync reports it).
   */
  configured?(config: Config, related: ObjectIndex): Config;
  sync(input: SyncInput<Spec, Config>): SyncOutput;
  /**
   * Problems of a parsed spec that depend on the server's configuration (e.g. the pod
   * security level): any answers InvalidSpec, as a schema problem does. `path` is the full
   * JSON path from `spec`. `metadata` is the parent's (its annotations may reach pods).
   */
  validate?(spec: Spec, config: Config, metadata: KubeObject['metadata']): SpecProblem[];
  /** The status to report when the spec is invalid; defaults to the previous status. */
  invalidStatus?(previous: Record<string, unknown>): Record<string, unknown>;
}

/** Lets a heterogeneous list of compositions be held together. */
// biome-ignore lint/suspicious/noExplicitAny: sync and customize take each composition's own Spec and Config: unknown would reject them all
export type AnyComposition<Config = any> = Composition<any, Config>;

/** A composition as written: the identity function that makes TypeScript check it (and infer its Spec). */
export function defineComposition<Spec, Config = unknown>(c: Composition<Spec, Config>): Composition<Spec, Config> {
  return c;
}
