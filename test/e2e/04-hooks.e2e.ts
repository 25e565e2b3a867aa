import path from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { defaultHookConfig, loadConfig, type HookConfig } from '../../hooks/server/config.js';
import type { AnyComposition, RelatedRule } from '../../hooks/kit/composition.js';
import { DEFAULT_VARIANT } from '../../hooks/engine/manifests.js';
import { createApp } from '../../hooks/server/app.js';
import { syncRequest, type RunOptions } from '../../hooks/testing/index.js';
import { goldenCases } from '../support/golden.js';
import { kube } from './support/context.js';
import { fromRoot, objectsIn, vendorDir } from './support/files.js';
import { crdFor, installCrds, ourCrds } from './support/install.js';
import type { KubeObject } from './support/kube.js';
import { selectRelated } from './support/related.js';

// Every golden case, example and reference sample goes through the real hook server, and
// every child it answers with is dry-run created: the API server is the judge of validity.
// The request is built by hooks/testing/index.ts, the same builder the unit golden tests use.
const serverConfig = loadConfig({});
const app = createApp({ compositions: builtinCompositions, config: serverConfig });
// A golden case with server variables of its own (case.yaml `env`) goes to a server started with them.
const appsByConfig = new Map<object, typeof app>();
const appFor = (hooks: object | undefined) => {
  if (!hooks || JSON.stringify(hooks) === JSON.stringify(serverConfig.hooks)) return app;
  if (!appsByConfig.has(hooks))
    appsByConfig.set(hooks, createApp({ compositions: builtinCompositions, config: { ...serverConfig, hooks: hooks as HookConfig } }));
  return appsByConfig.get(hooks) as typeof app;
};
const sources = [objectsIn(fromRoot('examples')), objectsIn(path.join(vendorDir, 'samples'))];
const NS = 'e2e-hooks';
const crds = ourCrds();

interface Case {
  name: string;
  options: RunOptions<HookConfig>;
  /** Examples are sent as the API server stored them (CRD defaults applied), as Metacontroller would. */
  asStored: boolean;
  /** For examples: the built-in objects shipped beside them, offered to the customize hook. */
  candidates?: KubeObject[];
  /** A golden parent today's CRD refuses (case.yaml refusedByCrd): refused with that message, and its answer still checked. */
  refusedByCrd?: string;
}

function casesOf(composition: AnyComposition): Case[] {
  const golden = goldenCases(composition.name).map((c) => ({ name: `golden ${c.name}`, options: c.options, asStored: false, refusedByCrd: c.refusedByCrd }));
  const { group, kind } = composition.parent;
  const variants = [DEFAULT_VARIANT, ...(composition.variants ?? []).map((v) => v.name)];
  const examples = sources.flatMap((objects) => {
    const inNs = objects.map(({ file, obj }) => ({ file, obj: { ...obj, metadata: { ...obj.metadata, namespace: NS } } }));
    const candidates = inNs.filter(({ obj }) => !crdFor(crds, obj.apiVersion, obj.kind)).map(({ obj }) => obj);
    return inNs
      .filter(({ obj }) => obj.kind === kind && obj.apiVersion.split('/')[0] === group)
      .flatMap(({ file, obj }) =>
        variants.map((variant) => ({
          name: `${file} (${variant})`,
          options: { parent: obj, variant, config: defaultHookConfig() },
          asStored: true,
          candidates,
        })),
      );
  });
  return [...golden, ...examples];
}

describe.each(builtinCompositions.map((c) => [c.name, c] as const))('%s: hook answers are accepted by the API server', (name, composition) => {
  const k = kube();
  const cases = casesOf(composition);
  beforeAll(() => installCrds(k));

  it('has golden cases and examples', () => {
    expect(
      cases.filter((c) => !c.asStored),
      'no golden case',
    ).not.toHaveLength(0);
    expect(
      cases.filter((c) => c.asStored),
      'no example or sample',
    ).not.toHaveLength(0);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const { parent } = syncRequest(composition, c.options) as { parent: KubeObject };
    const ns = parent.metadata.namespace!;
    await k.ensureNamespace(ns);
    if (c.refusedByCrd) {
      await expect(k.dryRunCreate(withoutServerFields(parent))).rejects.toThrow(c.refusedByCrd);
    }
    const stored = c.refusedByCrd ? parent : await k.dryRunCreate(withoutServerFields(parent));
    let options = c.asStored ? { ...c.options, parent: stored } : c.options;
    if (c.candidates) {
      const customize = await post(`/hooks/${name}/customize`, syncRequest(composition, options), appFor(c.options.config));
      const rules = (customize as { relatedResources: RelatedRule[] }).relatedResources;
      options = { ...options, related: await selectRelated(rules, c.candidates, (v, r) => k.kindOf(v, r)) };
    }

    const answer = (await post(`/hooks/${name}/sync`, syncRequest(composition, options), appFor(c.options.config))) as { children?: KubeObject[] };
    expect(Array.isArray(answer.children), 'answer without a children list').toBe(true);
    for (const child of answer.children!) {
      expect(child.metadata.namespace ?? ns, `${child.kind} ${child.metadata.name}`).toBe(ns);
      await k.dryRunCreate({ ...child, metadata: { ...child.metadata, namespace: ns } });
    }
  });
});

async function post(url: string, body: unknown, server = app): Promise<unknown> {
  const res = await request(server)
    .post(url)
    .send(body as object);
  expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

/** A create carries no status (subresource) nor the fields the server assigns. */
function withoutServerFields(obj: KubeObject): KubeObject {
  const { status: _status, ...rest } = obj;
  const { resourceVersion: _rv, uid: _uid, creationTimestamp: _ct, generation: _g, managedFields: _mf, ...metadata } = rest.metadata;
  return { ...rest, metadata } as KubeObject;
}
