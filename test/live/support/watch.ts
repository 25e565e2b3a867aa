import https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kube, KubeObject } from '../../e2e/support/kube.js';

export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: KubeObject & { metadata: KubeObject['metadata'] & { resourceVersion?: string; uid?: string } };
}

export interface Watch {
  /** Resolves once the initial list has been delivered (as ADDED events). */
  synced: Promise<void>;
  stop(): void;
}

/**
 * List, then watch a collection (`/api/v1/pods`, `/apis/apps/v1/namespaces/x/deployments`),
 * as an informer does: the list arrives as ADDED events, a dropped watch resumes from the last
 * resourceVersion seen, and an expired one (410) lists again. `query` is appended (e.g.
 * `labelSelector=...`).
 */
export function listAndWatch(kube: Kube, collection: string, onEvent: (e: WatchEvent) => void, query = ''): Watch {
  let stopped = false;
  let current: ReturnType<typeof https.request> | undefined;
  let markSynced: () => void = () => undefined;
  const synced = new Promise<void>((resolve) => (markSynced = resolve));
  const sep = collection.includes('?') ? '&' : '?';

  const run = async () => {
    let rv = '';
    while (!stopped) {
      try {
        if (!rv) {
          const list = await kube.call<{ metadata: { resourceVersion: string }; items: WatchEvent['object'][] }>('GET', `${collection}${sep}${query}`);
          for (const object of list.items) onEvent({ type: 'ADDED', object });
          rv = list.metadata.resourceVersion;
          markSynced();
        }
        rv = await watchOnce(`${collection}${sep}watch=1&allowWatchBookmarks=true&resourceVersion=${rv}${query ? `&${query}` : ''}`, rv);
      } catch (error) {
        if (stopped) return;
        if (String(error).includes('410')) rv = '';
        await sleep(500);
      }
    }
  };

  /** One watch request; returns the last resourceVersion seen (an empty one means: list again). */
  const watchOnce = (urlPath: string, from: string) =>
    new Promise<string>((resolve, reject) => {
      let rv = from;
      let buffer = '';
      const req = https.request(new URL(urlPath, kube.info.url), {
        method: 'GET',
        ca: kube.info.ca,
        headers: { authorization: `Bearer ${kube.info.token}`, accept: 'application/json' },
      });
      current = req;
      req.on('response', (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(new Error(`watch ${urlPath}: ${res.statusCode}`));
        }
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
            const line = buffer.slice(0, nl);
            buffer = buffer.slice(nl + 1);
            if (!line.trim()) continue;
            const event = JSON.parse(line) as { type: string; object: WatchEvent['object'] & { code?: number } };
            if (event.type === 'ERROR') {
              rv = event.object.code === 410 ? '' : rv;
              req.destroy();
              return;
            }
            rv = event.object.metadata?.resourceVersion ?? rv;
            if (event.type !== 'BOOKMARK') onEvent(event as WatchEvent);
          }
        });
        res.on('end', () => resolve(rv));
        res.on('error', () => resolve(rv));
        res.on('close', () => resolve(rv));
      });
      req.on('error', (e) => (stopped ? resolve(rv) : reject(e)));
      req.end();
    });

  void run();
  return {
    synced,
    stop() {
      stopped = true;
      current?.destroy();
    },
  };
}
