/**
 * A bounded map of recent answers. Hooks are pure, so an identical request (a resync with
 * nothing changed) has an identical answer; keeping the newest few hundred makes resyncs
 * nearly free. It is bounded twice: by entries and by bytes, so that a few huge answers
 * (a parent with megabytes of observed children) cannot hold the heap. Map iteration order
 * is insertion order, which makes eviction LRU.
 */
export class AnswerCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private held = 0;
  /** An entry larger than this is not cached: one answer never flushes the whole cache. */
  readonly maxEntryBytes: number;

  constructor(
    private readonly capacity: number,
    private readonly capacityBytes = Number.POSITIVE_INFINITY,
    private readonly sizeOf: (key: string, value: V) => number = () => 0,
  ) {
    this.maxEntryBytes = capacityBytes / 8;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry?.value;
  }

  /** Stores the value, evicting the least recently used; returns whether it was kept. */
  set(key: string, value: V): boolean {
    this.delete(key);
    const bytes = this.sizeOf(key, value);
    if (this.capacity <= 0 || bytes > this.maxEntryBytes) return false;
    this.entries.set(key, { value, bytes });
    this.held += bytes;
    while (this.entries.size > this.capacity || this.held > this.capacityBytes) {
      this.delete(this.entries.keys().next().value as string);
    }
    return true;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.held -= entry.bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes held, as counted by `sizeOf`. */
  get bytes(): number {
    return this.held;
  }
}
