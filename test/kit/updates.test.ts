import type { V1Deployment, V1PersistentVolumeClaim } from '@kubernetes/client-node';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkClaimUpdate,
  checkDeploymentUpdate,
  IMMUTABLE_FIELD,
  ObjectIndex,
  refusedCondition,
  RESIZE_NOT_SUPPORTED,
  type KubeObject,
} from '../../hooks/kit/index.js';
import { LAST_APPLIED_ANNOTATION } from '../../hooks/kit/children/keep.js';
import { quantityValue } from '../../hooks/kit/quantity.js';

// Never ask for an update the API server refuses. Each rule comes from Kubernetes' validation:
//   PVC  pkg/apis/core/validation/validation.go ValidatePersistentVolumeClaimUpdate (spec immutable
//        except resources.requests of a Bound claim; volumeName set once while empty; no shrink)
//        plugin/pkg/admission/storage/persistentvolume/resize/admission.go (grow only with a
//        StorageClass whose allowVolumeExpansion is true)
//   Deployment  pkg/apis/apps/validation/validation.go ValidateDeploymentUpdate (apps/v1 selector immutable)
//   Job  pkg/apis/batch/validation/validation.go ValidateJobUpdate (template immutable): no
//        composition updates a Job (OnDelete, a new Job name per URL and downloader), see mlmodel.

const fields = { size: 'spec.storage.size', volumeName: 'spec.storage.pv' };

function desired(size: string, extra: Partial<NonNullable<V1PersistentVolumeClaim['spec']>> = {}): V1PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data', namespace: 'team' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } }, ...extra },
  };
}

function observed(
  size: string,
  opts: { phase?: string; className?: string | null; volumeName?: string; accessModes?: string[]; asked?: Record<string, unknown> } = {},
): KubeObject {
  const spec: Record<string, unknown> = { accessModes: opts.accessModes ?? ['ReadWriteOnce'], resources: { requests: { storage: size } } };
  if (opts.className !== null) spec.storageClassName = opts.className ?? 'standard';
  if (opts.volumeName) spec.volumeName = opts.volumeName;
  const annotations = opts.asked
    ? { [LAST_APPLIED_ANNOTATION]: JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec: opts.asked }) }
    : undefined;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data', namespace: 'team', ...(annotations ? { annotations } : {}) },
    spec,
    status: { phase: opts.phase ?? 'Bound', capacity: { storage: size } },
  };
}

/** The claim with its last-applied annotation replaced by `text`. */
function withAnnotation(claim: KubeObject, text: string): KubeObject {
  return { ...claim, metadata: { ...claim.metadata, annotations: { [LAST_APPLIED_ANNOTATION]: text } } };
}

const storageClass = (name: string, expand: boolean | undefined): KubeObject => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name },
  provisioner: 'example.com/csi',
  ...(expand === undefined ? {} : { allowVolumeExpansion: expand }),
});
const classes = (...list: KubeObject[]) => new ObjectIndex(list, 'team');

interface ClaimCase {
  reason: string;
  want: V1PersistentVolumeClaim;
  have: KubeObject | undefined;
  related: ObjectIndex;
  /** The size answered. */
  size: string;
  refused?: { reason: string; message: string };
  /** Other fields of the answered spec. */
  spec?: Record<string, unknown>;
}

const expandable = classes(storageClass('standard', true));
const fixed = classes(storageClass('standard', false));

const claimCases: ClaimCase[] = [
  { reason: 'no claim yet: created as wanted', want: desired('2Gi'), have: undefined, related: classes(), size: '2Gi' },
  { reason: 'same size: nothing to change', want: desired('1Gi'), have: observed('1Gi'), related: fixed, size: '1Gi' },
  {
    reason: 'same size spelled differently: the observed spelling is kept, no update',
    want: desired('1024Mi'),
    have: observed('1Gi'),
    related: fixed,
    size: '1Gi',
  },
  { reason: 'grows: Bound, the class allows expansion', want: desired('2Gi'), have: observed('1Gi'), related: expandable, size: '2Gi' },
  {
    reason: 'grows, but the class does not allow expansion (admission would refuse)',
    want: desired('2Gi'),
    have: observed('1Gi'),
    related: fixed,
    size: '1Gi',
    refused: {
      reason: RESIZE_NOT_SUPPORTED,
      message: 'spec.storage.size: 2Gi cannot be applied: StorageClass standard does not allow volume expansion; the claim keeps 1Gi',
    },
  },
  {
    reason: 'grows, the class says nothing (allowVolumeExpansion defaults to false)',
    want: desired('2Gi'),
    have: observed('1Gi'),
    related: classes(storageClass('standard', undefined)),
    size: '1Gi',
    refused: {
      reason: RESIZE_NOT_SUPPORTED,
      message: 'spec.storage.size: 2Gi cannot be applied: StorageClass standard does not allow volume expansion; the claim keeps 1Gi',
    },
  },
  {
    reason: 'grows, the class was not offered',
    want: desired('2Gi'),
    have: observed('1Gi'),
    related: classes(storageClass('other', true)),
    size: '1Gi',
    refused: { reason: RESIZE_NOT_SUPPORTED, message: 'spec.storage.size: 2Gi cannot be applied: StorageClass standard was not found; the claim keeps 1Gi' },
  },
  {
    reason: 'grows a claim without a class (statically provisioned)',
    want: desired('2Gi'),
    have: observed('1Gi', { className: null }),
    related: expandable,
    size: '1Gi',
    refused: {
      reason: RESIZE_NOT_SUPPORTED,
      message:
        'spec.storage.size: 2Gi cannot be applied: PersistentVolumeClaim data has no StorageClass (only a dynamically provisioned claim can grow); the claim keeps 1Gi',
    },
  },
  {
    reason: 'grows a Pending claim (only a Bound claim may change its request)',
    want: desired('2Gi'),
    have: observed('1Gi', { phase: 'Pending' }),
    related: expandable,
    size: '1Gi',
    refused: {
      reason: RESIZE_NOT_SUPPORTED,
      message: 'spec.storage.size: 2Gi cannot be applied: PersistentVolumeClaim data is not Bound yet (only a bound claim can grow); the claim keeps 1Gi',
    },
  },
  {
    reason: 'shrinks: never asked, whatever the class',
    want: desired('500Mi'),
    have: observed('1Gi'),
    related: expandable,
    size: '1Gi',
    refused: {
      reason: RESIZE_NOT_SUPPORTED,
      message: 'spec.storage.size: 500Mi cannot be applied: PersistentVolumeClaim data cannot shrink; the claim keeps 1Gi',
    },
  },
  {
    reason: 'access modes changed: immutable, the observed ones are kept',
    want: desired('1Gi', { accessModes: ['ReadWriteMany'] }),
    have: observed('1Gi'),
    related: fixed,
    size: '1Gi',
    refused: {
      reason: IMMUTABLE_FIELD,
      message: 'accessModes: cannot change PersistentVolumeClaim data after creation; it keeps accessModes ["ReadWriteOnce"]',
    },
    spec: { accessModes: ['ReadWriteOnce'] },
  },
  {
    reason: 'another StorageClass asked: immutable',
    want: desired('1Gi', { storageClassName: 'fast' }),
    have: observed('1Gi'),
    related: fixed,
    size: '1Gi',
    refused: {
      reason: IMMUTABLE_FIELD,
      message: 'storageClassName: cannot change PersistentVolumeClaim data after creation; it keeps storageClassName "standard"',
    },
    spec: { storageClassName: 'standard' },
  },
  {
    reason: 'another volume asked for a bound claim (volumeName is set once)',
    want: desired('1Gi', { volumeName: 'pv-b' }),
    have: observed('1Gi', { volumeName: 'pv-a' }),
    related: fixed,
    size: '1Gi',
    refused: { reason: IMMUTABLE_FIELD, message: 'spec.storage.pv: cannot change PersistentVolumeClaim data after creation; it keeps volumeName "pv-a"' },
    spec: { volumeName: 'pv-a' },
  },
  {
    reason: 'the volume we asked for is no longer asked: leaving it out would remove it, so it is kept',
    want: desired('1Gi'),
    have: observed('1Gi', { volumeName: 'pv-a', asked: { volumeName: 'pv-a' } }),
    related: fixed,
    size: '1Gi',
    refused: { reason: IMMUTABLE_FIELD, message: 'spec.storage.pv: cannot change PersistentVolumeClaim data after creation; it keeps volumeName "pv-a"' },
    spec: { volumeName: 'pv-a' },
  },
  {
    reason: 'a volume the binder chose (never asked): nothing to report',
    want: desired('1Gi'),
    have: observed('1Gi', { volumeName: 'pvc-123' }),
    related: fixed,
    size: '1Gi',
  },
  {
    // lastApplied cannot read the annotation, so the observed claim stands in for what was asked.
    reason: 'an unreadable last-applied annotation: the observed volume counts as asked, and is kept',
    want: desired('1Gi'),
    have: withAnnotation(observed('1Gi', { volumeName: 'pv-a' }), '{"spec": {"volumeName": "pv-b"}}'),
    related: fixed,
    size: '1Gi',
    refused: { reason: IMMUTABLE_FIELD, message: 'spec.storage.pv: cannot change PersistentVolumeClaim data after creation; it keeps volumeName "pv-a"' },
    spec: { volumeName: 'pv-a' },
  },
  {
    reason: 'the same annotation text on another claim reads the same (asked for pv-b, the binder chose pv-a)',
    want: desired('1Gi'),
    have: withAnnotation(observed('1Gi', { volumeName: 'pv-a' }), '{"metadata": {"name": "data"}, "spec": {"volumeName": "pv-b"}}'),
    related: fixed,
    size: '1Gi',
  },
  {
    reason: 'a volume asked for a claim not bound yet: allowed once',
    want: desired('1Gi', { volumeName: 'pv-a' }),
    have: observed('1Gi', { phase: 'Pending' }),
    related: fixed,
    size: '1Gi',
    spec: { volumeName: 'pv-a' },
  },
];

describe('checkClaimUpdate', () => {
  it.each(claimCases)('$reason', (c) => {
    const before = structuredClone(c.want);
    const { child, refusals } = checkClaimUpdate(c.want, c.have, c.related, fields);
    expect(child.spec?.resources?.requests?.storage).toBe(c.size);
    expect(refusals).toEqual(c.refused ? [c.refused] : []);
    if (c.spec) expect(child.spec).toMatchObject(c.spec);
    // The desired object itself is never changed.
    expect(c.want).toEqual(before);
  });

  it('reports every refused field in one condition, the first reason first', () => {
    const { refusals } = checkClaimUpdate(desired('2Gi', { accessModes: ['ReadWriteMany'] }), observed('1Gi'), fixed, fields);
    const cond = refusedCondition('StorageReady', refusals);
    expect(cond).toMatchObject({ type: 'StorageReady', status: 'False', reason: IMMUTABLE_FIELD });
    expect(cond?.message).toContain('accessModes');
    expect(cond?.message).toContain('spec.storage.size: 2Gi cannot be applied');
    expect(refusedCondition('StorageReady', [])).toBeUndefined();
  });
});

describe('checkDeploymentUpdate', () => {
  const deployment = (selector: Record<string, string>, labels: Record<string, string>): V1Deployment => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'team' },
    spec: { selector: { matchLabels: selector }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
  });
  const live = (selector: Record<string, string>) => ({ ...deployment(selector, selector), status: {} }) as unknown as KubeObject;

  it('no Deployment yet, or the same selector (in any key order): as wanted', () => {
    const want = deployment({ a: '1', b: '2' }, { a: '1', b: '2', v: 'x' });
    expect(checkDeploymentUpdate(want, undefined)).toEqual({ child: want, refusals: [] });
    expect(checkDeploymentUpdate(want, live({ b: '2', a: '1' }))).toEqual({ child: want, refusals: [] });
  });

  it('a changed selector keeps the observed one, and the pods keep its labels so that it still matches', () => {
    const want = deployment({ app: 'web-3f2a' }, { app: 'web-3f2a', v: 'x' });
    const { child, refusals } = checkDeploymentUpdate(want, live({ app: 'web' }));
    expect(child.spec?.selector).toEqual({ matchLabels: { app: 'web' } });
    expect(child.spec?.template.metadata?.labels).toEqual({ app: 'web', v: 'x' });
    expect(refusals).toEqual([
      { reason: IMMUTABLE_FIELD, message: expect.stringMatching(/^spec\.selector: cannot change Deployment web after creation; it keeps/) },
    ]);
  });
});

describe('quantityValue', () => {
  it.each([
    ['1Gi', 2 ** 30],
    ['1024Mi', 2 ** 30],
    ['1G', 1e9],
    ['500m', 0.5],
    ['1e3', 1000],
    ['1.5Ki', 1536],
  ])('%s = %d', (q, v) => expect(quantityValue(q)).toBe(v));
  it('is undefined for what is not a quantity', () => expect(quantityValue('lots')).toBeUndefined());
});

describe('checkClaimUpdate, for any claim and any wanted size', () => {
  // What the API server accepts for a claim's request (the rules above, restated as a predicate).
  function accepted(have: KubeObject, size: string, related: ObjectIndex): boolean {
    const from = quantityValue((have.spec as any).resources.requests.storage)!;
    const to = quantityValue(size)!;
    if (to === from) return true;
    if (to < from || (have.status as any).phase !== 'Bound') return false;
    const className = (have.spec as any).storageClassName;
    const sc = related.list('storage.k8s.io/v1', 'StorageClass').find((c) => c.metadata.name === className);
    return sc?.allowVolumeExpansion === true;
  }
  const size = fc.tuple(fc.integer({ min: 1, max: 4096 }), fc.constantFrom('Mi', 'Gi', 'M', 'G')).map(([n, u]) => `${n}${u}`);
  it('asks only for what the API server accepts, and reports exactly when it keeps the observed size', () => {
    fc.assert(
      fc.property(
        size,
        size,
        fc.constantFrom('Bound', 'Pending'),
        fc.option(fc.constantFrom('standard', 'fast'), { nil: null }),
        fc.subarray([storageClass('standard', true), storageClass('fast', false)]),
        (wanted, observedSize, phase, className, list) => {
          const have = observed(observedSize, { phase, className });
          const related = classes(...list);
          const { child, refusals } = checkClaimUpdate(desired(wanted), have, related, fields);
          const answered = child.spec?.resources?.requests?.storage as string;
          expect(accepted(have, answered, related)).toBe(true);
          const applied = quantityValue(answered) === quantityValue(wanted);
          expect(refusals.length > 0).toBe(!applied);
        },
      ),
    );
  });
});
