import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../hooks/compositions.js';
import { defaultHookConfig } from '../hooks/server/config.js';
import { crdFor } from '../hooks/engine/manifests.js';
import { runSyncSent as runSync } from './support/credentials.js';
import { readYamlDocs } from './support/golden.js';
import { referenceSamples, sampleCredentials } from './support/reference.js';
import { validateAgainstCrd, expectValid } from './support/validate.js';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const examplesDir = path.resolve(import.meta.dirname, '../examples');
const examples = readdirSync(examplesDir)
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((f) => readYamlDocs(path.join(examplesDir, f)).map((object) => ({ file: `examples/${f}`, object })));

// The users' YAML of the replaced operators must apply unchanged and render valid children.
const ours = (o: { apiVersion?: string; kind?: string }) =>
  builtinCompositions.find((c) => o.apiVersion?.startsWith(`${c.parent.group}/`) && c.parent.kind === o.kind);

// The ServiceAccounts and Secrets the KServe samples need beside their InferenceServices.
const credentialsOf = (composition: string) => (composition === 'inferenceservice' ? sampleCredentials() : []);

describe.each([...referenceSamples(), ...examples].filter((s) => ours(s.object as object)))('$file', ({ object }) => {
  const composition = ours(object as object)!;
  it('validates against our CRD', () => {
    expect(validateAgainstCrd(crdFor(composition), object)).toEqual([]);
  });
  it('renders valid children without a False Ready for an invalid spec', () => {
    const out = runSync(composition, { parent: object, config: defaultHookConfig(), related: credentialsOf(composition.name) });
    expect(out.condition('Ready')?.reason).not.toBe('InvalidSpec');
    expect(out.children.length).toBeGreaterThan(0);
    for (const child of out.children) expectValid(child);
  });
});
