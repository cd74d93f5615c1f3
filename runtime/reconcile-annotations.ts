// Crossplane's per-object controls of reconciliation (crossplane/crossplane#7239): a token that
// asks for a pass now, and a poll interval of the object's own.
import { formatSeconds, parseGoDuration } from './go-duration';

/** Any new value asks for a pass now; the pass records it in status.lastHandledReconcileAt. */
export const RECONCILE_REQUESTED_AT = 'crossplane.io/reconcile-requested-at';
/** A Go duration ("10m", "1h30m") that replaces the kind's steady poll interval for this object. */
export const POLL_INTERVAL = 'crossplane.io/poll-interval';

/**
 * The shortest poll interval an object may ask for. Every poll of a settled resource costs a
 * workflow task, a timer and a provider call (an EC2 Describe against the account's rate limit),
 * and the watcher and sweeps already see changes at once: a faster poll buys nothing but load.
 */
export const MIN_POLL_INTERVAL_SECONDS = 10;

type PollIntervalAnnotation =
  | { seconds: number }
  /** The annotation cannot be honoured: why, and what the object polls at instead. */
  | { seconds?: number; problem: string };

/** What the object's poll-interval annotation asks for, or undefined when it has none. */
export function pollIntervalOf(annotations: Record<string, string> | undefined): PollIntervalAnnotation | undefined {
  const value = annotations?.[POLL_INTERVAL];
  if (value === undefined) return undefined;
  const parsed = parseGoDuration(value.trim());
  if ('error' in parsed) return { problem: `${POLL_INTERVAL} ${parsed.error}; the kind's default poll interval applies` };
  if (parsed.seconds < MIN_POLL_INTERVAL_SECONDS) {
    const minimum = formatSeconds(MIN_POLL_INTERVAL_SECONDS);
    return {
      seconds: MIN_POLL_INTERVAL_SECONDS,
      problem: `${POLL_INTERVAL} "${value}" is shorter than the minimum ${minimum}; polling every ${minimum}`,
    };
  }
  return { seconds: parsed.seconds };
}
