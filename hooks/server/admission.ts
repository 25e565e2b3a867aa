/**
 * What a request may hold before it is answered, so that one namespace's flood costs that
 * namespace and never the others or the process (issue 32 items 2 and 4):
 *
 * - `ByteBudget`: the bytes of request bodies in flight (MODELHOOKS_INFLIGHT_BYTES), reserved
 *   from Content-Length before a byte is read (by the bytes read, for a chunked or compressed
 *   body) and released when the answer is written. A request that does not fit is answered 503
 *   with Retry-After at once: 64 slow POSTs announcing 16 MiB reached 1.1 GiB of RSS before.
 * - `FairQueue`: read requests, one at a time on the event loop (or handed to an idle worker),
 *   taken from one queue per namespace in start-time fair order, as the API server's Priority
 *   and Fairness does per flow: a namespace's flood waits in its own queue, and another
 *   namespace's request waits behind at most the one request a flooding namespace has in
 *   progress. A namespace's waiting requests may hold a quarter of the budget (server/app.ts):
 *   under 48 concurrent 2 MB syncs, the bodies held (and the collections they cost) were what
 *   slowed everyone. When the budget is short, the
 *   newest queued request of the namespace holding the most queued bytes is shed (503) to make
 *   room, so the flood, not its neighbours, is refused.
 *
 * - `ComputePool`: worker threads for large requests of the built-in compositions, so that their
 *   parse and compute do not hold the event loop (MODELHOOKS_COMPUTE_WORKERS). Node (libuv)
 *   accepts one connection per turn of the event loop, so a loop held by a flood's 30 ms
 *   computes left another namespace's new connection in the kernel's accept queue behind the
 *   flood's reconnections for seconds (strace of the tenant soak: one accept4 per turn, none
 *   returning EAGAIN); the pool keeps the turns short.
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
  /** Computed in the pool (ComputePool): it waits for an idle worker, and other namespaces' jobs pass it meanwhile. */
  pooled?: boolean;
  run(): void;
  /** Answers 503 (shed to make room); called instead of run. */
  shed(): void;
}

interface Waiting {
  job: QueuedJob;
  /** Its virtual start: the namespace's turn it takes (start-time fair queuing). */
  start: number;
  /** Arrival order, for jobs of the same start. */
  seq: number;
}

interface NamespaceQueue {
  jobs: Waiting[];
  /** Bytes its waiting jobs hold. */
  bytes: number;
  /** The virtual finish of its last job, waiting or run: where its next job starts, unless the clock is past it. */
  finish: number;
}

/** What FairQueue needs of the pool: whether a worker is idle now. */
export interface PoolLane {
  idle(): boolean;
}

/**
 * Namespaces take turns, one job at a time, each on its own turn of the event loop
 * (setImmediate), so that sockets are read and new requests queued between two jobs. The order
 * is start-time fair queuing (SFQ, what the API server's Priority and Fairness approximates):
 * a job starts at its namespace's last finish or at the virtual clock (the start of the job
 * last taken), whichever is later, and the waiting job that starts first goes next. A
 * namespace that had nothing waiting starts at the clock, before the second job of a
 * namespace that has many: a flood makes another namespace's request wait behind at most the
 * one job it has in progress. A job that arrives while nothing else is waiting runs at once (no
 * added latency for a lone request), but it marks the turn busy: requests that complete in the
 * same turn wait and take their turn fairly. A pooled job waits for an idle worker; jobs of
 * other namespaces pass it meanwhile (the pool calls `wake` when a worker is free).
 */
export class FairQueue {
  private readonly queues = new Map<string, NamespaceQueue>();
  /** Namespaces with nothing waiting whose last finish is still ahead of the clock: forgotten once the clock passes it. */
  private readonly ahead = new Map<string, number>();
  private clock = 0;
  private seq = 0;
  private waiting = 0;
  private busyTurn = false;
  private scheduled = false;
  private pool: PoolLane | undefined;
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

  /** The pool pooled jobs wait for; it calls `wake` when a worker becomes idle. */
  usePool(pool: PoolLane): void {
    this.pool = pool;
  }

  /** A worker became idle: a waiting pooled job may run. */
  wake(): void {
    if (this.waiting > 0) this.schedule();
  }

  /** Jobs waiting, and what became of jobs so far. */
  counts(): { waiting: number; namespaces: number; ran: number; shed: number; refused: number; deferred: number } {
    return { waiting: this.waiting, namespaces: this.queues.size, ...this.stats };
  }

  /** Runs `job` now or in its namespace's turn; false if that namespace's queue is full (the caller refuses it). */
  submit(namespace: string, job: QueuedJob): boolean {
    const queue = this.queues.get(namespace);
    const start = Math.max(this.clock, queue?.finish ?? this.ahead.get(namespace) ?? 0);
    if (this.waiting === 0 && !this.busyTurn && this.runnable(job)) {
      this.advance(start);
      this.ahead.set(namespace, start + 1);
      this.busyTurn = true;
      this.schedule();
      this.stats.ran++;
      job.run();
      return true;
    }
    if (queue !== undefined && (queue.jobs.length >= this.maxPerNamespace || queue.bytes + job.bytes > this.maxBytesPerNamespace)) {
      this.stats.refused++;
      return false;
    }
    let q = queue;
    if (q === undefined) {
      q = { jobs: [], bytes: 0, finish: start };
      this.queues.set(namespace, q);
      this.ahead.delete(namespace);
    }
    q.jobs.push({ job, start, seq: this.seq++ });
    q.finish = start + 1;
    q.bytes += job.bytes;
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
      const shed = heaviest?.jobs.pop();
      if (heaviest === undefined || shed === undefined) break;
      heaviest.bytes -= shed.job.bytes;
      // Its turn is given back: the namespace's next job starts where the shed one did.
      heaviest.finish = shed.start;
      this.waiting--;
      if (heaviest.jobs.length === 0) this.idle(name, heaviest);
      this.stats.shed++;
      // Its answer releases its bytes (the budget is released when a response closes).
      shed.job.shed();
    }
    return budget.used + bytes <= budget.capacity;
  }

  private runnable(job: QueuedJob): boolean {
    return !job.pooled || this.pool === undefined || this.pool.idle();
  }

  /** A job starting at `start` is taken: the clock moves to its start, and the namespaces it passed are forgotten. */
  private advance(start: number): void {
    if (start <= this.clock) return;
    this.clock = start;
    for (const [ns, finish] of this.ahead) if (finish <= start) this.ahead.delete(ns);
  }

  /** A namespace with nothing left waiting: remembered while its last finish is ahead of the clock. */
  private idle(namespace: string, queue: NamespaceQueue): void {
    this.queues.delete(namespace);
    if (queue.finish > this.clock) this.ahead.set(namespace, queue.finish);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.turn);
  }

  /** One turn: the waiting job that starts first among those that can run, then the next turn if any is left. */
  private readonly turn = (): void => {
    this.scheduled = false;
    this.busyTurn = false;
    let next: Waiting | undefined;
    let name = '';
    for (const [ns, q] of this.queues) {
      const head = q.jobs[0] as Waiting;
      if ((next === undefined || head.start < next.start || (head.start === next.start && head.seq < next.seq)) && this.runnable(head.job)) {
        next = head;
        name = ns;
      }
    }
    // Nothing can run: the pooled jobs wait for `wake`.
    if (next === undefined) return;
    const queue = this.queues.get(name) as NamespaceQueue;
    queue.jobs.shift();
    queue.bytes -= next.job.bytes;
    this.waiting--;
    this.advance(next.start);
    if (queue.jobs.length === 0) this.idle(name, queue);
    // Busy until the next turn: a job that completes meanwhile waits for it.
    this.busyTurn = true;
    this.schedule();
    this.stats.ran++;
    next.job.run();
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
  /** The task it computes, then the one posted behind it (at most TASKS_PER_WORKER). */
  tasks: PoolTask[];
}

/**
 * Tasks a worker holds: the one it computes and the next, posted already, so that it never waits
 * for the event loop's next turn between two (a busy loop left it idle for most of a flood).
 */
const TASKS_PER_WORKER = 2;

/**
 * Worker threads that compute large requests of the built-in compositions off the event loop
 * (MODELHOOKS_COMPUTE_WORKERS), so that one namespace's 2 MB syncs or a 40,000-container parent
 * do not stop the loop that accepts connections, reads every other request and answers the
 * probes. It has no queue of its own: requests wait in FairQueue, which gives one to an idle
 * worker in its namespace's turn (`wake` when one becomes idle). A worker that dies (its heap
 * limit) is replaced and its task answered as an error. Each worker has its own memos (a quarter
 * of MODELHOOKS_MEMO_BYTES) and heap (MAX_WORKER_HEAP_MB).
 */
export class ComputePool implements PoolLane {
  private readonly workers: PoolWorker[] = [];
  private nextId = 0;
  private closed = false;
  /** Called when a worker becomes idle (FairQueue.wake). */
  onIdle: () => void = () => {};

  constructor(
    readonly size: number,
    private readonly data: { hooks: unknown; namespaceSelector: unknown; memoBytes: number },
  ) {}

  /** Whether a worker can take a task now, or one more may be started (they start with the first task that needs them). */
  idle(): boolean {
    return this.workers.length < this.size || this.workers.some((w) => w.tasks.length < TASKS_PER_WORKER);
  }

  /** Runs `task` on the least busy worker that can take it (started if need be); false (nothing done) when none can. */
  run(task: PoolTask): boolean {
    let idle =
      this.workers.find((w) => w.tasks.length === 0) ??
      (this.workers.length < this.size ? undefined : this.workers.find((w) => w.tasks.length < TASKS_PER_WORKER));
    if (idle === undefined && this.workers.length < this.size) {
      idle = this.spawn();
      this.workers.push(idle);
    }
    if (idle === undefined) return false;
    this.start(idle, task);
    return true;
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
    const slot: PoolWorker = { worker, tasks: [] };
    worker.on('message', (m: { computed: Computed }) => {
      // Answers come in the order the tasks were posted.
      slot.tasks.shift()?.done(m.computed);
      this.onIdle();
    });
    worker.on('error', () => {});
    worker.on('exit', () => {
      const tasks = slot.tasks.splice(0);
      if (this.closed) return;
      const at = this.workers.indexOf(slot);
      if (at >= 0) this.workers[at] = this.spawn();
      for (const task of tasks) task.done({ kind: 'error', error: new Error('the compute worker stopped (its heap limit?)'), parent: '' });
      this.onIdle();
    });
    return slot;
  }

  private start(slot: PoolWorker, task: PoolTask): void {
    slot.tasks.push(task);
    // A copy the worker owns (the request's Buffer may share node's pool slab).
    const raw = new Uint8Array(task.raw.length);
    raw.set(task.raw);
    slot.worker.postMessage({ id: this.nextId++, composition: task.composition, hook: task.hook, raw, now: task.now, namespace: task.namespace }, [raw.buffer]);
  }
}

/** The old generation of each compute worker, in MB: a 16 MiB body parsed takes about 80. */
export const MAX_WORKER_HEAP_MB = 160;
