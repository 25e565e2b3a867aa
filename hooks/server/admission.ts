/**
 * What a request may hold before it is answered, so that one namespace's flood costs that
 * namespace and never the others or the process (issue 32 items 2 and 4):
 *
 * - `ByteBudget`: the bytes of request bodies in flight (MODELHOOKS_INFLIGHT_BYTES), reserved
 *   from Content-Length before a byte is read (by the bytes read, for a chunked or compressed
 *   body) and released when the answer is written. A request that does not fit is answered 503
 *   with Retry-After at once: 64 slow POSTs announcing 16 MiB reached 1.1 GiB of RSS before.
 * - `FairQueue`: the compute of read requests, one at a time (it runs on the event loop),
 *   taken round-robin from one queue per namespace, as the API server's Priority and Fairness
 *   does per flow: a namespace's flood waits in its own queue, and another namespace's request
 *   waits for at most one request of each namespace with work. A namespace's waiting requests
 *   may hold a quarter of the budget (server/app.ts): under 48 concurrent 2 MB syncs, the bodies
 *   held (and the collections they cost) were what slowed everyone. When the budget is short, the
 *   newest queued request of the namespace holding the most queued bytes is shed (503) to make
 *   room, so the flood, not its neighbours, is refused.
 *
 * - `ComputePool`: worker threads for large requests of the built-in compositions, so that their
 *   compute does not hold the event loop (MODELHOOKS_COMPUTE_WORKERS).
 */

import { Worker } from 'node:worker_threads';
import type { Computed } from '../engine/compute.js';
import type { HookName } from '../engine/request.js';

/** The bytes the bodies of requests in flight may hold in all. */
export class ByteBudget {
  private held = 0;
  constructor(readonly capacity: number) {}

  get used(): number {
    return this.held;
  }

  /** Takes `bytes` if they fit; false (nothing taken) if not. */
  reserve(bytes: number): boolean {
    if (this.held + bytes > this.capacity) return false;
    this.held += bytes;
    return true;
  }

  release(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }
}

/** One request waiting for its turn: what it holds of the budget, how to run it and how to refuse it. */
export interface QueuedJob {
  bytes: number;
  run(): void;
  /** Answers 503 (shed to make room); called instead of run. */
  shed(): void;
}

interface NamespaceQueue {
  jobs: QueuedJob[];
  /** Bytes its waiting jobs hold. */
  bytes: number;
}

/**
 * Round-robin over namespaces, one job at a time, each on its own turn of the event loop
 * (setImmediate), so that sockets are read and new requests queued between two jobs. A job
 * that arrives while nothing else is waiting runs at once (no added latency for a lone
 * request), but it marks the turn busy: requests that complete in the same turn wait and take
 * their turn fairly.
 */
export class FairQueue {
  private readonly queues = new Map<string, NamespaceQueue>();
  /** Namespaces with waiting jobs, in the order of their next turn. */
  private readonly ring: string[] = [];
  private waiting = 0;
  private busyTurn = false;
  private scheduled = false;
  private readonly stats = { ran: 0, shed: 0, refused: 0, deferred: 0 };

  constructor(
    /** Jobs one namespace may have waiting; beyond it a new one is refused (503) at once. */
    readonly maxPerNamespace: number,
    /**
     * Bytes one namespace's waiting jobs may hold (a share of the budget); beyond it a new one is
     * refused, unless its queue is empty (one body at the limit always waits its turn).
     */
    readonly maxBytesPerNamespace = Number.POSITIVE_INFINITY,
  ) {}

  /** Jobs waiting, and what became of jobs so far. */
  counts(): { waiting: number; namespaces: number; ran: number; shed: number; refused: number; deferred: number } {
    return { waiting: this.waiting, namespaces: this.queues.size, ...this.stats };
  }

  /** Runs `job` now or in its namespace's turn; false if that namespace's queue is full (the caller refuses it). */
  submit(namespace: string, job: QueuedJob): boolean {
    if (this.waiting === 0 && !this.busyTurn) {
      this.busyTurn = true;
      this.schedule();
      this.stats.ran++;
      job.run();
      return true;
    }
    let queue = this.queues.get(namespace);
    if (queue === undefined) {
      queue = { jobs: [], bytes: 0 };
      this.queues.set(namespace, queue);
      this.ring.push(namespace);
    }
    if (queue.jobs.length >= this.maxPerNamespace || (queue.jobs.length > 0 && queue.bytes + job.bytes > this.maxBytesPerNamespace)) {
      if (queue.jobs.length === 0) this.forget(namespace);
      this.stats.refused++;
      return false;
    }
    queue.jobs.push(job);
    queue.bytes += job.bytes;
    this.waiting++;
    this.stats.deferred++;
    this.schedule();
    return true;
  }

  /**
   * Sheds waiting jobs, the newest of the namespace holding the most waiting bytes first, until
   * `bytes` more would fit in `budget`; whether they do.
   */
  makeRoom(budget: ByteBudget, bytes: number): boolean {
    while (budget.used + bytes > budget.capacity && this.waiting > 0) {
      let heaviest: NamespaceQueue | undefined;
      let name = '';
      for (const [ns, q] of this.queues) {
        if (heaviest === undefined || q.bytes > heaviest.bytes) {
          heaviest = q;
          name = ns;
        }
      }
      const job = heaviest?.jobs.pop();
      if (heaviest === undefined || job === undefined) break;
      heaviest.bytes -= job.bytes;
      this.waiting--;
      if (heaviest.jobs.length === 0) this.forget(name);
      this.stats.shed++;
      // Its answer releases its bytes (the budget is released when a response closes).
      job.shed();
    }
    return budget.used + bytes <= budget.capacity;
  }

  private forget(namespace: string): void {
    this.queues.delete(namespace);
    const at = this.ring.indexOf(namespace);
    if (at >= 0) this.ring.splice(at, 1);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.turn);
  }

  /** One turn: the next namespace's oldest job, then the next turn if any is left. */
  private readonly turn = (): void => {
    this.scheduled = false;
    this.busyTurn = false;
    const namespace = this.ring.shift();
    if (namespace === undefined) return;
    const queue = this.queues.get(namespace) as NamespaceQueue;
    const job = queue.jobs.shift() as QueuedJob;
    queue.bytes -= job.bytes;
    this.waiting--;
    if (queue.jobs.length > 0) this.ring.push(namespace);
    else this.queues.delete(namespace);
    this.busyTurn = true;
    this.schedule();
    this.stats.ran++;
    job.run();
  };
}

/** A task for the pool: the request's bytes and what it answers with. */
export interface PoolTask {
  composition: string;
  hook: HookName;
  raw: Buffer;
  now: string;
  namespace: string | undefined;
  done(computed: Computed): void;
}

interface PoolWorker {
  worker: Worker;
  task: PoolTask | undefined;
}

/**
 * Worker threads that compute large requests of the built-in compositions off the event loop
 * (MODELHOOKS_COMPUTE_WORKERS), so that one namespace's 2 MB syncs or a 40,000-container parent
 * do not stop the loop that reads every other request and answers the probes. Tasks wait
 * round-robin by namespace, as in FairQueue; a worker that dies (its heap limit) is replaced and
 * its task answered as an error. Each worker has its own memos (a quarter of MODELHOOKS_MEMO_BYTES)
 * and heap (MAX_WORKER_HEAP_MB).
 */
export class ComputePool {
  private readonly workers: PoolWorker[] = [];
  private readonly queues = new Map<string, PoolTask[]>();
  private readonly ring: string[] = [];
  private nextId = 0;
  private closed = false;

  constructor(
    readonly size: number,
    private readonly data: { hooks: unknown; namespaceSelector: unknown; memoBytes: number },
  ) {
    for (let i = 0; i < size; i++) this.workers.push(this.spawn());
  }

  /** Runs `task` now on an idle worker, or in its namespace's turn. */
  run(namespace: string, task: PoolTask): void {
    const idle = this.workers.find((w) => w.task === undefined);
    if (idle !== undefined) return this.start(idle, task);
    let queue = this.queues.get(namespace);
    if (queue === undefined) {
      queue = [];
      this.queues.set(namespace, queue);
      this.ring.push(namespace);
    }
    queue.push(task);
  }

  close(): Promise<unknown> {
    this.closed = true;
    return Promise.all(this.workers.map((w) => w.worker.terminate()));
  }

  private spawn(): PoolWorker {
    // Built, the worker is plain JavaScript; from source (tsx, tests) it registers tsx first
    // (`--import tsx` in execArgv is not applied before a worker's first module on node 20).
    const source = import.meta.url.endsWith('.ts');
    const url = new URL(`../engine/compute-worker.${source ? 'ts' : 'js'}`, import.meta.url);
    const options = { workerData: this.data, resourceLimits: { maxOldGenerationSizeMb: MAX_WORKER_HEAP_MB } };
    const worker = source
      ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`, { ...options, eval: true })
      : new Worker(url, options);
    worker.unref();
    const slot: PoolWorker = { worker, task: undefined };
    worker.on('message', (m: { computed: Computed }) => {
      const task = slot.task;
      slot.task = undefined;
      this.next(slot);
      task?.done(m.computed);
    });
    worker.on('error', () => {});
    worker.on('exit', () => {
      const task = slot.task;
      slot.task = undefined;
      if (this.closed) return;
      const at = this.workers.indexOf(slot);
      const fresh = this.spawn();
      if (at >= 0) this.workers[at] = fresh;
      task?.done({ kind: 'error', error: new Error('the compute worker stopped (its heap limit?)'), parent: '' });
      this.next(fresh);
    });
    return slot;
  }

  private start(slot: PoolWorker, task: PoolTask): void {
    slot.task = task;
    // A copy the worker owns (the request's Buffer may share node's pool slab).
    const raw = new Uint8Array(task.raw.length);
    raw.set(task.raw);
    slot.worker.postMessage({ id: this.nextId++, composition: task.composition, hook: task.hook, raw, now: task.now, namespace: task.namespace }, [raw.buffer]);
  }

  private next(slot: PoolWorker): void {
    const namespace = this.ring.shift();
    if (namespace === undefined) return;
    const queue = this.queues.get(namespace) as PoolTask[];
    const task = queue.shift() as PoolTask;
    if (queue.length > 0) this.ring.push(namespace);
    else this.queues.delete(namespace);
    this.start(slot, task);
  }
}

/** The old generation of each compute worker, in MB: a 16 MiB body parsed takes about 80. */
export const MAX_WORKER_HEAP_MB = 160;
