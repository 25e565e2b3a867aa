import { appendFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How tests reach the API server; provided by globalSetup. */
export interface KubeInfo {
  url: string;
  token: string;
  ca: string;
  /** The cluster's temp dir; dry-run counts are appended there for the end-of-run summary. */
  dir: string;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [k: string]: unknown };
  [field: string]: unknown;
}

interface Resource {
  name: string;
  namespaced: boolean;
}

/** An error answer of the API server; the message is the server's own. */
export class KubeError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'KubeError';
  }
}

const FIELD_MANAGER = 'modelhooks-e2e';

/**
 * A deliberately small client: the tier exercises the API server's validation, so every
 * write uses fieldValidation=Strict (an unknown field is an error, not silently dropped).
 */
export class Kube {
  private readonly agent: https.Agent;
  private readonly discovery = new Map<string, Promise<Map<string, Resource>>>();

  constructor(readonly info: KubeInfo) {
    this.agent = new https.Agent({ ca: info.ca, keepAlive: true });
  }

  request(method: string, urlPath: string, body?: unknown, contentType = 'application/json') {
    return new Promise<{ status: number; text: string; warnings: string[] }>((resolve, reject) => {
      const req = https.request(new URL(urlPath, this.info.url), {
        method,
        agent: this.agent,
        headers: { authorization: `Bearer ${this.info.token}`, accept: 'application/json', 'content-type': contentType },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          // RFC 7234 Warning headers, as kubectl prints them: `299 - "unknown field …"`.
          const raw = res.headers.warning;
          // Node joins repeated headers with ", "; each warning's text is a quoted string.
          const warnings = (Array.isArray(raw) ? raw : raw ? [raw] : [])
            .flatMap((w) => w.split(/, (?=\d{3} )/))
            .map((w) => w.replace(/^\d{3} \S+ "(.*)"$/, '$1').replace(/\\(.)/g, '$1'));
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), warnings });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  /** JSON call; a non-2xx answer becomes a KubeError carrying the server's Status message. */
  async call<T = KubeObject>(method: string, urlPath: string, body?: unknown, contentType?: string): Promise<T> {
    const res = await this.request(method, urlPath, body, contentType);
    const parsed = res.text ? (JSON.parse(res.text) as Record<string, unknown>) : {};
    if (res.status >= 300) {
      const message = typeof parsed.message === 'string' ? parsed.message : res.text;
      throw new KubeError(res.status, String(parsed.reason ?? ''), `${method} ${urlPath}: ${res.status} ${message}`);
    }
    return parsed as T;
  }

  /** Server-side apply (create or update). */
  async apply(obj: KubeObject, opts: { dryRun?: boolean } = {}): Promise<KubeObject> {
    const url = await this.objectPath(obj, obj.metadata.name);
    const q = query({ fieldManager: FIELD_MANAGER, force: 'true', fieldValidation: 'Strict', dryRun: opts.dryRun ? 'All' : undefined });
    const out = await this.call('PATCH', url + q, obj, 'application/apply-patch+yaml');
    if (opts.dryRun) this.count('dryRun');
    return out;
  }

  async create(obj: KubeObject, opts: { dryRun?: boolean } = {}): Promise<KubeObject> {
    const url = await this.objectPath(obj);
    const q = query({ fieldManager: FIELD_MANAGER, fieldValidation: 'Strict', dryRun: opts.dryRun ? 'All' : undefined });
    const out = await this.call('POST', url + q, obj);
    this.count(opts.dryRun ? 'dryRun' : 'created');
    return out;
  }

  dryRunCreate(obj: KubeObject): Promise<KubeObject> {
    return this.create(obj, { dryRun: true });
  }

  async get(apiVersion: string, kind: string, name: string, namespace?: string): Promise<KubeObject> {
    return this.call('GET', await this.objectPath({ apiVersion, kind, metadata: { name, namespace } }, name));
  }

  async delete(obj: KubeObject): Promise<void> {
    await this.call('DELETE', await this.objectPath(obj, obj.metadata.name));
  }

  async ensureNamespace(name: string): Promise<void> {
    await this.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }

  async waitForCrdEstablished(name: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const crd = await this.call<{ status?: { conditions?: Array<{ type: string; status: string; message?: string }> } }>(
        'GET',
        `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`,
      );
      const conditions = crd.status?.conditions ?? [];
      if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) return;
      if (Date.now() > deadline) {
        throw new Error(`CRD ${name} not Established after ${timeoutMs}ms: ${JSON.stringify(conditions)}`);
      }
      await sleep(200);
    }
  }

  /** The kind served as `resource` (a plural) in apiVersion, or undefined. */
  async kindOf(apiVersion: string, resource: string): Promise<string | undefined> {
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const list = await this.call<{ resources: Array<{ name: string; kind: string }> }>('GET', base).catch(() => undefined);
    return list?.resources.find((r) => r.name === resource)?.kind;
  }

  /** REST path of an object's collection (no name) or of the object itself. */
  async objectPath(obj: Pick<KubeObject, 'apiVersion' | 'kind' | 'metadata'>, name?: string): Promise<string> {
    const resource = await this.resource(obj.apiVersion, obj.kind);
    const base = obj.apiVersion.includes('/') ? `/apis/${obj.apiVersion}` : `/api/${obj.apiVersion}`;
    const ns = obj.metadata.namespace;
    if (resource.namespaced && !ns) throw new Error(`${obj.kind} ${obj.metadata.name}: namespaced kind without metadata.namespace`);
    const scope = resource.namespaced ? `/namespaces/${ns}` : '';
    return `${base}${scope}/${resource.name}${name ? `/${encodeURIComponent(name)}` : ''}`;
  }

  /** Discovery per group-version; refetched once when a kind is missing (a CRD just installed). */
  private async resource(apiVersion: string, kind: string): Promise<Resource> {
    for (let attempt = 0; ; attempt++) {
      let cached = this.discovery.get(apiVersion);
      if (!cached) {
        cached = this.fetchResources(apiVersion);
        this.discovery.set(apiVersion, cached);
      }
      const found = (await cached.catch(() => undefined))?.get(kind);
      if (found) return found;
      this.discovery.delete(apiVersion);
      if (attempt >= 20) throw new Error(`the API server serves no ${kind} in ${apiVersion} (is its CRD installed?)`);
      await sleep(250);
    }
  }

  private async fetchResources(apiVersion: string): Promise<Map<string, Resource>> {
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const list = await this.call<{ resources: Array<{ name: string; kind: string; namespaced: boolean }> }>('GET', base);
    return new Map(list.resources.filter((r) => !r.name.includes('/')).map((r) => [r.kind, { name: r.name, namespaced: r.namespaced }]));
  }

  private count(what: 'dryRun' | 'created'): void {
    appendFileSync(path.join(this.info.dir, 'counts.log'), `${what}\n`);
  }
}

function query(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
  return `?${q.toString()}`;
}
