import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import http from 'node:http';
import { main } from '../hooks/cli.js';
import { readObjects } from '../hooks/cli/render.js';
import { syncRequest } from '../hooks/testing.js';
import { trustyai } from '../hooks/trustyai/index.js';

const root = path.resolve(import.meta.dirname, '..');

async function run(args: string[], cwd = root) {
  let out = '';
  let err = '';
  const code = await main(args, { out: (t) => void (out += t), err: (t) => void (err += t), env: {}, cwd });
  return { code, out, err };
}

describe('modelhooks render', () => {
  it('prints the children then the status of examples/trustyai.yaml', async () => {
    const { code, out } = await run(['render', 'examples/trustyai.yaml', '--now', '2026-01-01T00:00:00Z']);
    expect(code).toBe(0);
    const docs = parseAllDocuments(out).map((d) => d.toJS());
    expect(docs.slice(0, -1).map((d) => d.kind)).toEqual(['ConfigMap', 'Deployment', 'PersistentVolumeClaim', 'Service']);
    expect(docs.at(-1).status.conditions[0]).toMatchObject({ type: 'Ready', lastTransitionTime: '2026-01-01T00:00:00Z' });
  });

  it('takes observed children and the variant', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'render-'));
    const pvc = path.join(dir, 'pvc.yaml');
    writeFileSync(pvc, 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: trustyai-service-pvc, namespace: fairness}\nstatus: {phase: Bound}\n');
    const { code, out } = await run(['render', 'examples/trustyai.yaml', '--observed', pvc, '--variant', 'openshift']);
    expect(code).toBe(0);
    expect(out).toContain('kind: Route');
    expect(out).toContain('reason: PVCBound');
  });

  const failures: Array<[string, string, RegExp]> = [
    ['a missing file', 'no-such.yaml', /cannot read .*no-such\.yaml/],
    ['a kind no composition serves', 'test/fixtures/cli/unknown-kind.yaml', /no composition serves Widget/],
    ['an invalid spec', 'test/fixtures/cli/invalid-spec.yaml', /invalid spec: spec\.storage\.databaseConfigurations: required/],
    ['broken YAML', 'test/fixtures/cli/broken.yaml', /invalid YAML/],
  ];
  for (const [reason, file, message] of failures) {
    it(`exits 1 with a clear message for ${reason}`, async () => {
      const { code, out, err } = await run(['render', file]);
      expect(code).toBe(1);
      expect(out).toBe('');
      expect(err).toMatch(message);
    });
  }
  it('exits 1 for an unknown variant and a malformed --now', async () => {
    expect((await run(['render', 'examples/trustyai.yaml', '--variant', 'mars'])).err).toMatch(/no variant "mars"; variants: default, openshift, prometheus/);
    expect((await run(['render', 'examples/trustyai.yaml', '--now', 'yesterday'])).code).toBe(1);
  });
});

describe('modelhooks manifests', () => {
  it('--check passes on the committed tree', async () => {
    const { code, err } = await run(['manifests', '--check']);
    expect(err).toBe('');
    expect(code).toBe(0);
  });
  it('--check fails and names the file when a generated file was edited by hand', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'manifests-'));
    cpSync(path.join(root, 'crds'), path.join(dir, 'crds'), { recursive: true });
    cpSync(path.join(root, 'compositions'), path.join(dir, 'compositions'), { recursive: true });
    writeFileSync(path.join(dir, 'crds', 'trustyaiservices.trustyai.opendatahub.io.yaml'), '# edited\n');
    const { code, err } = await run(['manifests', '--check', '--dir', dir]);
    expect(code).toBe(1);
    expect(err).toContain('crds/trustyaiservices.trustyai.opendatahub.io.yaml: differs');
    expect((await run(['manifests', '--dir', dir])).code).toBe(0);
    expect((await run(['manifests', '--check', '--dir', dir])).code).toBe(0);
  });
});

describe('modelhooks serve', () => {
  it('serves, then on SIGTERM stops accepting, finishes and exits 0', async () => {
    const port = String(20000 + Math.floor(Math.random() * 20000));
    const child = spawn(process.execPath, ['--import', 'tsx', 'hooks/cli.ts', 'serve', '--port', port], {
      cwd: root,
      env: { ...process.env, MODELHOOKS_LOG_LEVEL: 'info', MODELHOOKS_HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let logs = '';
    child.stdout.on('data', (d) => (logs += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    for (let i = 0; i < 100 && !logs.includes('serving hooks'); i++) await new Promise((r) => setTimeout(r, 100));
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(await res.text()).toBe('ok');
    // A request in flight when SIGTERM arrives: half its body sent before, half after.
    const body = JSON.stringify(syncRequest(trustyai, { parent: readObjects(path.join(root, 'examples/trustyai.yaml'))[0] }));
    const inFlight = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/hooks/trustyai/sync', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (r) => {
        let text = '';
        r.on('data', (d) => (text += String(d)));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 100));
      setTimeout(() => {
        child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(100)), 300);
      }, 200);
    });
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.text).children.length).toBeGreaterThan(0);
    expect(await exited).toBe(0);
    expect(logs).toContain('draining');
    expect(logs).toContain('"host":"127.0.0.1"');
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });
});
