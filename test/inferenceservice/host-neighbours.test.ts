import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { KubeObject, RelatedRule } from '../../hooks/kit/index.js';
import { NAMED_CONFLICTS } from '../../hooks/kserve/host-conflicts.js';
import { converge, runCustomize, runSync, syncRequest } from '../../hooks/testing/index.js';
import { selectRelated, wakes } from '../support/metacontroller-select.js';
import { ownedBy } from '../support/two-parents.js';

/*
 * A sync's cost does not grow with its namespace's other parents: with 1,000 InferenceServices
 * in one namespace, each with its Ingress as the hook builds it, what Metacontroller v4.17.2
 * hands one parent for its rules (test/support/metacontroller-select.ts) holds only the routes
 * that can claim one of its hosts, and a neighbour's Ingress change does not wake it.
 */
const config = defaultHookConfig();
const NS = 'crowded';
const isvc = (name: string, extra: Record<string, unknown> = {}): KubeObject =>
  ({
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name, namespace: NS, uid: `uid-${name}`, generation: 1 },
    spec: { predictor: { model: { modelFormat: { name: 'sklearn' }, storageUri: 'pvc://models/iris' } }, ...extra },
  }) as KubeObject;

/** A parent's children as the API server holds them once Metacontroller created them. */
// Converged: each Ingress is made once its predictor is ready (kube_ingress_reconciler.go createRawIngress).
const childrenOf = (parent: KubeObject): KubeObject[] => converge(inferenceservice, { parent, config }).result.children.map((c) => ownedBy(parent, c));
const ingressOf = (parent: KubeObject) => childrenOf(parent).find((c) => c.kind === 'Ingress') as KubeObject;
/** An Ingress a user wrote by hand (or another controller made): no modelhooks labels. */
const foreign = (name: string, host: string): KubeObject =>
  ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name, namespace: NS, labels: { app: 'web' } },
    spec: { rules: [{ host, http: { paths: [] } }] },
  }) as KubeObject;

/** The sync request Metacontroller builds for `parent` in a namespace holding `cluster`. */
function requestFor(parent: KubeObject, cluster: KubeObject[]) {
  const rules: RelatedRule[] = runCustomize(inferenceservice, { parent, config });
  const related = selectRelated(rules, cluster);
  const observed = cluster.filter((o) => o.metadata.ownerReferences?.some((r) => r.uid === parent.metadata.uid));
  return { rules, related, bytes: Buffer.byteLength(JSON.stringify(syncRequest(inferenceservice, { parent, related, observed }))) };
}

describe('1,000 InferenceServices in one namespace', () => {
  const me = isvc('demo');
  const neighbours = Array.from({ length: 1000 }, (_, i) => isvc(`model-${i}`));
  // One neighbour whose own host is demo's predictor host (the default template renders both from "demo-predictor").
  const clash = isvc('demo-predictor');
  const mine = ingressOf(me);
  const cluster = [...neighbours.map(ingressOf), ingressOf(clash), mine, foreign('web', 'web.example.com')];
  const myHosts = (mine.spec as { rules: Array<{ host: string }> }).rules.map((r) => r.host);

  it("one parent's request carries its own Ingress, the neighbour that can claim its host and the foreign one: not the other 1,000", () => {
    const { related, bytes } = requestFor(me, cluster);
    expect(
      related
        .filter((o) => o.kind === 'Ingress')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(['demo', 'demo-predictor', 'web']);
    const lone = requestFor(me, [mine]);
    console.info(`1,000 neighbours: sync request ${bytes} bytes; alone ${lone.bytes} bytes`);
    expect(bytes).toBeLessThan(2 * lone.bytes);
  });

  it('the neighbour that claims its predictor host is found: HostConflict naming it', () => {
    const { related } = requestFor(me, cluster);
    const out = runSync(inferenceservice, { parent: me, related, observed: [mine], config });
    expect(out.condition('IngressReady')).toMatchObject({ status: 'False', reason: 'HostConflict' });
    expect(out.condition('IngressReady')?.message).toContain(
      `host ${myHosts[1]} is already routed by Ingress/demo-predictor (owner: InferenceService/demo-predictor)`,
    );
  });

  it("a neighbour's Ingress change wakes only the parents whose hosts it may claim, not the namespace", () => {
    const woken = [...neighbours.slice(0, 100), me, clash].filter((p) =>
      wakes(runCustomize(inferenceservice, { parent: p, config }), ingressOf(neighbours[7] as KubeObject)),
    );
    expect(woken.map((p) => p.metadata.name)).toEqual(['model-7']);
  });

  it('a hand-written Ingress routing one of its hosts is found (it is asked for by the absence of modelhooks labels)', () => {
    const { related } = requestFor(me, [...cluster, foreign('by-hand', myHosts[0] as string)]);
    const out = runSync(inferenceservice, { parent: me, related, observed: [mine], config });
    expect(out.condition('IngressReady')?.message).toContain(`host ${myHosts[0]} is already routed by Ingress/by-hand (owner: no owner)`);
  });
});

describe('HostConflict messages are bounded', () => {
  it(`name the first ${NAMED_CONFLICTS} conflicts and count the rest`, () => {
    const me = isvc('demo');
    const mine = ingressOf(me);
    const host = (mine.spec as { rules: Array<{ host: string }> }).rules[0]?.host as string;
    const claims = Array.from({ length: 10 }, (_, i) => foreign(`by-hand-${i}`, host));
    const out = runSync(inferenceservice, { parent: me, related: claims, observed: [mine], config });
    const message = out.condition('IngressReady')?.message ?? '';
    expect(message.match(/is already routed by/g)).toHaveLength(NAMED_CONFLICTS);
    expect(message).toContain('(and 7 more)');
    expect(out.condition('Ready')?.message).toBe(message);
  });
});
