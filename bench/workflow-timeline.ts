// When things happened inside one resource's reconcile workflow, read from its Temporal
// history: when its createExternal activity was scheduled, and what started the pass that
// scheduled it (a signal from the watcher, or the workflow's own timer). Event times are the
// Temporal server's clock, the same machine's clock as the benchmark's watch timestamps.
import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { decodeHistory } from '#runtime/history-payloads';
import { refFor, workflowIdFor, type KindApi } from '#core/managed-kind';
import { resourceEventSignal, type ResourceEvent } from '#contract/reconcile-workflow';

/** What starts a pass: a wake-up (something this object depends on changed), a change of the object itself, or a timer (poll or backoff). */
export type PassTrigger = 'wake signal' | 'own change' | 'timer';

export interface ReconcileTimeline {
  /** The first createExternal activity's ActivityTaskScheduled event (ms since the epoch). */
  createScheduledAt?: number;
  /**
   * The last signal or fired timer recorded before that event, in history order: what started
   * the pass that created. (Signals that arrive while a workflow task runs are recorded after
   * it, so history order, not event time, tells which came first.)
   */
  createTrigger?: { at: number; by: PassTrigger };
  /** How many createExternal activities were scheduled (retries of one activity count once). */
  createsScheduled: number;
}

export async function reconcileTimeline(client: Client, api: KindApi, namespace: string, name: string): Promise<ReconcileTimeline> {
  // The latest run only: continue-as-new comes after about 2,000 events, far beyond a create.
  const fetched = await client.workflow.getHandle(workflowIdFor(refFor(api, namespace, name))).fetchHistory();
  // Payloads are encrypted (runtime/payload-codec.ts); the signals' contents are read decrypted.
  const [codec] = client.options.loadedDataConverter.payloadCodecs;
  const history = codec ? await decodeHistory(fetched, codec) : fetched;
  const timeline: ReconcileTimeline = { createsScheduled: 0 };
  let lastTrigger: ReconcileTimeline['createTrigger'];
  for (const event of history.events ?? []) {
    const at = millisOf(event.eventTime);
    const signal = event.workflowExecutionSignaledEventAttributes;
    if (signal?.signalName === resourceEventSignal.name) {
      const payload = signal.input?.payloads?.[0];
      const resourceEvent = payload ? defaultPayloadConverter.fromPayload<ResourceEvent>(payload) : undefined;
      lastTrigger = { at, by: resourceEvent?.wake ? 'wake signal' : 'own change' };
    }
    if (event.timerFiredEventAttributes) lastTrigger = { at, by: 'timer' };
    if (event.activityTaskScheduledEventAttributes?.activityType?.name === 'createExternal') {
      timeline.createsScheduled += 1;
      if (timeline.createScheduledAt === undefined) {
        timeline.createScheduledAt = at;
        timeline.createTrigger = lastTrigger;
      }
    }
  }
  return timeline;
}

function millisOf(time: { seconds?: { toNumber(): number } | number | null; nanos?: number | null } | null | undefined): number {
  if (!time) return NaN;
  const seconds = typeof time.seconds === 'number' ? time.seconds : (time.seconds?.toNumber() ?? 0);
  return seconds * 1000 + (time.nanos ?? 0) / 1e6;
}
