// The watcher: informers in, signals out. It never reconciles anything itself.
import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { KindApi } from '../runtime/managed-kind';
import type { ReferenceDeclaration } from '../runtime/references/declaration';
import { refFor } from '../runtime/managed-kind';
import { SignalFilter } from './signal-filter';
import { watchKind, type KindWatch, type WatchHandler } from '../runtime/informers';
import { Signaler } from './signaler';
import type { WatcherMetrics } from './metrics';
import type { ResourceEvent } from '../workflows/api';
import { ReferenceIndex } from './reference-index';
import type { OwnWrites } from '../activities/own-writes';

export interface WatcherOptions {
  kubeConfig: KubeConfig;
  client: Client;
  taskQueue: string;
  kinds: readonly KindApi[];
  /** The typed references each kind declares, for the wake-up index. */
  referencesOf?: (api: KindApi) => readonly ReferenceDeclaration[] | undefined;
  /** Watch one namespace only; all namespaces when undefined. */
  namespace?: string;
  logger: Logger;
  metrics?: WatcherMetrics;
  /**
   * The writes of activities in this process (when embedded in the worker): their events
   * still wake dependents, but their own workflow already knows them and hears nothing.
   */
  ownWrites?: Pick<OwnWrites, 'take'>;
}

export class Watcher {
  private readonly signalFilter = new SignalFilter();
  private readonly signaler: Signaler;
  private readonly references: ReferenceIndex;
  private informers: KindWatch[] = [];

  /**
   * For informers someone else runs (the worker's object cache, when the watcher is embedded
   * there): hand them this instead of calling start().
   */
  readonly handleEvent: WatchHandler = (api, obj, type) => this.onEvent(api, obj, type);

  constructor(private readonly options: WatcherOptions) {
    const { metrics, logger } = options;
    this.references = new ReferenceIndex(options.referencesOf ?? (() => undefined));
    this.signaler = new Signaler(options.client, {
      taskQueue: options.taskQueue,
      onSent: (request, seconds) => {
        metrics?.eventToSignal.observe(seconds);
        metrics?.signals.inc({ kind: request.ref.kind, event: request.event.type });
      },
      onError: (request, error, permanent) => {
        metrics?.signalErrors.inc({ kind: request.ref.kind, permanent: String(permanent) });
        const resource = `${request.ref.namespace}/${request.ref.name}`;
        if (permanent) logger.error({ resource, err: String(error) }, 'signal refused by Temporal; dropped');
        else logger.warn({ resource, err: String(error) }, 'signal failed; retrying');
      },
    });
  }

  /** Starts an informer per kind of its own: the standalone watcher process. */
  async start(): Promise<void> {
    const { kubeConfig, kinds, logger, metrics } = this.options;
    this.informers = kinds.map((api) =>
      watchKind(kubeConfig, api, {
        namespace: this.options.namespace,
        onEvent: (a, obj, type) => this.onEvent(a, obj, type),
        onError: (a, error, retryIn) => {
          metrics?.watchRestarts.inc({ kind: a.kind });
          logger.warn({ kind: a.kind, err: String(error), retryInSeconds: retryIn }, 'watch failed; restarting');
        },
        onConnect: (a) => logger.debug({ kind: a.kind }, 'watching'),
      }),
    );
    await Promise.all(this.informers.map((i) => i.start()));
    logger.info({ kinds: kinds.map((k) => `${k.kind}.${k.group}`), namespace: this.options.namespace ?? '(all)' }, 'watcher started');
  }

  async stop(): Promise<void> {
    await Promise.all(this.informers.map((i) => i.stop()));
    await this.signaler.drained();
  }

  private onEvent(api: KindApi, obj: KubernetesObject, type: ResourceEvent['type']): void {
    const uid = obj.metadata?.uid;
    if (!uid) return;
    const receivedAt = Date.now();
    for (const wake of this.references.observe(api, obj, type)) this.signaler.enqueue({ ...wake, receivedAt });
    const ours = type === 'MODIFIED' && this.options.ownWrites?.take(uid, obj.metadata?.resourceVersion) === true;
    if (!this.signalFilter.admit(obj, type) || ours) return;
    this.signaler.enqueue({
      ref: refFor(api, obj.metadata!.namespace ?? '', obj.metadata!.name!),
      event: { type, uid, generation: obj.metadata!.generation, resourceVersion: obj.metadata!.resourceVersion ?? '' },
      receivedAt,
    });
  }
}
