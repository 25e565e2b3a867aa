import { describe, expect, it } from 'vitest';
import { fromRoot, readObjects } from '../e2e/support/files.js';
import type { KubeObject } from '../e2e/support/kube.js';
import { kube, printLogsOnFailure } from './support/context.js';
import { childUids, conditionOf, getOrNone, readyWithin, within } from './support/wait.js';

/*
 * What a user does to a running InferenceService (examples/inferenceservice.yaml), each step's
 * effect bounded from the user's action: the namespace's ingress domain changed, the stop
 * annotation on and off, an invalid spec edit, deletion.
 */
const READY_MS = 90_000;
const STEP_MS = 15_000;
const GC_MS = 30_000;
const API = 'serving.kserve.io/v1beta1';
const KIND = 'InferenceService';

const isvc = (namespace: string): KubeObject => {
  const obj = readObjects(fromRoot('examples/inferenceservice.yaml'))[0] as KubeObject;
  return { ...obj, metadata: { ...obj.metadata, namespace } };
};
const merge = 'application/merge-patch+json';

printLogsOnFailure(20);

describe('an InferenceService through its life', () => {
  const k = kube();

  it.concurrent('the Ingress host follows the Namespace annotation modelhooks.dev/ingress-domain', async () => {
    const ns = 'live-domain';
    await k.ensureNamespace(ns);
    const parent = isvc(ns);
    await k.apply(parent);
    await readyWithin(k, parent, READY_MS);
    const hostsFollow = async (domain: string) => {
      const since = Date.now();
      await k.call('PATCH', `/api/v1/namespaces/${ns}`, { metadata: { annotations: { 'modelhooks.dev/ingress-domain': domain } } }, merge);
      const { value: hosts, ms } = await within(
        `Ingress ${ns}/${parent.metadata.name} hosts in ${domain}`,
        STEP_MS,
        async () => {
          const ing = await getOrNone(k, 'networking.k8s.io/v1', 'Ingress', parent.metadata.name, ns);
          const hosts = ((ing?.spec as { rules?: Array<{ host?: string }> } | undefined)?.rules ?? []).map((r) => r.host ?? '');
          return hosts.length > 0 && hosts.every((h) => h.endsWith(`.${domain}`)) ? hosts : { pending: `hosts ${hosts.join(', ') || '(none)'}` };
        },
        since,
      );
      console.log(`ingress-domain ${domain}: Ingress hosts ${hosts.join(', ')} ${(ms / 1000).toFixed(1)}s after the annotation`);
      expect(hosts).toContain(`${parent.metadata.name}-${ns}.${domain}`);
      const url = await within(
        `status.url in ${domain}`,
        STEP_MS,
        async () => {
          const p = await getOrNone(k, API, KIND, parent.metadata.name, ns);
          const u = (p?.status as { url?: string } | undefined)?.url ?? '';
          return u.includes(`.${domain}`) ? u : { pending: `status.url ${u}` };
        },
        since,
      );
      expect(url.value).toContain(`${parent.metadata.name}-${ns}.${domain}`);
    };
    await hostsFollow('team-a.ml.test');
    await hostsFollow('team-b.ml.test');
  });

  it.concurrent('stop on: every child deleted, Ready=False Stopped; stop off: children again, Ready', async () => {
    const ns = 'live-stop';
    await k.ensureNamespace(ns);
    const parent = isvc(ns);
    const path = `/apis/${API}/namespaces/${ns}/inferenceservices/${parent.metadata.name}`;
    await k.apply(parent);
    const { value: ready } = await readyWithin(k, parent, READY_MS);
    const uid = ready.metadata.uid ?? '';
    const serving = Object.keys(await childUids(k, ns, uid));
    expect(serving.length).toBeGreaterThan(0);

    let since = Date.now();
    await k.call('PATCH', path, { metadata: { annotations: { 'serving.kserve.io/stop': 'true' } } }, merge);
    const stopped = await within(
      'stopped: no children, Ready=False Stopped, Stopped=True',
      STEP_MS,
      async () => {
        const [p, children] = [await getOrNone(k, API, KIND, parent.metadata.name, ns), await childUids(k, ns, uid)];
        const [r, s] = [conditionOf(p, 'Ready'), conditionOf(p, 'Stopped')];
        const done = Object.keys(children).length === 0 && r?.status === 'False' && r.reason === 'Stopped' && s?.status === 'True';
        return done ? true : { pending: `children ${Object.keys(children).join(', ')}; Ready ${r?.status}/${r?.reason}; Stopped ${s?.status}` };
      },
      since,
    );
    console.log(`stop on: stopped ${(stopped.ms / 1000).toFixed(1)}s after the annotation`);

    since = Date.now();
    await k.call('PATCH', path, { metadata: { annotations: { 'serving.kserve.io/stop': null } } }, merge);
    const { ms } = await readyWithin(k, parent, READY_MS, since);
    const after = await getOrNone(k, API, KIND, parent.metadata.name, ns);
    expect(conditionOf(after, 'Stopped')).toMatchObject({ status: 'False', reason: 'Serving' });
    expect(Object.keys(await childUids(k, ns, uid))).toEqual(serving);
    console.log(`stop off: Ready again ${(ms / 1000).toFixed(1)}s after the annotation was removed`);
  });

  it.concurrent('an invalid spec edit keeps every child (same UIDs) and reports False; delete → every child garbage-collected', async () => {
    const ns = 'live-invalid';
    await k.ensureNamespace(ns);
    const parent = isvc(ns);
    const path = `/apis/${API}/namespaces/${ns}/inferenceservices/${parent.metadata.name}`;
    await k.apply(parent);
    const { value: ready } = await readyWithin(k, parent, READY_MS);
    const uid = ready.metadata.uid ?? '';
    const before = await childUids(k, ns, uid);
    expect(Object.keys(before)).toEqual(expect.arrayContaining([`Deployment/${parent.metadata.name}-predictor`, `Ingress/${parent.metadata.name}`]));

    // A model format no runtime serves (the golden case unknown-format): the CRD accepts it, the hook refuses it.
    const since = Date.now();
    const edited = (await k.call(
      'PATCH',
      path,
      { spec: { predictor: { sklearn: null, model: { modelFormat: { name: 'caffe2' }, storageUri: 'gs://kfserving-examples/models/caffe2' } } } },
      merge,
    )) as KubeObject;
    const generation = (edited.metadata as { generation?: number }).generation;
    const { value: failed, ms } = await within(
      'Ready=False for the invalid spec',
      STEP_MS,
      async () => {
        const p = await getOrNone(k, API, KIND, parent.metadata.name, ns);
        const r = conditionOf(p, 'Ready');
        const seen = (p?.status as { observedGeneration?: number } | undefined)?.observedGeneration;
        return seen === generation && r?.status === 'False' ? p : { pending: `observedGeneration ${seen}/${generation}, Ready ${r?.status}/${r?.reason}` };
      },
      since,
    );
    console.log(`invalid edit: Ready=False ${conditionOf(failed, 'PredictorReady')?.reason} ${(ms / 1000).toFixed(1)}s after the edit`);
    expect(conditionOf(failed, 'PredictorReady')).toMatchObject({ status: 'False', reason: 'NoSupportingRuntime' });
    // A few more syncs' time: nothing of the children goes.
    await new Promise((r) => setTimeout(r, 5_000));
    expect(await childUids(k, ns, uid)).toEqual(before);

    const deleted = Date.now();
    await k.call('DELETE', `${path}?propagationPolicy=Background`);
    const gc = await within(
      'every child garbage-collected',
      GC_MS,
      async () => {
        const left = await childUids(k, ns, uid);
        return Object.keys(left).length === 0 ? true : { pending: `left: ${Object.keys(left).join(', ')}` };
      },
      deleted,
    );
    console.log(`delete: every child gone ${(gc.ms / 1000).toFixed(1)}s after the delete`);
  });
});
