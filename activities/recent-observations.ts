// What a create call's own answer said about the external resource, kept for the pass that
// follows it at once (workflows/reconcile.ts, observe-after-external-change). That pass would
// otherwise ask the provider again for what it was told a moment ago: for a VPC, three of the
// five EC2 calls a create used to cost. Each answer serves one pass, only for the same object,
// generation and external name it was given for, and only for a short while; anything else
// observes as before. A pass that runs on another worker simply finds nothing and observes.
// (A synchronous delete's answer is carried by the workflow instead, as ExternalDeletion: on
// another worker, "nothing found" would mean deleting again.)
import type { ExternalObservation } from '../runtime/external-client';

/**
 * Long enough for the next pass on a loaded worker (1,000 creates at once kept workflow tasks
 * waiting 10 s on average here, and 30 s let about one in ten answers expire), and shorter
 * than a sweep interval, so drift in between is still the sweep's to find.
 */
const DEFAULT_TTL_MS = 60_000;

/** Which state of the object an answer describes. */
export interface ObservedFor {
  uid: string;
  generation: number;
  externalName?: string;
  deleting: boolean;
}

interface Entry {
  key: string;
  observation: ExternalObservation<unknown, unknown>;
  expiresAt: number;
}

export class RecentObservations {
  // Insertion order is expiry order (one TTL for all), so pruning stops at the first live entry.
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs = DEFAULT_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  remember(at: ObservedFor, observation: ExternalObservation<unknown, unknown>): void {
    this.prune();
    const { connectionDetails: _never, ...kept } = observation; // never held outside their Secret
    this.entries.delete(at.uid);
    this.entries.set(at.uid, { key: keyOf(at), observation: kept, expiresAt: this.now() + this.ttlMs });
  }

  /** The answer recorded for exactly this state of the object, once; undefined otherwise. */
  take(at: ObservedFor): ExternalObservation<unknown, unknown> | undefined {
    const entry = this.entries.get(at.uid);
    if (!entry) return undefined;
    this.entries.delete(at.uid);
    return entry.key === keyOf(at) && entry.expiresAt > this.now() ? entry.observation : undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  private prune(): void {
    const now = this.now();
    for (const [uid, entry] of this.entries) {
      if (entry.expiresAt > now) return;
      this.entries.delete(uid);
    }
  }
}

const keyOf = (at: ObservedFor) => JSON.stringify([at.uid, at.generation, at.externalName ?? null, at.deleting]);
