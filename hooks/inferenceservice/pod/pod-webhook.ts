import { applyInjection, METRIC_AGGREGATION_ANNOTATION, POD_INJECTION_ANNOTATION, podPatch, type PodInjection, type PodObject } from './injection.js';

/*
 * modelhooks' pod mutating webhook (MODELHOOKS_POD_INJECTION=webhook): an AdmissionReview (v1 or
 * v1beta1, as KServe's configuration asks for) in, a JSONPatch out. What it adds to a Pod is
 * what the InferenceService sync last wrote on the Pod's Deployment (pod/injection.ts), found by
 * the Deployment's selector label `app` (isvc.<name>-<component>, every Pod of it carries it):
 * the server keeps those from each sync answer it writes (InjectionRegistry.record). The answer
 * is a pure function of the review and the registry.
 */

/** The Deployment selector label of an InferenceService's pods (names.ts selectorFor). */
const APP_LABEL = 'app';

/** The registry's default byte bound: some thousands of Deployments (an injection's JSON is 1-5 KB). */
export const INJECTION_REGISTRY_BYTES = 16 * 1024 * 1024;

/**
 * The injection of each InferenceService Deployment, by `namespace/app` (its selector), bounded
 * by bytes (the JSON text of each injection): past the bound the least recently written go
 * first. A Deployment whose entry went (or was deleted long ago) reads as not synced: its next
 * Pod is refused until the next sync writes it again (the CompositeController resyncs every
 * 30 s in this mode), never admitted without its storage initializer.
 */
export class InjectionRegistry {
  private readonly byPods = new Map<string, { injection: PodInjection; bytes: number }>();
  private held = 0;

  constructor(private readonly maxBytes = INJECTION_REGISTRY_BYTES) {}

  get size(): number {
    return this.byPods.size;
  }

  /** The bytes the entries hold (their JSON text). */
  get bytes(): number {
    return this.held;
  }

  get(namespace: string, app: string): PodInjection | undefined {
    return this.byPods.get(`${namespace}/${app}`)?.injection;
  }

  set(namespace: string, app: string, injection: PodInjection, bytes = JSON.stringify(injection).length): void {
    const key = `${namespace}/${app}`;
    const old = this.byPods.get(key);
    if (old) {
      this.held -= old.bytes;
      this.byPods.delete(key);
    }
    if (bytes > this.maxBytes) return;
    this.byPods.set(key, { injection, bytes });
    this.held += bytes;
    for (const [k, v] of this.byPods) {
      if (this.held <= this.maxBytes) break;
      this.byPods.delete(k);
      this.held -= v.bytes;
    }
  }

  /** Keeps the injections of the Deployments of a sync answer's JSON (cheap when it has none: most answers). */
  record(answerText: string): void {
    if (!answerText.includes(POD_INJECTION_ANNOTATION)) return;
    const answer = JSON.parse(answerText) as { children?: Array<Record<string, unknown>> };
    for (const child of answer.children ?? []) {
      if (child.kind !== 'Deployment') continue;
      const meta = child.metadata as { namespace?: string; annotations?: Record<string, string> } | undefined;
      const text = meta?.annotations?.[POD_INJECTION_ANNOTATION];
      const app = (child.spec as { selector?: { matchLabels?: Record<string, string> } } | undefined)?.selector?.matchLabels?.[APP_LABEL];
      if (text === undefined || app === undefined || meta?.namespace === undefined) continue;
      this.set(meta.namespace, app, JSON.parse(text) as PodInjection, text.length);
    }
  }
}

interface AdmissionReview {
  apiVersion?: string;
  kind?: string;
  request?: { uid?: string; namespace?: string; operation?: string; object?: PodObject & { metadata?: { labels?: Record<string, string> } } };
}

export interface AdmissionAnswer {
  apiVersion: string;
  kind: 'AdmissionReview';
  response: {
    uid: string;
    allowed: boolean;
    patchType?: 'JSONPatch';
    /** base64 of the JSON Patch. */
    patch?: string;
    status?: { code: number; message: string };
  };
}

/**
 * The answer to an AdmissionReview of a Pod: the injection of its Deployment applied; a Pod
 * with nothing to add (no such Deployment, or already complete: created from a template-mode
 * Deployment, or reinvoked) allowed unchanged; a Pod KServe's webhook would have completed
 * (no enable-metric-aggregation, which it writes on every Pod) whose Deployment this server has
 * not synced since it started refused, so that no Pod starts without its storage initializer:
 * the ReplicaSet controller creates it again, after the next sync.
 */
export function admitPod(body: unknown, registry: InjectionRegistry): AdmissionAnswer {
  const review = (body ?? {}) as AdmissionReview;
  const apiVersion = review.apiVersion === 'admission.k8s.io/v1beta1' ? review.apiVersion : 'admission.k8s.io/v1';
  const uid = review.request?.uid ?? '';
  const answer = (response: Omit<AdmissionAnswer['response'], 'uid'>): AdmissionAnswer => ({
    apiVersion,
    kind: 'AdmissionReview',
    response: { uid, ...response },
  });
  const pod = review.request?.object;
  if (review.kind !== 'AdmissionReview' || !pod || typeof pod !== 'object' || !pod.spec || !Array.isArray(pod.spec.containers)) {
    return answer({ allowed: false, status: { code: 400, message: 'not an AdmissionReview of a Pod' } });
  }
  const namespace = review.request?.namespace ?? '';
  const app = pod.metadata?.labels?.[APP_LABEL];
  const injection = app === undefined ? undefined : registry.get(namespace, app);
  if (!injection) {
    if (app !== undefined && pod.metadata?.annotations?.[METRIC_AGGREGATION_ANNOTATION] === undefined) {
      return answer({
        allowed: false,
        status: {
          code: 503,
          message: `modelhooks has not synced the Deployment of ${namespace}/${app} since it started: the Pod is created again after its next sync`,
        },
      });
    }
    return answer({ allowed: true });
  }
  const ops = podPatch(pod, applyInjection(pod, injection));
  if (ops.length === 0) return answer({ allowed: true });
  return answer({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });
}
