// charts/modelhooks is generated from deploy/ (release/chart.ts, `npm run chart`): checked here
// to be up to date, without Go (test/deploy/kustomize.ts's model of kustomize). The e2e tier
// (test/e2e/15-chart.e2e.ts) lints it with helm and checks that `helm template` gives what the
// kustomize binary gives for every combination of components.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { configVariables } from '../../hooks/server/config.js';
import { CHART_DIR, chartFiles, chartProblems } from '../../release/chart.js';
import { togglesOf, valuesKey } from '../../release/components.js';
import { build } from '../deploy/kustomize.js';
import { repoRoot } from '../support/reference.js';

const root = repoRoot();
const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
const files = chartFiles(root, (dir, components) => build(dir, { components }), version);
const read = (rel: string) => readFileSync(path.join(root, CHART_DIR, rel), 'utf8');

describe('charts/modelhooks', () => {
  it('is what deploy/, crds/ and the config schemas generate (`npm run chart -- --check`)', () => {
    expect(chartProblems(root, files)).toEqual([]);
  }, 120_000);

  it('is versioned as the package', () => {
    expect(parse(read('Chart.yaml'))).toMatchObject({ apiVersion: 'v2', name: 'modelhooks', version, appVersion: version });
  });

  it('has a value for every variable the server reads (PORT aside: the TLS modes set it), and its schema refuses others', () => {
    const values = parse(read('values.yaml')) as { config: Record<string, string> };
    const names = configVariables()
      .map((v) => v.name)
      .filter((n) => n !== 'PORT');
    expect(Object.keys(values.config)).toEqual(names);
    const schema = JSON.parse(read('values.schema.json')) as { properties: { config: { additionalProperties: boolean; properties: object } } };
    expect(Object.keys(schema.properties.config.properties)).toEqual(names);
    expect(schema.properties.config.additionalProperties).toBe(false);
  });

  it('has a toggle for each deploy/ component, off, and one TLS mode per tls-* component', () => {
    const values = parse(read('values.yaml')) as Record<string, { enabled?: boolean; mode?: string }>;
    const toggles = togglesOf(path.join(root, 'deploy'));
    expect(toggles.flags).toEqual(['cert-manager', 'gateway-api', 'openshift', 'prometheus']);
    for (const f of toggles.flags) expect(values[valuesKey(f)], f).toEqual({ enabled: false });
    expect(values.tls).toEqual({ mode: 'none' });
    const schema = JSON.parse(read('values.schema.json')) as { properties: { tls: { properties: { mode: { enum: string[] } } } } };
    expect(schema.properties.tls.properties.mode.enum).toEqual(['none', 'cert-manager', 'openshift-service-ca']);
  });

  it('keeps an object no component changes as one plain template, and chooses only by the toggles that change one', () => {
    expect(read('templates/serviceaccount-modelhooks.yaml')).not.toContain('{{- if');
    const service = read('templates/service-modelhooks.yaml');
    expect(service).toContain('{{- if eq .Values.tls.mode "none" }}');
    expect(service).not.toContain('.Values.openshift');
    expect(read('templates/servicemonitor-modelhooks.yaml')).toContain('{{- if .Values.prometheus.enabled }}');
  });

  it('takes the image, replicas, resources and every configured variable from the values', () => {
    const deployment = read('templates/deployment-modelhooks.yaml');
    expect(deployment).toContain('image: {{ printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) | quote }}');
    expect(deployment).toContain('replicas: {{ .Values.replicas }}');
    expect(deployment).toContain('{{- toYaml .Values.resources | nindent 12 }}');
    expect(deployment).toContain('value: {{ index .Values.config "MODELHOOKS_CACHE_BYTES" | toString | quote }}');
    expect(deployment).toContain('{{- range $name, $value := .Values.config }}');
    // A literal {{ (MODELHOOKS_DOMAIN_TEMPLATE's) is never left for helm to read as an action.
    expect(deployment).not.toContain('{{name}}');
  });
});
