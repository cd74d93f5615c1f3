// Sends watch events to reconcile workflows as signal-with-start. Events for one resource are
// coalesced: while a signal for it is in flight, later events only replace the pending one, so
// a burst becomes at most two signals and the workflow's pass covers them all. Failed signals
// are retried with backoff; an event is never dropped because Temporal was briefly away.
//
// A watcher inside the worker's process starts the workflow of a resource it sees for the first
// time with Temporal's eager workflow start instead: the server hands the first workflow task
// back in its answer, to this process's worker, rather than through a task-queue poll, and the
// event travels as the workflow's input rather than as a signal (one history event fewer).
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { RECONCILE_WORKFLOW, resourceEventSignal, type ReconcileInput, type ResourceEvent } from '#contract/reconcile-workflow';
import { workflowIdFor, type ResourceRef } from '#core/managed-kind';
import { isPermanentSignalError } from './signal-errors';
import { ResourceKindKey, ResourceNameKey, ResourceNamespaceKey } from '#contract/search-attributes';

interface SignalRequest {
  ref: ResourceRef;
  event: ResourceEvent;
  /** When the watch event arrived (ms since epoch), for the latency metric. */
  receivedAt: number;
  /** The object is new to Chronoplane (no finalizer yet): its workflow most likely does not exist. */
  firstSight?: boolean;
}

interface SignalerOptions {
  taskQueue: string;
  onSent?: (request: SignalRequest, latencySeconds: number) => void;
  /** A first-sight workflow was started (eagerStart); `eagerly` when its first task came back in the answer. */
  onStarted?: (request: SignalRequest, eagerly: boolean) => void;
  /** `permanent`: the request will never succeed as written, so it was dropped, not retried. */
  onError?: (request: SignalRequest, error: unknown, permanent: boolean) => void;
  maxConcurrent?: number;
  /**
   * Start a first-sight resource's workflow eagerly. Only for a client on the worker's own
   * NativeConnection, which the SDK requires: the task comes back to that worker.
   */
  eagerStart?: boolean;
}

export class Signaler {
  private readonly inFlight = new Set<string>();
  private readonly pending = new Map<string, SignalRequest>();
  private readonly ready: string[] = [];
  private active = 0;

  constructor(
    private readonly client: Client,
    private readonly options: SignalerOptions,
  ) {}

  enqueue(request: SignalRequest): void {
    const id = workflowIdFor(request.ref);
    const queued = this.pending.get(id);
    // The newest event stands for all of them, but a wake-up must survive being coalesced:
    // the object's own echo would otherwise swallow it.
    const wake = request.event.wake || queued?.event.wake;
    this.pending.set(id, wake ? { ...request, event: { ...request.event, wake } } : request);
    if (!queued && !this.inFlight.has(id)) this.ready.push(id);
    this.pump();
  }

  /** Resolves once nothing is queued or in flight (for tests and orderly shutdown). */
  async drained(): Promise<void> {
    while (this.pending.size > 0 || this.inFlight.size > 0) await new Promise((r) => setTimeout(r, 20));
  }

  private pump(): void {
    const limit = this.options.maxConcurrent ?? 32;
    while (this.active < limit && this.ready.length > 0) {
      const id = this.ready.shift()!;
      const request = this.pending.get(id);
      if (!request) continue;
      this.pending.delete(id);
      this.inFlight.add(id);
      this.active += 1;
      void this.sendWithRetry(id, request).finally(() => {
        this.inFlight.delete(id);
        this.active -= 1;
        if (this.pending.has(id)) this.ready.push(id);
        this.pump();
      });
    }
  }

  private async sendWithRetry(id: string, request: SignalRequest): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.send(id, request);
        this.options.onSent?.(request, (Date.now() - request.receivedAt) / 1000);
        return;
      } catch (error) {
        const permanent = isPermanentSignalError(error);
        this.options.onError?.(request, error, permanent);
        // A newer event for the same resource supersedes this one; send that instead.
        if (permanent || this.pending.has(id)) return;
        await new Promise((r) => setTimeout(r, Math.min(250 * 2 ** attempt, 30_000)));
      }
    }
  }

  private async send(workflowId: string, request: SignalRequest): Promise<void> {
    const { ref, event, firstSight } = request;
    if (event.type === 'DELETED') {
      // The object is already gone from the API server: if its workflow has finished there is
      // nothing to tell, and starting a new one would only find the object missing.
      try {
        await this.client.workflow.getHandle(workflowId).signal(resourceEventSignal, event);
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
      }
      return;
    }
    const options = {
      workflowId,
      taskQueue: this.options.taskQueue,
      typedSearchAttributes: [
        { key: ResourceKindKey, value: ref.kind },
        { key: ResourceNamespaceKey, value: ref.namespace },
        { key: ResourceNameKey, value: ref.name },
      ],
      staticSummary: `reconcile ${ref.kind} ${ref.namespace}/${ref.name}`,
    };
    if (this.options.eagerStart && firstSight && event.type === 'ADDED') {
      try {
        const started = await this.client.workflow.start(RECONCILE_WORKFLOW, {
          ...options,
          args: [{ ref, event }],
          requestEagerStart: true,
        });
        this.options.onStarted?.(request, started.eagerlyStarted);
        return;
      } catch (error) {
        // Running after all (the object was applied again under the same name while its
        // predecessor's workflow was finishing): it hears the event as a signal, as always.
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
    }
    const input: ReconcileInput = { ref };
    await this.client.workflow.signalWithStart(RECONCILE_WORKFLOW, {
      ...options,
      args: [input],
      signal: resourceEventSignal,
      signalArgs: [event],
    });
  }
}
