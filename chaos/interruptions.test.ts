import { describe, expect, it } from 'vitest';
import { addInterruptions, countInterruptions } from './interruptions';

const scheduled = (eventId: number, type: string) => ({ eventId, activityTaskScheduledEventAttributes: { activityType: { name: type } } });
const started = (scheduledEventId: number, attempt: number, timedOut: boolean) => ({
  activityTaskStartedEventAttributes: {
    scheduledEventId,
    attempt,
    lastFailure: timedOut ? { timeoutFailureInfo: { timeoutType: 3 } } : { applicationFailureInfo: { type: 'Throttling' } },
  },
});

describe('countInterruptions', () => {
  it('counts calls run again after a timeout by type, and timed out workflow tasks; not first attempts or other retries', () => {
    const history = [
      scheduled(5, 'createExternal'),
      started(5, 2, true),
      scheduled(9, 'deleteExternal'),
      started(9, 1, false),
      scheduled(12, 'deleteExternal'),
      started(12, 3, false),
      { workflowTaskTimedOutEventAttributes: {} },
    ];
    const other = [scheduled(5, 'deleteExternal'), started(5, 2, true)];
    expect(countInterruptions([history, other] as never)).toEqual({
      retriedAfterTimeout: { createExternal: 1, deleteExternal: 1 },
      workflowTasksTimedOut: 1,
    });
  });

  it('adds up', () => {
    expect(
      addInterruptions(
        { retriedAfterTimeout: { createExternal: 1 }, workflowTasksTimedOut: 2 },
        { retriedAfterTimeout: { createExternal: 2, deleteExternal: 1 }, workflowTasksTimedOut: 1 },
      ),
    ).toEqual({ retriedAfterTimeout: { createExternal: 3, deleteExternal: 1 }, workflowTasksTimedOut: 3 });
  });
});
