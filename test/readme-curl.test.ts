import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../hooks/compositions.js';
import { createApp } from '../hooks/server/app.js';
import { loadConfig } from '../hooks/server/config.js';

// The README's curl example, run as written (only the port changed) against the server.
const readme = readFileSync(path.resolve(import.meta.dirname, '../README.md'), 'utf8');
const command = /^curl -s localhost:8080\/hooks\/.*\\\n.*$/m.exec(readme)?.[0] ?? '';

async function withServer<T>(fn: (port: number) => T | Promise<T>): Promise<T> {
  const server = createApp({ compositions: builtinCompositions, config: loadConfig({ MODELHOOKS_LOG_LEVEL: 'silent' }) }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    return await fn((server.address() as AddressInfo).port);
  } finally {
    server.close();
  }
}

// Asynchronously: the server answers from this process.
const curl = async (line: string, port: number) => (await promisify(execFile)('bash', ['-c', line.replace('localhost:8080', `127.0.0.1:${port}`)])).stdout;

describe("the README's curl example", () => {
  it('is in the README', () => expect(command).toMatch(/-H 'Content-Type: application\/json'/));

  it('answers what the README says: Ready False (ConfigMapMissing), and only the Service', async () => {
    const answer = JSON.parse(await withServer((port) => curl(command, port))) as {
      status: { conditions: Array<{ type: string; status: string; reason: string }> };
      children: Array<{ kind: string }>;
    };
    expect(answer.status.conditions[0]).toMatchObject({ type: 'Ready', status: 'False', reason: 'ConfigMapMissing' });
    expect(answer.children.map((c) => c.kind)).toEqual(['Service']);
    expect(readme).toContain('"children": [the Service]}`: the Deployment waits for the ConfigMap.');
    expect(readme).toContain('"reason": "ConfigMapMissing"');
  });

  it('without the header (curl -d alone) gets 415 saying what to add', async () => {
    const out = await withServer((port) => curl(`${command.replace(" -H 'Content-Type: application/json'", '')} -w ' %{http_code}'`, port));
    expect(out).toBe(
      "body: Content-Type application/x-www-form-urlencoded is not JSON; hooks take application/json (curl -d sends a form type: add -H 'Content-Type: application/json') 415",
    );
  });
});
