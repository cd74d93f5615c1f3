// What the kills of a round interrupted, read from its workflows' histories: provider calls
// (createExternal, deleteExternal, …) whose attempt was lost with the worker and run again after
// a timeout, and workflow tasks that timed out. It says whether random kills hit the moments
// that matter, not just an idle worker. Only each workflow's latest run is read.
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

export interface Interruptions {
  /** Attempts run again because the one before timed out, by activity type. */
  retriedAfterTimeout: Record<string, number>;
  workflowTasksTimedOut: number;
}

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

export async function interruptionsIn(client: Client, workflowIds: readonly string[]): Promise<Interruptions> {
  const histories = await Promise.all(
    workflowIds.map((id) =>
      client.workflow
        .getHandle(id)
        .fetchHistory()
        .then((history) => history.events ?? [])
        .catch(() => [] as HistoryEvent[]),
    ),
  );
  return countInterruptions(histories);
}

export const noInterruptions = (): Interruptions => ({ retriedAfterTimeout: {}, workflowTasksTimedOut: 0 });

/** Pure: counts over the events of several histories. */
export function countInterruptions(histories: readonly (readonly HistoryEvent[])[]): Interruptions {
  const result = noInterruptions();
  for (const events of histories) {
    const typeOf = new Map<string, string>();
    for (const event of events) {
      const scheduled = event.activityTaskScheduledEventAttributes;
      if (scheduled) typeOf.set(String(event.eventId), scheduled.activityType?.name ?? '?');
      const started = event.activityTaskStartedEventAttributes;
      if (started && (started.attempt ?? 1) > 1 && started.lastFailure?.timeoutFailureInfo) {
        const type = typeOf.get(String(started.scheduledEventId)) ?? '?';
        result.retriedAfterTimeout[type] = (result.retriedAfterTimeout[type] ?? 0) + 1;
      }
      if (event.workflowTaskTimedOutEventAttributes) result.workflowTasksTimedOut += 1;
    }
  }
  return result;
}

export function addInterruptions(a: Interruptions, b: Interruptions): Interruptions {
  const retried = { ...a.retriedAfterTimeout };
  for (const [type, n] of Object.entries(b.retriedAfterTimeout)) retried[type] = (retried[type] ?? 0) + n;
  return { retriedAfterTimeout: retried, workflowTasksTimedOut: a.workflowTasksTimedOut + b.workflowTasksTimedOut };
}
