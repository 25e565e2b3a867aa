import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import { crdFor } from '../../hooks/engine/manifests.js';
import { createApp } from '../../hooks/server/app.js';

const app = createApp({ compositions: builtinCompositions, config: loadConfig({}), logger: pino({ level: 'silent' }) });

describe('a parent without a valid namespace is refused, for every composition', () => {
  it('every parent CRD the kit writes is namespaced, so every request must carry a namespace', () => {
    for (const c of builtinCompositions) expect((crdFor(c) as { spec: { scope: string } }).spec.scope, c.name).toBe('Namespaced');
  });

  for (const composition of builtinCompositions) {
    const parent = (metadata: Record<string, unknown>) => ({
      apiVersion: `${composition.parent.group}/${composition.parent.versions[0]}`,
      kind: composition.parent.kind,
      metadata: { name: 'p', ...metadata },
      spec: {},
    });
    // An observed child: looked up in `default`, it was dropped from the answer (and so deleted).
    const children = { 'ConfigMap.v1': { 'team-a/p': { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p', namespace: 'team-a' } } } };
    for (const [what, metadata] of [
      ['missing', {}],
      ['empty', { namespace: '' }],
      ['not a DNS-1123 label', { namespace: 'Team_A' }],
      ['longer than 63 characters', { namespace: 'a'.repeat(64) }],
      ['not a string', { namespace: 7 }],
    ] as const) {
      it(`${composition.name}: 400 when the namespace is ${what}`, async () => {
        for (const hook of ['sync', 'finalize', 'customize']) {
          const res = await request(app)
            .post(`/hooks/${composition.name}/${hook}`)
            .send({ parent: parent(metadata), children })
            .expect(400);
          expect(res.text).toMatch(/^parent\.metadata\.namespace: must be a namespace name/);
        }
      });
    }
    it(`${composition.name}: a valid namespace is answered`, async () => {
      await request(app)
        .post(`/hooks/${composition.name}/sync`)
        .send({ parent: parent({ namespace: 'team-a' }) })
        .expect(200);
    });
  }
});
