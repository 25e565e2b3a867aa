/**
 * Tenant isolation, over random parents of every composition AND hostile `related` and
 * `children` maps, offered as Metacontroller v2 does when a rule lacks a namespace: same-named
 * ConfigMaps, Secrets and TrustyAIServices of other namespaces, objects without a namespace
 * keyed into another one, and keys that lie (the key says our namespace, the object another).
 *
 * Every intruder carries strings found nowhere else (its namespace, its own names, marker
 * values); no answer may contain one. No Secret value (of any namespace) may appear either.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { isDns1123Label, type AnyComposition, type KubeObject, type RelatedRule } from '../../hooks/kit/index.js';
import { CLUSTER_SCOPED_RESOURCES } from '../../hooks/kit/related.js';
import { isDns1035Label } from '../../hooks/kit/children/names.js';
import { parseHookRequest } from '../../hooks/engine/request.js';
import { runHook } from '../../hooks/engine/protocol.js';
import { STORAGE_SECRET_ANNOTATION } from '../../hooks/inferenceservice/names.js';
import { syncRequest, TEST_NOW } from '../../hooks/testing/index.js';
import { specArbitraries } from '../support/arbitraries.js';
import { labelProblems, podNameProblems } from '../support/labels.js';
import { dnsWithoutMark, hostile, KIND_OF, MARK, objectOf, put, secretValues } from './hostile.arb.js';

const RUNS = 150;
const config = defaultHookConfig();
const ctx = { now: TEST_NOW, config };
const dns = dnsWithoutMark;

for (const composition of builtinCompositions as AnyComposition[]) {
  const specs = specArbitraries[composition.name];
  describe(`${composition.name}: isolation from other namespaces`, () => {
    it('has an arbitrary of valid specs', () => expect(specs).toBeDefined());
    if (!specs) return;
    it('asks only for its own namespace, reads nothing of another, never repeats a Secret value, and writes valid names and label values', () => {
      fc.assert(
        fc.property(specs, dns, dns, hostile, (spec, name, ns, h) => {
          const annotations = h.storageSecret ? { [STORAGE_SECRET_ANNOTATION]: h.storageSecret } : undefined;
          const parent: KubeObject = {
            apiVersion: `${composition.parent.group}/${composition.parent.versions[0]}`,
            kind: composition.parent.kind,
            metadata: { name, namespace: ns, generation: 1, uid: 'uid-parent', ...(annotations ? { annotations } : {}) },
            spec,
          };

          // customize: every rule is scoped to the parent's namespace (or cluster-scoped).
          const customize = runHook(composition, 'customize', parseHookRequest(syncRequest(composition, { parent })), ctx);
          const rules = customize.relatedResources as RelatedRule[];
          // …but a composition's documented system objects (composition.ts SystemObject): by name, in their fixed namespace.
          const system = composition.systemObjects?.(composition.config ? composition.config.parse({}) : undefined) ?? [];
          const isSystem = (rule: RelatedRule) =>
            system.some(
              (o) =>
                o.resource === rule.resource && o.namespace === rule.namespace && rule.names?.length === 1 && rule.names[0] === o.name && !rule.labelSelector,
            );
          for (const rule of rules) {
            if (isSystem(rule)) continue;
            if (CLUSTER_SCOPED_RESOURCES.has(rule.resource)) expect(rule.namespace).toBeUndefined();
            else expect(rule.namespace, rule.resource).toBe(ns);
          }

          // What the rules name, in our namespace (optionally), and a TrustyAIService sibling.
          const own: KubeObject[] = [];
          const intruders: KubeObject[] = [];
          const intruderStrings = [...h.namespaces];
          const variants = composition.variants?.map((v) => v.name) ?? [];
          const body = syncRequest(composition, { parent, variant: variants.length > 0 ? variants : 'default' });
          const related = body.related as Record<string, Record<string, unknown>>;
          const children = body.children as Record<string, Record<string, unknown>>;
          let n = 0;
          const mark = () => `${MARK}m${n++}`;
          for (const rule of rules) {
            const type = KIND_OF[rule.resource];
            if (!type) continue;
            const names = rule.names ?? [name, ...(h.sibling ? [h.sibling] : [])];
            for (const objName of names) {
              if (h.ownObjects) own.push(objectOf(type, objName, ns, `own${n++}`, spec));
              for (const other of h.namespaces) {
                // Same-named object of another namespace, honestly keyed.
                const same = mark();
                intruders.push(objectOf(type, objName, other, same, spec));
                put(related, intruders.at(-1) as KubeObject, `${other}/${objName}`);
                intruderStrings.push(same);
                if (h.missingNamespace) {
                  const m = mark();
                  intruders.push(objectOf(type, objName, undefined, m, spec));
                  put(related, intruders.at(-1) as KubeObject, `${other}/${objName}`);
                  intruderStrings.push(m);
                }
                if (h.lyingKeys) {
                  // The key says our namespace, the object another: it is not ours. Put under a
                  // distinct name so that the honest own object keeps its key.
                  const m = mark();
                  const liar = `${m}-liar`;
                  intruders.push(objectOf(type, liar, other, m, spec));
                  put(related, intruders.at(-1) as KubeObject, `${ns}/${liar}`);
                  intruderStrings.push(m);
                }
              }
            }
            // Services only another namespace has: their names must never appear.
            for (let i = 0; i < h.extraServices; i++) {
              for (const other of h.namespaces) {
                const m = mark();
                intruders.push(objectOf(type, `${m}-only`, other, m, spec));
                put(related, intruders.at(-1) as KubeObject, `${other}/${m}-only`);
                intruderStrings.push(m);
              }
            }
          }
          for (const obj of own) put(related, obj, `${ns}/${obj.metadata.name}`);

          // Observed children of other namespaces, named as ours would be.
          const types = [...composition.children, ...(composition.optionalChildren ?? [])];
          const childNames = [name, `${name}-pvc`, `${name}-predictor`, 'model-serving-config'];
          for (const type of types) {
            for (const other of h.namespaces) {
              for (const childName of childNames) {
                const m = mark();
                const child = objectOf(type, childName, other, m);
                child.metadata.ownerReferences = [{ apiVersion: parent.apiVersion, kind: parent.kind, name, uid: 'uid-parent', controller: true }];
                put(children, child, `${other}/${childName}`);
                intruderStrings.push(m);
              }
            }
          }

          const request = parseHookRequest(JSON.parse(JSON.stringify(body)));
          const answer = runHook(composition, 'sync', request, ctx);
          const text = JSON.stringify(answer);
          for (const s of intruderStrings) expect(text.includes(s), `answer mentions ${s}`).toBe(false);
          for (const v of secretValues([...own, ...intruders])) expect(text.includes(v), `answer repeats Secret value ${v}`).toBe(false);
          for (const child of answer.children as KubeObject[]) {
            expect(child.metadata.namespace).toBe(ns);
            const valid = child.kind === 'Service' ? isDns1035Label(child.metadata.name) : isDns1123Label(child.metadata.name);
            expect(valid, `${child.kind} name ${child.metadata.name}`).toBe(true);
            expect(labelProblems(child)).toEqual([]);
            expect(podNameProblems(child)).toEqual([]);
          }
        }),
        { numRuns: RUNS },
      );
    });
  });
}
