// What a sample of reconcile workflows has written to Temporal: history events, their size as
// the server counts it (historySizeBytes), the payload bytes inside them, and the passes run.
// Read twice, the difference per pass is what a settled resource costs Temporal's store.
import type { Client } from '@temporalio/client';
import { workflowIdFor, type ResourceRef } from '#core/managed-kind';
import { stateQuery } from '#contract/reconcile-workflow';

interface HistoryCost {
  workflows: number;
  events: number;
  /** Serialized size of the current runs' histories, as the server reports it. */
  historyBytes: number;
  /** Bytes of payloads (inputs, results, markers, signals, memo…) in those events. */
  payloadBytes: number;
  passes: number;
}

export async function historyCost(client: Client, refs: readonly ResourceRef[]): Promise<HistoryCost> {
  const total: HistoryCost = { workflows: refs.length, events: 0, historyBytes: 0, payloadBytes: 0, passes: 0 };
  for (const ref of refs) {
    const handle = client.workflow.getHandle(workflowIdFor(ref));
    const [description, state, history] = await Promise.all([handle.describe(), handle.query(stateQuery), handle.fetchHistory()]);
    total.events += description.historyLength;
    total.historyBytes += description.historySize ?? NaN;
    total.payloadBytes += payloadBytesIn(history.events ?? []);
    total.passes += state.passes;
  }
  return total;
}

/** Per workflow, from its start until now. */
export function perWorkflow(cost: HistoryCost): { events: number; historyBytes: number; payloadBytes: number; passes: number } {
  const n = Math.max(1, cost.workflows);
  return { events: cost.events / n, historyBytes: cost.historyBytes / n, payloadBytes: cost.payloadBytes / n, passes: cost.passes / n };
}

/** Per pass run between two readings of the same sample (a continue-as-new in between would skew it). */
export function perPassBetween(
  before: HistoryCost,
  after: HistoryCost,
): { events: number; historyBytes: number; payloadBytes: number; passes: number } {
  const passes = after.passes - before.passes;
  const per = (a: number, b: number) => (passes > 0 ? (b - a) / passes : NaN);
  return {
    events: per(before.events, after.events),
    historyBytes: per(before.historyBytes, after.historyBytes),
    payloadBytes: per(before.payloadBytes, after.payloadBytes),
    passes,
  };
}

/** Sums every Payload (an object with `data` bytes and a `metadata` map) found in the events. */
function payloadBytesIn(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + payloadBytesIn(item), 0);
  const record = value as Record<string, unknown>;
  if (record.data instanceof Uint8Array && 'metadata' in record) {
    const metadata = Object.values((record.metadata ?? {}) as Record<string, Uint8Array>);
    return record.data.length + metadata.reduce((sum, bytes) => sum + (bytes?.length ?? 0), 0);
  }
  return Object.values(record).reduce<number>((sum, field) => sum + payloadBytesIn(field), 0);
}
