import { describe, expect, it } from 'vitest';
import { exclusive } from './support/exclusive.js';
import type { KubeObject } from '../e2e/support/kube.js';
import { kube, printLogsOnFailure } from './support/context.js';
import { conditionOf, getOrNone, readyWithin, within } from './support/wait.js';

/*
 * KServe's inferenceservice-config, read as data from KServe's namespace (the hook server's
 * MODELHOOKS_KSERVE_NAMESPACE, default kserve): an admin's change reaches every InferenceService,
 * in every namespace, without touching them. Metacontroller resyncs each parent whose customize
 * rules name the changed ConfigMap (customize/manager.go onRelatedUpdate).
 *
 * The field changed is explainers.art.image, which only InferenceServices with an ART explainer
 * read: the ConfigMap is cluster-wide and the other files share the cluster, so a change of the
 * ingress domain or the storage initializer would rewrite their children too. Creating and
 * deleting the ConfigMap still adds and removes every InferenceService's KServeConfig condition,
 * so that part runs under exclusive('cluster-wide'), which steady-state.live.ts's watch holds too.
 */
const READY_MS = 90_000;
const STEP_MS = 15_000;
const API = 'serving.kserve.io/v1beta1';
const KSERVE_NS = 'kserve';
const NAMESPACES = ['live-kconfig-a', 'live-kconfig-b'];
const NAME = 'explained';

const isvc = (namespace: string): KubeObject => ({
  apiVersion: API,
  kind: 'InferenceService',
  metadata: { name: NAME, namespace },
  spec: {
    predictor: { sklearn: { storageUri: 'gs://kfserving-examples/models/sklearn/1.0/model' } },
    explainer: { art: { type: 'SquareAttack', config: { nb_classes: '10' } } },
  },
});
const configMap = (image: string, tag: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'inferenceservice-config', namespace: KSERVE_NS },
  data: { explainers: JSON.stringify({ art: { image, defaultImageVersion: tag } }) },
});

/** The explainer Deployment's container images in each namespace, once every one is `want`. */
async function explainersRun(k: ReturnType<typeof kube>, want: string, since: number) {
  return within(
    `every ${NAME}-explainer runs ${want}`,
    STEP_MS,
    async () => {
      const images = await Promise.all(
        NAMESPACES.map(async (ns) => {
          const d = await getOrNone(k, 'apps/v1', 'Deployment', `${NAME}-explainer`, ns);
          return (
            (d?.spec as { template?: { spec?: { containers?: Array<{ image?: string }> } } } | undefined)?.template?.spec?.containers?.[0]?.image ?? '(none)'
          );
        }),
      );
      return images.every((i) => i === want) ? images : { pending: images.join(', ') };
    },
    since,
  );
}

/** KServeConfig of every InferenceService, once each is `status` (or absent for undefined). */
async function conditionsAre(k: ReturnType<typeof kube>, status: string | undefined, since: number) {
  return within(
    `every KServeConfig ${status ?? 'absent'}`,
    STEP_MS,
    async () => {
      const seen = await Promise.all(NAMESPACES.map(async (ns) => conditionOf(await getOrNone(k, API, 'InferenceService', NAME, ns), 'KServeConfig')));
      return seen.every((c) => c?.status === status) ? seen : { pending: JSON.stringify(seen) };
    },
    since,
  );
}

printLogsOnFailure(40);

describe("KServe's inferenceservice-config", () => {
  const k = kube();

  it('a change to the ConfigMap reaches the InferenceServices of every namespace', async () => {
    for (const ns of [KSERVE_NS, ...NAMESPACES]) await k.ensureNamespace(ns);
    await getOrNone(k, 'v1', 'ConfigMap', 'inferenceservice-config', KSERVE_NS).then((cm) => cm && k.delete(cm));
    const applied = Date.now();
    for (const ns of NAMESPACES) await k.apply(isvc(ns));
    for (const ns of NAMESPACES) await readyWithin(k, isvc(ns), READY_MS, applied);
    // Without the ConfigMap: MODELHOOKS_IMAGE_ART_EXPLAINER (KServe v0.20.0's art-explainer) and no KServeConfig.
    await explainersRun(k, 'kserve/art-explainer:v0.20.0', applied);
    await conditionsAre(k, undefined, applied);

    // The ConfigMap is cluster-wide: its condition reaches steady-state.live.ts's InferenceServices too.
    await exclusive('cluster-wide', async () => {
      try {
        let since = Date.now();
        await k.apply(configMap('mirror.live/art-explainer', 'v1'));
        const created = await explainersRun(k, 'mirror.live/art-explainer:v1', since);
        const read = await conditionsAre(k, 'True', since);
        console.log(
          `ConfigMap created: both explainers run its image ${(created.ms / 1000).toFixed(1)}s after, KServeConfig True ${(read.ms / 1000).toFixed(1)}s after`,
        );
        expect(read.value[0]?.message).toContain('explainers.art.image');

        since = Date.now();
        await k.apply(configMap('mirror.live/art-explainer', 'v2'));
        const changed = await explainersRun(k, 'mirror.live/art-explainer:v2', since);
        console.log(`ConfigMap changed: both explainers follow ${(changed.ms / 1000).toFixed(1)}s after`);
        // The explainers roll out the new image, then each InferenceService is Ready again.
        for (const ns of NAMESPACES) await readyWithin(k, isvc(ns), READY_MS, since);
      } finally {
        const cm = await getOrNone(k, 'v1', 'ConfigMap', 'inferenceservice-config', KSERVE_NS);
        if (cm) await k.delete(cm);
      }
      // Deleted: back to the MODELHOOKS_* image, and no KServeConfig condition.
      const since = Date.now();
      const back = await explainersRun(k, 'kserve/art-explainer:v0.20.0', since);
      await conditionsAre(k, undefined, since);
      console.log(`ConfigMap deleted: both explainers back to the default ${(back.ms / 1000).toFixed(1)}s after`);
      for (const ns of NAMESPACES) await readyWithin(k, isvc(ns), READY_MS, since);
    });
  });
});
