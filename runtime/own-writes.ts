// The resourceVersions this worker's activities wrote to managed objects (a finalizer, the
// external name, a status), for a watcher embedded in the same process (watcher/setup.ts).
// The watch event of such a write shows the object exactly as the activity left it, and the
// activity already told the workflow, which ignores the signal (workflows/reconcile.ts,
// ownResourceVersions). Sending it anyway costs a Temporal signal, a workflow task and four
// history events per write: three of the four signals a new VPC used to cost. A standalone
// watcher cannot know whose write an event is, and signals as before.
//
// The echo often arrives before the write's own answer (the watch and the write are two
// connections, and under load either can be read first): a write under way is known by its
// object, and the watcher holds that object's events until the write has answered.

/** Long enough for the watch event to arrive on a loaded API server; bounded so nothing grows. */
const DEFAULT_TTL_MS = 60_000;
/**
 * The longest the watcher holds an object's events for a write under way. A write is bounded
 * by its client's timeout; this only keeps a write that never answers from silencing the object.
 */
const DEFAULT_MAX_HOLD_MS = 30_000;

interface WritesUnderWay {
  count: number;
  settled: Promise<void>;
  settle: () => void;
}

export class OwnWrites {
  // By `uid/resourceVersion`; insertion order is expiry order (one TTL for all).
  private readonly written = new Map<string, number>();

  // By uid.
  private readonly underWay = new Map<string, WritesUnderWay>();

  constructor(
    private readonly ttlMs = DEFAULT_TTL_MS,
    private readonly now: () => number = Date.now,
    private readonly maxHoldMs = DEFAULT_MAX_HOLD_MS,
  ) {}

  /**
   * Marks a write to the object `uid` as under way. Call what it returns once, when the write
   * has answered, with the resourceVersion it produced (undefined when it wrote nothing).
   */
  begin(uid: string): (resourceVersion: string | undefined) => void {
    let writes = this.underWay.get(uid);
    if (!writes) {
      let settle!: () => void;
      const settled = new Promise<void>((resolve) => (settle = resolve));
      writes = { count: 0, settled, settle };
      this.underWay.set(uid, writes);
    }
    const mine = writes;
    mine.count++;
    let answered = false;
    return (resourceVersion) => {
      if (answered) return;
      answered = true;
      this.record(uid, resourceVersion);
      if (--mine.count > 0) return;
      if (this.underWay.get(uid) === mine) this.underWay.delete(uid);
      mine.settle();
    };
  }

  /** While a write to the object `uid` is under way, a promise that settles once none is (or after the longest hold). */
  settled(uid: string): Promise<void> | undefined {
    const writes = this.underWay.get(uid);
    if (!writes) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const longest = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.maxHoldMs);
      timer.unref();
    });
    return Promise.race([writes.settled, longest]).finally(() => clearTimeout(timer));
  }

  record(uid: string, resourceVersion: string | undefined): void {
    if (!resourceVersion) return;
    this.prune();
    this.written.set(`${uid}/${resourceVersion}`, this.now() + this.ttlMs);
  }

  /** Whether this object's event at this resourceVersion is one of our writes; each is answered once. */
  take(uid: string, resourceVersion: string | undefined): boolean {
    if (!resourceVersion) return false;
    const key = `${uid}/${resourceVersion}`;
    const expiresAt = this.written.get(key);
    if (expiresAt === undefined) return false;
    this.written.delete(key);
    return expiresAt > this.now();
  }

  get size(): number {
    return this.written.size;
  }

  private prune(): void {
    const now = this.now();
    for (const [key, expiresAt] of this.written) {
      if (expiresAt > now) return;
      this.written.delete(key);
    }
  }
}
