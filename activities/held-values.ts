// Observed states stay in the worker; history carries a stand-in naming each by its digest.
//
// observe's answer is recorded in history (a local activity's marker), and the workflow never
// looks inside atProvider: it only compares it with what status holds, and hands it to writeBack.
// A stand-in does both: equal digests, equal values; and writeBack, a local activity on the same
// worker, swaps the value back in. So a pass costs the same history whatever the object's size:
// an Object mirroring a megabyte ConfigMap would otherwise add its whole size to history on every
// pass, and past Temporal's 2 MiB payload limit fail the workflow task with ResourceExhausted.
import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';

/**
 * What history carries in place of an observed state. Plain data; `sha256` of the value's canonical
 * JSON (sorted keys), so the same value read from status and from the provider stands in equal.
 */
interface HeldValue {
  heldByWorker: { sha256: string; bytes: number };
}

export function isHeldValue(value: unknown): value is HeldValue {
  return typeof value === 'object' && value !== null && 'heldByWorker' in value;
}

export class HeldValues {
  // Map order is least recently used first: a hit moves its entry to the end.
  private readonly values = new Map<string, { value: unknown; bytes: number }>();
  private heldBytes = 0;

  /**
   * @param maxBytes what the worker keeps at most; the oldest go first. A pass takes moments
   *   between observing and writing, and only a state that differs from status is kept, so only
   *   the newest few matter; 64 MiB holds dozens of megabyte objects observed at once.
   */
  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  /** The stand-in of a value, without keeping it: for a value the worker can read again (status). */
  standIn<T>(value: T): T | HeldValue {
    return this.digest(value)?.standIn ?? value;
  }

  /** The value's stand-in, keeping the value until `resolve` needs it. */
  hold<T>(value: T): T | HeldValue {
    const digest = this.digest(value);
    if (!digest) return value;
    this.remember(digest.standIn.heldByWorker.sha256, value, digest.standIn.heldByWorker.bytes);
    return digest.standIn;
  }

  /**
   * The value a stand-in names, or the value itself when it is no stand-in (histories from before
   * stand-ins hold values). Not found for a stand-in this worker does not hold: it restarted,
   * the workflow moved to another worker between observe and writeBack, or the value was only
   * named (`standIn`).
   */
  resolve(value: unknown): { found: true; value: unknown } | { found: false } {
    if (!isHeldValue(value)) return { found: true, value };
    const entry = this.values.get(value.heldByWorker.sha256);
    if (!entry) return { found: false };
    this.values.delete(value.heldByWorker.sha256);
    this.values.set(value.heldByWorker.sha256, entry);
    return { found: true, value: entry.value };
  }

  /** Whether `standIn` names `value`. */
  standsFor(standIn: unknown, value: unknown): boolean {
    if (!isHeldValue(standIn)) return false;
    return this.digest(value)?.standIn.heldByWorker.sha256 === standIn.heldByWorker.sha256;
  }

  get size(): number {
    return this.values.size;
  }

  private digest(value: unknown): { standIn: HeldValue } | undefined {
    if (value === undefined || value === null || typeof value !== 'object') return undefined;
    const json = stringify(value);
    if (json === undefined) return undefined;
    const sha256 = createHash('sha256').update(json).digest('hex');
    return { standIn: { heldByWorker: { sha256, bytes: Buffer.byteLength(json) } } };
  }

  private remember(sha256: string, value: unknown, bytes: number): void {
    const known = this.values.get(sha256);
    if (known) this.values.delete(sha256);
    else this.heldBytes += bytes;
    this.values.set(sha256, { value, bytes });
    for (const [oldest, entry] of this.values) {
      if (this.heldBytes <= this.maxBytes || oldest === sha256) break;
      this.values.delete(oldest);
      this.heldBytes -= entry.bytes;
    }
  }
}
