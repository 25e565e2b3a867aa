import { describe, expect, it } from 'vitest';
import type { Parent } from '../../hooks/kit/index.js';
import { labelsFor, selectorFor } from '../../hooks/trustyai/names.js';

const parent = (name: string): Parent<unknown> => ({
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  metadata: { name, namespace: 'ns' },
  spec: {},
  status: {},
});

// labelsFor writes the selector's labels out rather than spreading selectorFor (names.ts):
// they must stay the selector's, first and in its order, for any name and selector version.
describe('TrustyAI child labels', () => {
  it.each([
    ['svc', '1.39.0'],
    ['Upper.Case', '1.30.0'],
    ['x'.repeat(70), '1.39.0'],
  ])('%s (%s): the selector first, then component and managed-by', (name, version) => {
    const labels = Object.entries(labelsFor(parent(name), version));
    expect(labels.slice(0, 5)).toEqual(Object.entries(selectorFor(parent(name), version)));
    expect(labels.slice(5)).toEqual([
      ['app.kubernetes.io/component', 'trustyai-service'],
      ['app.kubernetes.io/managed-by', 'modelhooks'],
    ]);
  });
});
