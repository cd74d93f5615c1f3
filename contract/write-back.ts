// What a pass asks its write activity to record on the object, and what that write answers.
// Both sides import it: the workflow plans the write (workflows/status.ts), the activity makes it
// (activities/object-writes.ts). Plain data only: it is recorded in workflow history.
import type { Condition } from '#core/conditions';

/** A Kubernetes Event about the managed resource, as `kubectl describe` shows it. */
export interface EventNote {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** The event a delete call's success records, whichever side records it (the pass, or the call that releases). */
export const DELETED_EXTERNAL_RESOURCE = 'DeletedExternalResource';

export interface WriteBack {
  lateInitialized?: Record<string, unknown>;
  /**
   * Status, written whole. `atProvider` is the observed state's stand-in (see HeldValues): the
   * write activity swaps the value back in, so history never carries it.
   */
  status?: { conditions: Condition[]; atProvider?: unknown; observedGeneration: number; lastHandledReconcileAt?: string };
  events: EventNote[];
}

/**
 * An observed state status could not hold (see writeBack): the object with it would pass the API
 * server's size limit. Status then goes without it, and Synced says so with `note`.
 */
export interface MirrorLeftOut {
  /** What was left out: the stand-in of its value. */
  atProvider: unknown;
  note: string;
}

export interface WriteBackResult {
  /** The versions the write produced: their watch events are the workflow's own echo. */
  resourceVersions: string[];
  leftOut?: MirrorLeftOut;
  /**
   * The observed state was no longer at hand (the workflow moved to another worker between its
   * observe and this write): status kept the one it had, and the next pass should look again.
   */
  mirrorMissed?: boolean;
}
