import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
  it("also are the flags the Deployment's command gives node before the script", () => {
    const yaml =
      'kind: Deployment\nspec: {template: {spec: {containers: [{name: a, command: [node, --initial-old-space-size=48, dist/hooks/cli/main.js], args: [serve], env: [{name: NODE_OPTIONS, value: --max-semi-space-size=4}]}]}}}';
    expect(deploymentNodeFlags(yaml)).toEqual(['--max-semi-space-size=4', '--initial-old-space-size=48']);
    expect(deploymentNodeFlags('kind: Deployment\nspec: {template: {spec: {containers: [{name: a, command: [node, --expose-gc]}]}}}')).toEqual(['--expose-gc']);
    expect(deploymentNodeFlags('kind: Deployment\nspec: {template: {spec: {containers: [{name: a, command: [/bin/sh, -c, x]}]}}}')).toEqual([]);
  });
  it('are none when the Deployment sets no NODE_OPTIONS', () => {
    expect(deploymentNodeFlags('kind: Deployment\nspec: {template: {spec: {containers: [{name: a}]}}}')).toEqual([]);
  });
  it('can be chosen instead (--node-flags), none at all included', () => {
    expect(parseBenchArgs(['--node-flags=--max-semi-space-size=2 --max-old-space-size=200'])).toMatchObject({
      nodeFlags: ['--max-semi-space-size=2', '--max-old-space-size=200'],
    });
    expect(parseBenchArgs(['--node-flags', ''])).toMatchObject({ nodeFlags: [] });
    expect(parseBenchArgs([])).toMatchObject({ nodeFlags: undefined });
  });
  it('of this checkout keep the heap limit deploy/base sets', () => {
    expect(shippedNodeFlags(ROOT)).toEqual(['--max-old-space-size=384', '--max-semi-space-size=4', '--initial-old-space-size=48']);
  });
  it('of this checkout are accepted by node where the Deployment puts them (some V8 flags are refused in NODE_OPTIONS)', () => {
    const yaml = readFileSync(path.join(ROOT, 'deploy/base/deployment.yaml'), 'utf8');
    const nodeOptions = /name: NODE_OPTIONS\n\s+value: (.*)/.exec(yaml)?.[1] as string;
    const command = deploymentNodeFlags(yaml).slice(nodeOptions.split(/\s+/).length);
    const { NODE_OPTIONS: _, ...env } = process.env;
    const withOptions = spawnSync(process.execPath, ['-e', '0'], { env: { ...env, NODE_OPTIONS: nodeOptions }, encoding: 'utf8' });
    expect(withOptions.stderr).toBe('');
    expect(withOptions.status).toBe(0);
    const withCommand = spawnSync(process.execPath, [...command, '-e', '0'], { env, encoding: 'utf8' });
    expect(withCommand.stderr).toBe('');
    expect(withCommand.status).toBe(0);
    // The check itself: the flag the command carries is refused in NODE_OPTIONS.
    expect(spawnSync(process.execPath, ['-e', '0'], { env: { ...env, NODE_OPTIONS: '--initial-old-space-size=48' }, encoding: 'utf8' }).status).not.toBe(0);
  });
});
