import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownLinks } from './support/markdown.js';

// What `npm ci --omit=dev` (the Dockerfile's runtime stage) and a user's `npm install modelhooks` get.
const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const locked = (name: string) => lock.packages[`node_modules/${name}`] as { dev?: boolean; peer?: boolean; engines?: { node?: string } };

describe('package.json: runtime dependencies', () => {
  it('zod is a required peer that the runtime install keeps (not a devDependency)', () => {
    expect(pkg.peerDependencies.zod).toMatch(/^\^4\./);
    expect(pkg.peerDependenciesMeta?.zod?.optional).not.toBe(true);
    expect(pkg.devDependencies.zod).toBeUndefined();
    expect(locked('zod')).toMatchObject({ peer: true });
    expect(locked('zod').dev).toBeUndefined();
  });

  it('@kubernetes/client-node is for types only: dev and an optional peer, absent at runtime', () => {
    expect(pkg.dependencies['@kubernetes/client-node']).toBeUndefined();
    expect(pkg.peerDependenciesMeta['@kubernetes/client-node']).toEqual({ optional: true });
    expect(locked('@kubernetes/client-node').dev).toBe(true);
  });

  it('installs nothing whose engines exclude Node 20 (npm ci prints no EBADENGINE)', () => {
    const excluding = Object.entries(lock.packages as Record<string, { engines?: { node?: string } }>)
      .filter(([, p]) => /^>=\s*2[1-9]/.test(p.engines?.node ?? ''))
      .map(([name, p]) => `${name} ${p.engines?.node}`);
    expect(excluding).toEqual([]);
  });
});

describe('package.json: files', () => {
  it('ships every file README.md links to (the manual in docs/ too), so its links work from npm', () => {
    const files = pkg.files as string[];
    const shipped = (target: string) => files.some((f) => target === f || target.startsWith(`${f}/`));
    const targets = markdownLinks(readFileSync(path.join(root, 'README.md'), 'utf8'))
      .filter((link) => !/^[a-z]+:/.test(link) && !link.startsWith('#'))
      .map((link) => path.posix.normalize(link.split('#')[0] as string));
    expect(targets.length).toBeGreaterThan(5);
    expect(targets.filter((t) => !shipped(t))).toEqual([]);
  });
});
