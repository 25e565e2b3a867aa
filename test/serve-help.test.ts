// `serve --help` lists every variable the server and the built-in compositions read, with its
// default and one line, generated from their config schemas (hooks/server/config.ts, hooks/*/config.ts):
// checked here against the variables named anywhere in hooks/, not against a list of our own.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { main } from '../hooks/cli/main.js';
import { defaultHookConfig } from '../hooks/server/config.js';
import { configVariablesOf, imageVariable, imageVariables } from '../hooks/kit/config.js';

const root = path.resolve(import.meta.dirname, '..');

async function help(): Promise<string> {
  let out = '';
  const code = await main(['serve', '--help'], { out: (t) => void (out += t), err: () => undefined, env: {}, cwd: root });
  expect(code).toBe(0);
  return out;
}

/** `NAME=default` → the description line under it, from the help text. */
function listed(text: string): Map<string, { default: string; description: string }> {
  const lines = text.split('\n');
  const entries = new Map<string, { default: string; description: string }>();
  lines.forEach((line, i) => {
    const m = /^ {6}((?:PORT|MODELHOOKS_[A-Z0-9_]+))=(.*)$/.exec(line);
    if (m) entries.set(m[1] as string, { default: m[2] as string, description: (lines[i + 1] ?? '').trim() });
  });
  return entries;
}

/** Every MODELHOOKS_* name written in the server's source (the image prefix alone excepted). */
function namedInSource(): Set<string> {
  const files = readdirSync(path.join(root, 'hooks'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.ts'));
  const names = files.flatMap((e) =>
    [...readFileSync(path.join(e.parentPath, e.name), 'utf8').matchAll(/\bMODELHOOKS_[A-Z0-9_]*[A-Z0-9]\b/g)].map((m) => m[0]),
  );
  return new Set(names.filter((n) => n !== 'MODELHOOKS_IMAGE'));
}

describe('modelhooks serve --help', () => {
  it('lists every MODELHOOKS_* variable named in hooks/, and PORT', async () => {
    const entries = listed(await help());
    const missing = [...namedInSource(), 'PORT'].filter((n) => !entries.has(n));
    expect(missing).toEqual([]);
  });

  it('lists every image variable with its image as the default', async () => {
    const entries = listed(await help());
    const images = Object.values(defaultHookConfig()).flatMap((c) => Object.entries((c as { images?: Record<string, string> }).images ?? {}));
    expect(images.length).toBeGreaterThan(10);
    for (const [key, image] of images) expect(entries.get(imageVariable(key))?.default, key).toBe(image);
  });

  it('gives each one a default (or what unset means) and a one-line meaning, each once', async () => {
    const text = await help();
    const entries = listed(text);
    expect(entries.size).toBeGreaterThan(45);
    for (const [name, e] of entries) {
      expect(e.description, name).toMatch(/^[a-zA-Z(`'].{10,}$/);
      expect(text.split(`\n      ${name}=`)).toHaveLength(2);
    }
    expect(entries.get('PORT')?.default).toBe('8080');
    expect(entries.get('MODELHOOKS_CACHE_BYTES')?.default).toBe('64mb');
    expect(entries.get('MODELHOOKS_DOMAIN_TEMPLATE')?.default).toBe('{{name}}-{{namespace}}.{{domain}}');
    expect(entries.get('MODELHOOKS_TOKEN_FILE')?.default).toBe('(none)');
  });

  it('render --help and manifests --help do not list them', async () => {
    let out = '';
    await main(['render', '--help'], { out: (t) => void (out += t), err: () => undefined, env: {}, cwd: root });
    expect(out).not.toContain('MODELHOOKS_CACHE_BYTES=');
  });
});

describe('configVariablesOf', () => {
  it.each([
    {
      reason: 'a default is shown as text',
      schema: z.object({ A: z.coerce.number().default(3).describe('three') }),
      want: [{ name: 'A', default: '3', description: 'three' }],
    },
    {
      reason: 'meta.unset wins over an empty default',
      schema: z.object({ B: z.string().default('').meta({ description: 'b', unset: '(none)' }) }),
      want: [{ name: 'B', default: '(none)', description: 'b' }],
    },
    {
      reason: 'optional without unset: (none)',
      schema: z.object({ C: z.string().optional().describe('c') }),
      want: [{ name: 'C', default: '(none)', description: 'c' }],
    },
    {
      reason: 'through a transform, image variables with their image',
      schema: z.looseObject({ ...imageVariables({ 'my-server': 'r/s:1' }) }).transform((e) => e),
      want: [{ name: 'MODELHOOKS_IMAGE_MY_SERVER', default: 'r/s:1', description: 'the my-server image' }],
    },
  ])('$reason', ({ schema, want }) => {
    const variables = configVariablesOf(schema);
    expect(variables.map(({ schema: _, ...v }) => v)).toEqual(want);
    // Each with its own field's schema (what the chart's values.schema.json is made from).
    for (const v of variables) expect(v.schema.safeParse(undefined).success).toBe(true);
  });
});
