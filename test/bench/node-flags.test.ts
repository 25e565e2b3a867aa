import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../../bench/args.js';
import { deploymentNodeFlags, shippedNodeFlags } from '../../bench/node-flags.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the node flags the bench gives our server', () => {
  it('are the NODE_OPTIONS of the Deployment, split into flags, whatever comes before it', () => {
    const yaml = [
      'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: x}',
      'apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - name: hooks\n          env:\n            - {name: PORT, value: "8080"}\n            - {name: NODE_OPTIONS, value: "--max-old-space-size=384  --max-semi-space-size=4"}',
    ].join('\n---\n');
    expect(deploymentNodeFlags(yaml)).toEqual(['--max-old-space-size=384', '--max-semi-space-size=4']);
  });
  it('are none when the Deployment sets no NODE_OPTIONS', () => {
    expect(deploymentNodeFlags('kind: Deployment\nspec: {template: {spec: {containers: [{name: a}]}}}')).toEqual([]);
  });
  it('can be chosen instead (--node-flags), none at all included', () => {
    expect(parseBenchArgs(['--node-flags=--max-semi-space-size=2 --max-old-space-size=200'])).toMatchObject({ nodeFlags: ['--max-semi-space-size=2', '--max-old-space-size=200'] });
    expect(parseBenchArgs(['--node-flags', ''])).toMatchObject({ nodeFlags: [] });
    expect(parseBenchArgs([])).toMatchObject({ nodeFlags: undefined });
  });
  it('of this checkout keep the heap limit deploy/base sets', () => {
    expect(shippedNodeFlags(ROOT)).toEqual(['--max-old-space-size=384', '--max-semi-space-size=8']);
  });
});
