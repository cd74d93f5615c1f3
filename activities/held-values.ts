// Values too large for workflow history stay in the worker; history carries a stand-in.
//
// An Object mirrors its target in status.atProvider.manifest, and a target can be a ConfigMap of
// a megabyte. observe's answer is recorded in history (a local activity's marker), so carrying
// the observed object there would add its whole size to history on every pass, and past
// Temporal's 2 MiB payload limit fail the workflow task with a raw ResourceExhausted. The
// workflow never looks inside atProvider: it only compares it with what status holds, and hands
// it to writeBack. A stand-in naming the value by its digest does both: equal digests, equal
// values; and writeBack, a local activity on the same worker, swaps the value back in.
import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';

/**
 * Values up to this size are carried as they are, so histories of EC2 kinds and small Objects
 * keep showing atProvider in the Temporal UI (and recorded histories replay unchanged).
 */
export const HOLD_ABOVE_BYTES = 16 * 1024;

/**
 * What history carries in place of a large value. Plain data; `sha256` of the value's canonical
 * JSON (sorted keys), so the same value read from status and from the provider stands in equal.
 */
export interface HeldValue {
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
   *   between observing and writing, so only the newest few matter; 64 MiB holds dozens of
   *   megabyte objects observed at once.
   */
  constructor(
    private readonly maxBytes = 64 * 1024 * 1024,
    private readonly holdAboveBytes = HOLD_ABOVE_BYTES,
  ) {}

  /** The value itself when small, else its stand-in, keeping the value for `take`. */
  hold<T>(value: T): T | HeldValue {
    if (value === undefined || value === null || typeof value !== 'object') return value;
    const json = stringify(value);
    if (json === undefined || json.length <= this.holdAboveBytes) return value;
    const sha256 = createHash('sha256').update(json).digest('hex');
    const bytes = Buffer.byteLength(json);
    this.remember(sha256, value, bytes);
    return { heldByWorker: { sha256, bytes } };
  }

  /**
   * The value a stand-in names, or the value itself when it is no stand-in. Undefined for a
   * stand-in this worker no longer holds (it restarted, or the workflow moved to another worker
   * between observe and writeBack): the caller then writes without it, and the next pass, which
   * observes again, writes it.
   */
  resolve(value: unknown): unknown {
    if (!isHeldValue(value)) return value;
    const entry = this.values.get(value.heldByWorker.sha256);
    if (!entry) return undefined;
    this.values.delete(value.heldByWorker.sha256);
    this.values.set(value.heldByWorker.sha256, entry);
    return entry.value;
  }

  get size(): number {
    return this.values.size;
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
