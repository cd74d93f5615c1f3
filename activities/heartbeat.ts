// Heartbeats for every activity that asks for them. The server only notices a dead worker
// through a timeout: without heartbeats that is the start-to-close timeout (30 s for provider
// calls), so one crashed worker stalls every create, update and delete it had in flight for
// that long. With a heartbeat timeout the retry comes as soon as the heartbeats stop. The
// activities themselves stay unaware: the worker wraps them all once, where it registers them.
import { Context } from '@temporalio/activity';

/** Often enough that a few lost or throttled heartbeats still fit in a 10 s heartbeat timeout. */
const HEARTBEAT_INTERVAL_MS = 2_000;

type ActivityFunction = (...args: never[]) => Promise<unknown>;

/**
 * The same activities, each sending a heartbeat every `intervalMs` while it runs. Only
 * activities scheduled with a heartbeat timeout heartbeat: local activities cannot (the SDK
 * ignores them), and without a timeout a heartbeat is a call to the server that nobody reads.
 */
export function withHeartbeats<T extends Record<string, ActivityFunction>>(
  activities: T,
  { intervalMs = HEARTBEAT_INTERVAL_MS }: { intervalMs?: number } = {},
): T {
  return Object.fromEntries(Object.entries(activities).map(([name, activity]) => [name, heartbeating(activity, intervalMs)])) as T;
}

function heartbeating<F extends ActivityFunction>(activity: F, intervalMs: number): F {
  return (async (...args: Parameters<F>) => {
    const context = Context.current();
    if (context.info.isLocal || !context.info.heartbeatTimeoutMs) return activity(...args);
    // No heartbeat at the start: the server counts the timeout from the attempt's start, and an
    // activity that ends within one interval (most do) costs no extra call.
    const timer = setInterval(() => context.heartbeat(), intervalMs);
    try {
      return await activity(...args);
    } finally {
      clearInterval(timer);
    }
  }) as F;
}
