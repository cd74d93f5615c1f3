// The resourceVersions this worker's activities wrote to managed objects (a finalizer, the
// external name, a status), for a watcher embedded in the same process (watcher/setup.ts).
// The watch event of such a write shows the object exactly as the activity left it, and the
// activity already told the workflow, which ignores the signal (workflows/reconcile.ts,
// ownResourceVersions). Sending it anyway costs a Temporal signal, a workflow task and four
// history events per write: three of the four signals a new VPC used to cost. A standalone
// watcher cannot know whose write an event is, and signals as before.

/** Long enough for the watch event to arrive on a loaded API server; bounded so nothing grows. */
const DEFAULT_TTL_MS = 60_000;

export class OwnWrites {
  // By `uid/resourceVersion`; insertion order is expiry order (one TTL for all).
  private readonly written = new Map<string, number>();

  constructor(
    private readonly ttlMs = DEFAULT_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

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
