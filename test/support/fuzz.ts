/**
 * Hostile hook requests for every composition and hook (sync, customize, finalize), as a tenant
 * can make the API server store them: valid specs with pod fields the API server would refuse
 * in a child (names, env names, tolerations, label maps, ports, requests above limits, images
 * with whitespace), long parent names, and related and observed objects of any shape
 * (`status.conditions` a number, a null owner reference). Shared by the unit property
 * (test/property/fuzz.test.ts, a few hundred) and the soak (test/soak/fuzz.ts, ≥ 20,000).
 *
 * `judge` tells, of an answer, whether it is a 5xx and which children the API server would
 * refuse: `validateChildren` (the Kubernetes OpenAPI and the CRDs) with the apimachinery checks,
 * and the label and pod-name rules of test/support/labels.ts written apart from the hooks.
 */
import fc from 'fast-check';
import { builtinCompositions } from '../../hooks/compositions.js';
import type { AnyComposition, KubeObject, RelatedRule } from '../../hooks/kit/index.js';
import { CLUSTER_SCOPED_KINDS } from '../../hooks/kit/related.js';
import type { HookName } from '../../hooks/engine/request.js';
import { variantNames } from '../../hooks/engine/manifests.js';
import { ready, runCustomize, runSync, syncRequest } from '../../hooks/testing/index.js';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { kserveRuntimes } from '../../hooks/inferenceservice/runtime/kserve-runtimes.js';
import { INFERENCESERVICE_IMAGES } from '../../hooks/inferenceservice/config.js';
import { specArbitraries } from './arbitraries.js';
import { labelProblems, podNameProblems } from './labels.js';
import { validateObject } from './validate.js';

type Obj = Record<string, unknown>;
const config = defaultHookConfig();
const variants = variantNames(builtinCompositions);

// ---- hostile values ----------------------------------------------------------------------

const strings = [
  '',
  ' ',
  'a b',
  'A B',
  'x\n',
  'img ',
  ' img',
  'Bogus',
  '-a',
  'a-',
  'a..b',
  'a/b/c',
  '/a',
  '日本',
  '1abc',
  'a=b',
  '..',
  '.',
  'UPPER',
  'under_score',
  'dot.ted',
  'example.com/key',
  'a'.repeat(63),
  'a'.repeat(64),
  `${'a'.repeat(60)}.com/${'b'.repeat(64)}`,
  'ok',
  'http',
  'grpc--x',
  'exists',
];
export const hostileString = fc.oneof({ arbitrary: fc.constantFrom(...strings), weight: 4 }, { arbitrary: fc.string({ maxLength: 12 }), weight: 1 });
const hostileScalar = fc.oneof(hostileString, fc.constantFrom(null, 0, -1, 65536, 1.5, true, 1e21));
export const hostileJson = fc.oneof(
  { arbitrary: hostileScalar, weight: 3 },
  { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 },
  fc.constantFrom({}, [], [null], [1]),
);
const quantityish = fc.oneof(fc.constantFrom('100m', '1', '2', '500Mi', '1Gi', '4Gi', '0', 1, 2, '1e3', '1.5', '-1', 'lots', ' 1', '1e1000'), hostileScalar);
const resourceName = fc.oneof(
  fc.constantFrom('cpu', 'memory', 'ephemeral-storage', 'nvidia.com/gpu', 'hugepages-2Mi', 'pods', 'bogus', 'example.com/a b'),
  hostileString,
);
const resources = fc.record(
  { requests: fc.dictionary(resourceName, quantityish, { maxKeys: 3 }), limits: fc.dictionary(resourceName, quantityish, { maxKeys: 3 }) },
  { requiredKeys: [] },
);
const stringMap = fc.dictionary(hostileString, hostileString, { maxKeys: 3 });
const port = fc.record(
  {
    containerPort: fc.oneof(fc.integer({ min: -2, max: 70000 }), hostileScalar),
    name: hostileString,
    protocol: fc.oneof(fc.constantFrom('TCP', 'UDP', 'SCTP', 'HTTP'), hostileString),
    hostPort: fc.integer({ min: -1, max: 70000 }),
  },
  { requiredKeys: ['containerPort'] },
);
const toleration = fc.record(
  {
    key: hostileString,
    operator: fc.oneof(fc.constantFrom('Exists', 'Equal', 'Bogus', 'Lt'), hostileString),
    value: hostileString,
    effect: fc.oneof(fc.constantFrom('NoSchedule', 'PreferNoSchedule', 'NoExecute', 'Bogus'), hostileString),
    tolerationSeconds: fc.integer({ min: 0, max: 100 }),
  },
  { requiredKeys: [] },
);

/** `[path, value]`: where a hostile value goes. */
const at =
  (path: string[]) =>
  (v: unknown): [string[], unknown] => [path, v];

/** A field of a container and a hostile value for it. */
const containerField: fc.Arbitrary<[string[], unknown]> = fc.oneof(
  hostileString.map(at(['name'])),
  hostileString.map(at(['image'])),
  fc.array(fc.record({ name: hostileString, value: fc.string({ maxLength: 5 }) }), { minLength: 1, maxLength: 3 }).map(at(['env'])),
  fc.array(fc.record({ prefix: hostileString, configMapRef: fc.record({ name: fc.constant('cm') }) }), { minLength: 1, maxLength: 2 }).map(at(['envFrom'])),
  fc.array(port, { minLength: 1, maxLength: 3 }).map(at(['ports'])),
  resources.map(at(['resources'])),
  fc.array(fc.record({ name: hostileString, mountPath: hostileString }), { minLength: 1, maxLength: 2 }).map(at(['volumeMounts'])),
  fc.oneof(fc.constantFrom('Always', 'IfNotPresent', 'Never', 'Sometimes'), hostileString).map(at(['imagePullPolicy'])),
  fc.tuple(fc.constantFrom('args', 'command', 'workingDir', 'env', 'ports'), hostileJson).map(([k, v]): [string[], unknown] => [[k], v]),
);

/** A field of a pod spec (an InferenceService component inlines one) and a hostile value. */
const podField: fc.Arbitrary<[string[], unknown]> = fc.oneof(
  stringMap.map(at(['nodeSelector'])),
  fc.array(toleration, { minLength: 1, maxLength: 3 }).map(at(['tolerations'])),
  fc.array(fc.record({ name: hostileString, emptyDir: fc.constant({}) }), { minLength: 1, maxLength: 2 }).map(at(['volumes'])),
  fc
    .tuple(fc.constantFrom('priorityClassName', 'serviceAccountName', 'nodeName', 'hostname', 'subdomain', 'schedulerName', 'runtimeClassName'), hostileString)
    .map(([k, v]): [string[], unknown] => [[k], v]),
  fc.array(fc.record({ name: hostileString }), { minLength: 1, maxLength: 2 }).map(at(['imagePullSecrets'])),
  fc.tuple(fc.constantFrom('labels', 'annotations'), stringMap).map(([k, v]): [string[], unknown] => [[k], v]),
  fc.tuple(fc.constantFrom('restartPolicy', 'dnsPolicy', 'preemptionPolicy'), hostileString).map(([k, v]): [string[], unknown] => [[k], v]),
  fc.tuple(fc.constantFrom('terminationGracePeriodSeconds', 'activeDeadlineSeconds'), hostileScalar).map(([k, v]): [string[], unknown] => [[k], v]),
);

// ---- where each composition copies user fields ---------------------------------------------

const FRAMEWORKS = ['model', 'sklearn', 'xgboost', 'lightgbm', 'tensorflow', 'pytorch', 'onnx', 'triton', 'huggingface', 'pmml', 'paddle'];

/** Paths of the spec where `field` may land, for this spec (a container or a pod spec). */
function sites(composition: string, spec: Obj): { pod: string[][]; container: string[][]; top: string[][] } {
  if (composition === 'inferenceservice') {
    const roles = ['predictor', 'transformer', 'explainer'].filter((r) => spec[r] !== undefined);
    const pod = roles.map((r) => [r]);
    const container = roles.flatMap((r) => {
      const comp = spec[r] as Obj;
      const model = FRAMEWORKS.find((k) => comp[k] !== undefined);
      const own = Array.isArray(comp.containers) ? comp.containers.map((_, i) => [r, 'containers', String(i)]) : [];
      return [...(model ? [[r, model]] : []), ...own];
    });
    return {
      pod,
      container,
      top: [
        ['predictor', 'batcher'],
        ['predictor', 'logger'],
        ['predictor', 'minReplicas'],
      ],
    };
  }
  if (composition === 'inferencegraph') return { pod: [[]], container: [[]], top: [['affinity'], ['resources'], ['nodes']] };
  if (composition === 'trustyai') return { pod: [], container: [[]], top: [['replicas'], ['storage'], ['data']] };
  if (composition === 'tfserv') return { pod: [], container: [[]], top: [['grpcPort'], ['restPort'], ['configFileLocation']] };
  return { pod: [], container: [[]], top: [['modelURL'], ['storageSize'], ['downloadImage']] };
}

/** Which field arbitraries apply where: IG, TrustyAI, Tfserv and MLModel take only some container fields at the top of the spec. */
const TOP_CONTAINER_FIELDS: Record<string, string[]> = {
  inferencegraph: ['resources'],
  trustyai: ['resources'],
  tfserv: ['resources', 'image'],
  mlmodel: ['image', 'downloadImage'],
};
const TOP_POD_FIELDS: Record<string, string[]> = { inferencegraph: ['tolerations', 'nodeSelector', 'nodeName', 'serviceAccountName'] };

function setPath(root: Obj, path: string[], value: unknown): void {
  let at: Obj = root;
  for (const key of path.slice(0, -1)) {
    if (typeof at[key] !== 'object' || at[key] === null) at[key] = /^\d+$/.test(key) ? [] : {};
    at = at[key] as Obj;
  }
  const last = path.at(-1);
  // A copy: fast-check shares constant values between cases, and a later path may run through this one.
  if (last !== undefined) at[last] = structuredClone(value);
}

// ---- related and observed objects ----------------------------------------------------------

const KINDS: Record<string, string> = {
  configmaps: 'ConfigMap',
  secrets: 'Secret',
  serviceaccounts: 'ServiceAccount',
  pods: 'Pod',
  namespaces: 'Namespace',
  inferenceservices: 'InferenceService',
  trustyaiservices: 'TrustyAIService',
  servingruntimes: 'ServingRuntime',
  clusterservingruntimes: 'ClusterServingRuntime',
  routes: 'Route',
  storageclasses: 'StorageClass',
  deployments: 'Deployment',
  services: 'Service',
  persistentvolumeclaims: 'PersistentVolumeClaim',
  jobs: 'Job',
};

/**
 * One object per rule of customize's answer, plausible, named as the rule asks; KServe's shipped
 * ClusterServingRuntimes. Not for the rules that ask for objects named as children (the
 * conflict check): those would hold every child's name, and the children are what is judged.
 */
function relatedFor(rules: RelatedRule[], namespace: string, spec: Obj, childResources: ReadonlySet<string>): KubeObject[] {
  return rules.flatMap((rule): KubeObject[] => {
    const kind = KINDS[rule.resource];
    if (!kind || childResources.has(rule.resource)) return [];
    if (kind === 'ClusterServingRuntime') return kserveRuntimes(INFERENCESERVICE_IMAGES) as unknown as KubeObject[];
    const names = rule.names?.length ? rule.names.slice(0, 2) : ['x1'];
    return names.map((name) => {
      const labels = { ...(rule.labelSelector?.matchLabels ?? {}) };
      const metadata: Obj = { name, uid: `uid-${name}`, labels, annotations: {} };
      if (!CLUSTER_SCOPED_KINDS.has(kind)) metadata.namespace = rule.namespace ?? namespace;
      const obj = { apiVersion: rule.apiVersion, kind, metadata } as KubeObject;
      if (kind === 'InferenceService') {
        obj.spec = { predictor: { sklearn: { storageUri: 'gs://b/m' } } };
        obj.status = {
          url: `http://${name}.${namespace}.svc.cluster.local`,
          address: { url: `http://${name}.svc` },
          conditions: [{ type: 'Ready', status: 'True' }],
        };
      } else if (kind === 'ConfigMap')
        obj.data = {
          'config.yaml': 'a: 1',
          'models.conf': 'model_config_list {}',
          ...(spec.configFileName ? { [String(spec.configFileName)]: 'model_config_list {}' } : {}),
        };
      else if (kind === 'Secret') obj.data = { awsAccessKeyID: 'YQ==' };
      else if (kind === 'ServiceAccount') obj.secrets = [{ name: 's3' }];
      else if (kind === 'Pod') obj.status = { phase: 'Pending', containerStatuses: [{ name: 'c', state: { waiting: { reason: 'ImagePullBackOff' } } }] };
      else if (kind === 'TrustyAIService') obj.status = { conditions: [{ type: 'Ready', status: 'True' }], servesHttps: true };
      else obj.spec = {};
      return obj;
    });
  });
}

/** Where an untrusted object is broken: what the API server stores for most of these is anything under status, and metadata as typed. */
const BREAK_PATHS = [
  ['status'],
  ['status', 'conditions'],
  ['status', 'conditions', '0'],
  ['status', 'conditions', '0', 'status'],
  ['status', 'address'],
  ['status', 'url'],
  ['status', 'components'],
  ['status', 'loadBalancer'],
  ['status', 'containerStatuses'],
  ['status', 'replicas'],
  ['metadata', 'ownerReferences'],
  ['metadata', 'labels'],
  ['metadata', 'annotations'],
  ['metadata', 'generation'],
  ['metadata', 'deletionTimestamp'],
  ['spec'],
  ['spec', 'template'],
  ['spec', 'selector'],
  ['spec', 'ports'],
  ['spec', 'containers'],
  ['data'],
  ['secrets'],
];
const breakage = (paths: string[][]) =>
  fc.array(fc.tuple(fc.nat(), fc.constantFrom(...paths), fc.oneof(hostileJson, fc.constant([null]), fc.constant(null))), { maxLength: 3 });
/**
 * Observed children are objects of the declared types the API server validated: only their
 * status (which their controllers write) and owner references are broken; related objects
 * anywhere the paths above reach.
 */
const OBSERVED_BREAK_PATHS = BREAK_PATHS.filter((p) => p[0] === 'status' || p[1] === 'ownerReferences');

// ---- requests ----------------------------------------------------------------------------

/** A parent name as the API server allows it: a DNS subdomain of ≤253, often 63–64 characters. */
const parentName = fc.oneof(
  fc.stringMatching(/^[a-z]([a-z0-9-]{0,10}[a-z0-9])?$/),
  fc.integer({ min: 50, max: 70 }).map((n) => `p${'a'.repeat(n - 2)}1`),
  fc
    .integer({ min: 60, max: 253 })
    .map((n) => `p.${'b'.repeat(Math.min(61, n - 4))}${'.c'.repeat(Math.max(0, Math.floor((n - 65) / 2)))}`.slice(0, n).replace(/[.-]+$/, '')),
);

export interface FuzzCase {
  composition: string;
  hook: HookName;
  body: Obj;
}

const compositionsByName = new Map<string, AnyComposition>(builtinCompositions.map((c) => [c.name, c as AnyComposition]));

/** A hostile request for `composition`. */
function caseFor(composition: AnyComposition): fc.Arbitrary<FuzzCase> {
  const specs = specArbitraries[composition.name] ?? fc.constant({});
  const childResources = new Set([...composition.children, ...(composition.optionalChildren ?? [])].map((t) => t.resource));
  const injection = fc.record({
    which: fc.nat(),
    kind: fc.constantFrom('pod', 'pod', 'pod', 'container', 'container', 'container', 'top-pod', 'top-pod', 'top'),
    pod: podField,
    container: containerField,
    json: hostileJson,
  });
  return fc
    .record({
      spec: specs,
      injections: fc.array(injection, { maxLength: 2 }),
      name: parentName,
      namespace: fc.constantFrom('ns', 'team-a'),
      variant: fc.constantFrom(...variants),
      hook: fc.constantFrom<HookName>('sync', 'sync', 'sync', 'sync', 'customize', 'finalize'),
      observedBreaks: breakage(OBSERVED_BREAK_PATHS),
      relatedBreaks: breakage(BREAK_PATHS),
      withObserved: fc.boolean(),
    })
    .map((r) => {
      const spec = structuredClone(r.spec) as Obj;
      const where = sites(composition.name, spec);
      for (const inj of r.injections) {
        if (inj.kind === 'pod' && where.pod.length > 0) {
          const base = where.pod[inj.which % where.pod.length] as string[];
          setPath(spec, [...base, ...inj.pod[0]], inj.pod[1]);
        } else if (inj.kind === 'container' && where.container.length > 0) {
          const base = where.container[inj.which % where.container.length] as string[];
          const allowed = base.length === 0 ? TOP_CONTAINER_FIELDS[composition.name] : undefined;
          const [path, value] = inj.container;
          if (allowed && !allowed.includes(path[0] as string)) setPath(spec, [allowed[inj.which % allowed.length] as string], value);
          else setPath(spec, [...base, ...path], value);
        } else if (inj.kind === 'top-pod' && TOP_POD_FIELDS[composition.name]) {
          const [path, value] = inj.pod;
          const allowed = TOP_POD_FIELDS[composition.name] as string[];
          setPath(spec, allowed.includes(path[0] as string) ? path : [allowed[inj.which % allowed.length] as string], value);
        } else {
          setPath(spec, where.top[inj.which % where.top.length] as string[], inj.json);
        }
      }
      const parent = {
        apiVersion: `${composition.parent.group}/${composition.parent.versions[0]}`,
        kind: composition.parent.kind,
        metadata: { name: r.name, namespace: r.namespace, generation: 1, uid: 'uid-p' },
        spec,
      };
      const options = { parent, variant: r.variant, config };
      // What the cluster would hold: the children of the valid spec, ready; the objects customize asks for.
      let observed: KubeObject[] = [];
      let related: KubeObject[] = [];
      try {
        const clean = { ...parent, spec: r.spec };
        related = relatedFor(runCustomize(composition, { ...options, parent: clean }), r.namespace, r.spec, childResources);
        if (r.withObserved) observed = runSync(composition, { ...options, parent: clean, related }).children.map((c) => ready(c));
      } catch {
        // A spec the arbitrary made that the composition refuses: no observed children then.
      }
      observed = broken(observed, r.observedBreaks);
      related = broken(related, r.relatedBreaks);
      const body = syncRequest(composition, { parent, observed, related, variant: r.variant }) as Obj;
      if (r.hook === 'finalize') body.finalizing = true;
      return { composition: composition.name, hook: r.hook, body };
    });
}

function broken(objects: KubeObject[], breaks: Array<[number, string[], unknown]>): KubeObject[] {
  if (objects.length === 0 || breaks.length === 0) return objects;
  const copy = structuredClone(objects);
  for (const [which, path, value] of breaks) setPath(copy[which % copy.length] as unknown as Obj, path, value);
  return copy;
}

/** Marks every Secret value a decorator case sends: no answer may carry it. */
const SECRET_MARK = 'SECRETVALUE';

/**
 * A hostile request for a composition's DecoratorController (engine/decorator.ts): the
 * decorated ServiceAccount with any `secrets` list and metadata, and the namespace's Secrets
 * (some of another namespace, some of any shape), as a tenant could make them.
 */
function decoratorCaseFor(composition: AnyComposition): fc.Arbitrary<FuzzCase> {
  const secretName = fc.oneof(fc.constantFrom('s3', 'gcs', 'storage-config', 'hf'), fc.string({ minLength: 1, maxLength: 12 }));
  const value = fc.string({ maxLength: 16 }).map((v) => `${SECRET_MARK}${v}`);
  const secret = fc.record({
    name: secretName,
    namespace: fc.constantFrom('ns', 'ns', 'other'),
    data: fc.oneof(fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), value, { maxKeys: 4 }), hostileJson),
    stringData: fc.option(fc.dictionary(fc.constantFrom('s3', 'gcs', 'type', 'x'), value, { maxKeys: 2 }), { nil: undefined }),
    annotations: fc.oneof(fc.dictionary(fc.constantFrom('serving.kserve.io/s3-endpoint', 'serving.kserve.io/s3-usehttps', 'note'), fc.string()), hostileJson),
    break: breakage(BREAK_PATHS),
  });
  return fc
    .record({
      hook: fc.constantFrom<HookName>('decorator-sync', 'decorator-sync', 'decorator-sync', 'decorator-customize'),
      namespace: fc.constantFrom('ns', 'team-a'),
      listed: fc.oneof(fc.array(fc.oneof(fc.record({ name: secretName }), hostileJson), { maxLength: 4 }), hostileJson),
      // Annotations are strings in any object the API server stores (a non-string is a 400, as for a parent).
      annotations: fc.oneof(
        fc.constant(undefined),
        fc.dictionary(
          fc.constantFrom('modelhooks.dev/credentials', 'a'),
          fc.oneof(
            fc.string(),
            hostileJson.map((j) => JSON.stringify(j) ?? ''),
          ),
        ),
      ),
      secrets: fc.array(secret, { maxLength: 5 }),
    })
    .map((r) => {
      const sa = {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'default', namespace: r.namespace, uid: 'uid-sa', annotations: r.annotations },
        secrets: r.listed,
      };
      const secrets = r.secrets.map((x) => {
        const namespace = x.namespace === 'ns' ? r.namespace : x.namespace;
        const object = {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: x.name, namespace, annotations: x.annotations },
          data: x.data,
          stringData: x.stringData,
        };
        return [`${namespace}/${x.name}`, broken([object as unknown as KubeObject], x.break)[0]] as const;
      });
      const related = {
        'Secret.v1': Object.fromEntries(secrets),
        'Namespace.v1': { [r.namespace]: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: r.namespace } } },
      };
      const body: Obj =
        r.hook === 'decorator-customize'
          ? { controller: { metadata: { name: `modelhooks-${composition.name}-credentials` } }, parent: sa }
          : { controller: { metadata: { name: `modelhooks-${composition.name}-credentials` } }, object: sa, attachments: {}, related, finalizing: false };
      return { composition: composition.name, hook: r.hook, body };
    });
}

/** Hostile requests across every composition (and its DecoratorController, where it has one). */
export const fuzzCase: fc.Arbitrary<FuzzCase> = fc.oneof(
  ...builtinCompositions.map((c) => caseFor(c as AnyComposition)),
  ...builtinCompositions.filter((c) => c.decorator !== undefined).map((c) => decoratorCaseFor(c as AnyComposition)),
);

// ---- judging ------------------------------------------------------------------------------

export interface Verdict {
  /** The answer's status code was 5xx. */
  serverError: boolean;
  /** Problems of children the API server would refuse, `Kind/name: …`. */
  invalidChildren: string[];
  /** Ready=False/InvalidSpec, and whether it names a child (the engine's last check) rather than a spec field. */
  invalidSpec?: 'spec' | 'child';
}

/** What is wrong with an answer of `status` and `text` to `c`. */
export function judge(c: FuzzCase, status: number, text: string): Verdict {
  if (status >= 500) return { serverError: true, invalidChildren: [] };
  if (status === 200 && c.hook === 'decorator-sync') return { serverError: false, invalidChildren: decoratorProblems(text) };
  if (status !== 200 || c.hook === 'customize' || c.hook === 'decorator-customize') return { serverError: false, invalidChildren: [] };
  const answer = JSON.parse(text) as { children?: KubeObject[]; status?: Obj };
  const children = answer.children ?? [];
  const ns = (c.body.parent as KubeObject).metadata.namespace;
  const invalidChildren = children.flatMap((child) => [
    ...validateObject(child),
    ...labelProblems(child),
    ...podNameProblems(child),
    ...(child.metadata.namespace === ns ? [] : [`${child.kind}/${child.metadata.name}: outside the parent's namespace`]),
  ]);
  const conditions = Array.isArray(answer.status?.conditions) ? (answer.status.conditions as Obj[]) : [];
  const readyCondition = conditions.find((x) => x.type === 'Ready');
  const verdict: Verdict = { serverError: false, invalidChildren };
  if (readyCondition?.reason === 'InvalidSpec') verdict.invalidSpec = /^[A-Z][A-Za-z]+\/\S+ /.test(String(readyCondition.message)) ? 'child' : 'spec';
  return verdict;
}

/** What is wrong with a DecoratorController's answer: annotations that are not strings (or null to remove), a Secret value in it. */
function decoratorProblems(text: string): string[] {
  const answer = JSON.parse(text) as { annotations?: Record<string, unknown> };
  const problems = Object.entries(answer.annotations ?? {}).flatMap(([k, v]) =>
    v === null || typeof v === 'string' ? [] : [`ServiceAccount annotation ${k}: not a string`],
  );
  if (text.includes(SECRET_MARK)) problems.push('ServiceAccount: a Secret value in the answer');
  return problems;
}

/** Tally of a fuzz run. */
export interface Tally {
  requests: number;
  byStatus: Record<number, number>;
  serverErrors: Array<{ composition: string; hook: string; text: string }>;
  answersWithInvalidChildren: number;
  invalidChildren: number;
  examples: string[];
  invalidSpec: { spec: number; child: number };
  childExamples: string[];
}

export function newTally(): Tally {
  return {
    requests: 0,
    byStatus: {},
    serverErrors: [],
    answersWithInvalidChildren: 0,
    invalidChildren: 0,
    examples: [],
    invalidSpec: { spec: 0, child: 0 },
    childExamples: [],
  };
}

export function record(t: Tally, c: FuzzCase, status: number, text: string): Verdict {
  const v = judge(c, status, text);
  t.requests++;
  t.byStatus[status] = (t.byStatus[status] ?? 0) + 1;
  if (v.serverError && t.serverErrors.length < 50) t.serverErrors.push({ composition: c.composition, hook: c.hook, text: text.slice(0, 300) });
  else if (v.serverError) t.serverErrors.push({ composition: c.composition, hook: c.hook, text: '' });
  if (v.invalidChildren.length > 0) {
    t.answersWithInvalidChildren++;
    t.invalidChildren += v.invalidChildren.length;
    if (t.examples.length < 30) t.examples.push(`${c.composition}: ${v.invalidChildren[0]}`);
  }
  if (v.invalidSpec) {
    t.invalidSpec[v.invalidSpec]++;
    if (v.invalidSpec === 'child' && t.childExamples.length < 20) {
      const ready = ((JSON.parse(text) as { status: { conditions: Obj[] } }).status.conditions ?? []).find((x) => x.type === 'Ready');
      t.childExamples.push(`${c.composition}: ${String(ready?.message).slice(0, 240)}`);
    }
  }
  return v;
}

/** The composition of a case, for callers that run it without HTTP. */
export const compositionOf = (c: FuzzCase): AnyComposition => compositionsByName.get(c.composition) as AnyComposition;
