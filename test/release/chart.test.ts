// charts/modelhooks is generated from deploy/ (release/chart.ts, `npm run chart`): checked here
// to be up to date, without Go (test/deploy/kustomize.ts's model of kustomize). The e2e tier
// (test/e2e/15-chart.e2e.ts) lints it with helm and checks that `helm template` gives what the
// kustomize binary gives for every combination of components.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { configVariables, loadConfig } from '../../hooks/server/config.js';
import { CHART_DIR, chartFiles, chartProblems, settingSchema } from '../../release/chart.js';
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

  it('values.schema.json refuses what the server refuses and takes what it takes, for every setting it constrains (enums, patterns, numbers)', () => {
    const { $schema: _, ...schema } = JSON.parse(read('values.schema.json')) as Record<string, unknown>;
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    const chartTakes = (name: string, value: unknown) => validate({ config: { [name]: value } });
    // The chart leaves out a variable deploy/ does not set when its value is '' (the server's default).
    const unsetInDeploy = new Set(
      Object.entries((parse(read('values.yaml')) as { config: Record<string, unknown> }).config)
        .filter(([, x]) => x === '')
        .map(([n]) => n),
    );
    const serverTakes = (name: string, value: unknown) => {
      if (value === '' && unsetInDeploy.has(name)) return serverTakes('MODELHOOKS_LOG_LEVEL', 'info');
      try {
        // The one rule across two numbers (headers within the request timeout) kept out of the way.
        // And the webhook port's need for TLS (a rule across variables too).
        const tls = name === 'MODELHOOKS_WEBHOOK_PORT' ? { MODELHOOKS_TLS_CERT_FILE: 'c', MODELHOOKS_TLS_KEY_FILE: 'k' } : {};
        loadConfig({ MODELHOOKS_HEADERS_TIMEOUT_SECONDS: '0.5', MODELHOOKS_REQUEST_TIMEOUT_SECONDS: '1000', ...tls, [name]: String(value) });
        return true;
      } catch {
        return false;
      }
    };
    const checked: string[] = [];
    for (const v of configVariables().filter((x) => x.name !== 'PORT')) {
      const s = settingSchema(v) as { type?: string; enum?: string[]; pattern?: string; minimum?: number; maximum?: number; exclusiveMinimum?: number };
      const samples: [unknown, boolean][] = [];
      if (s.enum) samples.push(...s.enum.map((e): [unknown, boolean] => [e, true]), ['loud', false], ['', unsetInDeploy.has(v.name)]);
      else if (s.pattern) samples.push([String(v.schema.parse(undefined) ?? ''), true], ['not valid!', false]);
      else if (s.type === 'number' || s.type === 'integer') {
        const low = s.minimum ?? (s.exclusiveMinimum as number) + 1;
        samples.push([low, true], [s.minimum !== undefined ? s.minimum - 1 : s.exclusiveMinimum, false], ['ten', false]);
        if (s.maximum !== undefined && s.maximum < 2 ** 32) samples.push([s.maximum, true], [s.maximum + 1, false]);
        if (s.type === 'integer') samples.push([low + 0.5, false]);
      } else continue; // a plain string: the server takes any (rules across variables, e.g. TLS files in pairs, are the server's alone)
      checked.push(v.name);
      for (const [value, takes] of samples) {
        expect([v.name, value, chartTakes(v.name, value)]).toEqual([v.name, value, takes]);
        expect([v.name, value, serverTakes(v.name, value)]).toEqual([v.name, value, takes]);
      }
    }
    expect(checked).toContain('MODELHOOKS_LOG_LEVEL');
    expect(checked.length).toBeGreaterThanOrEqual(18);
    expect(chartTakes('MODELHOOKS_LOG_LEVEL', 'loud')).toBe(false);
  });

  it('takes pull secrets, scheduling and pod labels and annotations for the server, and names objects after the release', () => {
    const deployment = read('templates/deployment-modelhooks.yaml');
    for (const key of ['imagePullSecrets', 'nodeSelector', 'tolerations', 'affinity', 'podAnnotations', 'podLabels'])
      expect(deployment).toContain(`{{- with .Values.${key} }}`);
    expect(deployment).toContain('name: {{ include "modelhooks.fullname" . }}');
    expect(deployment).toContain('namespace: {{ .Release.Namespace }}');
    expect(deployment).not.toContain('modelhooks-system');
    expect(read('templates/compositecontroller-modelhooks-tfserv.yaml')).toContain(
      'url: http://{{ include "modelhooks.fullname" . }}.{{ .Release.Namespace }}.svc/hooks/tfserv/sync',
    );
    expect(read('templates/tests/test-healthz.yaml')).toContain('helm.sh/hook: test');
  });
});

describe('charts/modelhooks: the built-in compositions and extraCompositions (issue 33)', () => {
  const helpers = read('templates/_helpers.tpl');
  /** The text of one branch of a template: what follows `{{- if|else if <test> }}` up to the next branch. */
  const branch = (text: string, test: string) => {
    const at = text.indexOf(`${test} }}`);
    expect(at, test).toBeGreaterThan(0);
    return text.slice(text.indexOf('\n', at)).split(/\{\{- (?:else if|else|end)\b/)[0] as string;
  };

  it('installs the built-in CompositeControllers unless builtin.enabled is false, and takes no extra composition by default', () => {
    const values = parse(read('values.yaml')) as Record<string, unknown>;
    expect(values.builtin).toEqual({ enabled: true });
    expect(values.extraCompositions).toEqual({});
    for (const f of ['inferenceservice', 'inferencegraph', 'trustyai', 'tfserv', 'mlmodel'])
      expect(read(`templates/compositecontroller-modelhooks-${f}.yaml`).split('\n')[1]).toMatch(/^\{\{- if and \.Values\.builtin\.enabled /);
  });

  it("gives extra CompositeControllers the built-in ones' hook URL and endpointConfigs under each TLS mode", () => {
    const tfserv = read('templates/compositecontroller-modelhooks-tfserv.yaml');
    for (const mode of ['none', 'cert-manager', 'openshift-service-ca']) {
      const test = `eq .Values.tls.mode "${mode}"`;
      const base = (helpers.split('define "modelhooks.hookBase"')[1] as string).split(`${test} -}}\n`)[1]?.split('\n')[0];
      const builtin = branch(tfserv, `.Values.builtin.enabled (${test})`);
      expect(builtin).toContain(`url: ${base}/hooks/tfserv/sync`);
      const configsHelper = helpers.split('define "modelhooks.endpointConfigs"')[1] as string;
      if (mode === 'none') {
        expect(configsHelper).not.toContain(test);
        expect(builtin).not.toContain('endpointConfigs');
      } else expect(builtin.replace(/\n {4}/g, '\n')).toContain(`endpointConfigs:${branch(configsHelper, test).trimEnd()}`);
    }
    const extra = read('templates/extra-compositions.yaml');
    expect(extra).toContain('{{- range $name, $composition := .Values.extraCompositions }}');
    expect(extra).toContain('(include "modelhooks.hookBase" $)');
    expect(extra).toContain('{{- with include "modelhooks.endpointConfigs" $ | fromYamlArray }}');
    expect(extra).toContain('"helm.sh/resource-policy" "keep"');
  });

  it('values.schema.json takes a CRD and a CompositeController per extra composition, as text or objects, and refuses one without both', () => {
    const { $schema: _, ...schema } = JSON.parse(read('values.schema.json')) as Record<string, unknown>;
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate({ extraCompositions: { greeter: { crd: 'kind: CustomResourceDefinition', compositeController: { kind: 'CompositeController' } } } })).toBe(
      true,
    );
    expect(validate({ extraCompositions: { greeter: { crd: 'kind: CustomResourceDefinition' } } })).toBe(false);
    expect(validate({ extraCompositions: { greeter: { crd: 'x', compositeController: 'y', crds: 'z' } } })).toBe(false);
    expect(validate({ extraCompositions: { Greeter: { crd: 'x', compositeController: 'y' } } })).toBe(false);
    expect(validate({ builtin: { enabled: false } })).toBe(true);
    expect(validate({ builtin: { enable: false } })).toBe(false);
  });
});
