/** A Deployment the operator made keeps its selector (immutable in apps/v1), whatever its release. */
import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { runSync } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';

const config = defaultHookConfig();
const parent = {
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  metadata: { name: 't', namespace: 'team', generation: 1 },
  spec: { storage: { format: 'PVC' }, metrics: { schedule: '5s' } },
};
const operatorSelector = (version: string, app = 't') => ({
  app,
  'app.kubernetes.io/instance': 't',
  'app.kubernetes.io/name': 't',
  'app.kubernetes.io/part-of': 'trustyai',
  'app.kubernetes.io/version': version,
});
const deployment = (matchLabels: Record<string, string>): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 't', namespace: 'team', labels: matchLabels },
  spec: { selector: { matchLabels }, template: { metadata: { labels: matchLabels }, spec: { containers: [] } } },
});
type Dep = { spec: { selector: { matchLabels: Record<string, string> }; template: { metadata: { labels: Record<string, string> } } } };

describe("adopting the operator's Deployment", () => {
  it("an older release's selector is kept, in the pod labels and the Service selector too, with no refusal", () => {
    const out = runSync(trustyai, { parent, observed: [deployment(operatorSelector('1.38.0'))], config });
    const d = out.child('Deployment', 't') as unknown as Dep;
    expect(d.spec.selector.matchLabels).toEqual(operatorSelector('1.38.0'));
    expect(d.spec.template.metadata.labels).toMatchObject(operatorSelector('1.38.0'));
    expect((out.child('Service', 't') as unknown as { spec: { selector: unknown } }).spec.selector).toEqual(operatorSelector('1.38.0'));
    expect(out.condition('DeploymentReady')?.reason).not.toBe('ImmutableField');
  });
  it("a selector that is not the operator's for this parent is not taken for one: ours is asked for and refused as immutable", () => {
    const out = runSync(trustyai, { parent, observed: [deployment(operatorSelector('1.38.0', 'someone-else'))], config });
    expect(out.condition('DeploymentReady')).toMatchObject({ status: 'False', reason: 'ImmutableField' });
    expect(out.condition('DeploymentReady')?.message).toContain('spec.selector');
  });
  it('a new Deployment gets the current operator version', () => {
    const d = runSync(trustyai, { parent, config }).child('Deployment', 't') as unknown as Dep;
    expect(d.spec.selector.matchLabels).toEqual(operatorSelector('1.39.0'));
  });
});
