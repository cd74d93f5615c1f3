// The watcher: informers in, signals out. It never reconciles anything itself.
import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { KindApi } from '#core/managed-kind';
import type { ReferenceDeclaration } from '#core/references/declaration';
import { refFor, workflowIdFor } from '#core/managed-kind';
import { FINALIZER } from '#core/annotations';
import { SignalFilter } from './signal-filter';
import { watchKind, type KindWatch, type WatchHandler } from '#runtime/informers';
import { Signaler } from './signaler';
import type { WatcherMetrics } from './metrics';
import type { ResourceEvent } from '#contract/reconcile-workflow';
import { ReferenceIndex } from './reference-index';
import type { OwnWrites } from '#runtime/own-writes';

interface WatcherOptions {
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
  ownWrites?: Pick<OwnWrites, 'take' | 'settled'>;
  /**
   * Several watchers elect a leader (leader-election.ts): this one starts as a follower, which
   * keeps its view of every object current but signals nothing until startLeading().
   */
  leaderElection?: boolean;
  /**
   * The client is on the worker's own NativeConnection (embedded there): the workflow of an
   * object seen for the first time is started eagerly (signaler.ts).
   */
  eagerStart?: boolean;
}

interface KnownObject {
  api: KindApi;
  obj: KubernetesObject;
}

export class Watcher {
  private signalFilter = new SignalFilter();
  private readonly signaler: Signaler;
  private references: ReferenceIndex;
  private informers: KindWatch[] = [];
  private leading: boolean;
  /** With leader election: every object as last heard, by workflow id, for the relist of a new leader. */
  private readonly known = new Map<string, KnownObject>();
  /** By uid: the decision on an object's latest event, held while one of our writes to it is under way. */
  private readonly held = new Map<string, Promise<void>>();

  /**
   * For informers someone else runs (the worker's object cache, when the watcher is embedded
   * there): hand them this instead of calling start().
   */
  readonly handleEvent: WatchHandler = (api, obj, type) => this.onEvent(api, obj, type);

  constructor(private readonly options: WatcherOptions) {
    const { metrics, logger } = options;
    this.leading = !options.leaderElection;
    this.references = new ReferenceIndex(options.referencesOf ?? (() => undefined));
    this.signaler = new Signaler(options.client, {
      taskQueue: options.taskQueue,
      eagerStart: options.eagerStart,
      onSent: (request, seconds) => {
        metrics?.eventToSignal.observe(seconds);
        metrics?.signals.inc({ kind: request.ref.kind, event: request.event.type });
      },
      onStarted: (request, eagerly) => metrics?.eagerStarts.inc({ kind: request.ref.kind, eagerly: String(eagerly) }),
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

  /**
   * Becomes the one that signals. It trusts no memory of what was signalled, its own or the
   * previous leader's: like a watcher that has just started and lists, it signals every object it
   * knows, so whatever changed while nobody signalled is reconciled now rather than at a poll.
   * A workflow that has seen an object's resourceVersion already ignores its event. Returns how
   * many objects it signalled.
   */
  startLeading(): number {
    if (this.leading) return 0;
    this.leading = true;
    this.signalFilter = new SignalFilter();
    this.references = new ReferenceIndex(this.options.referencesOf ?? (() => undefined));
    const receivedAt = Date.now();
    for (const { api, obj } of this.known.values()) this.signal(api, obj, 'ADDED', receivedAt);
    return this.known.size;
  }

  /** Stops signalling at once; events are still heard, for the next startLeading(). */
  stopLeading(): void {
    this.leading = false;
  }

  isLeading(): boolean {
    return this.leading;
  }

  async stop(): Promise<void> {
    await Promise.all(this.informers.map((i) => i.stop()));
    await Promise.all(this.held.values());
    await this.signaler.drained();
  }

  private onEvent(api: KindApi, obj: KubernetesObject, type: ResourceEvent['type']): void {
    const uid = obj.metadata?.uid;
    if (!uid) return;
    this.options.metrics?.resourceStatuses.note(api.kind, obj, type);
    if (this.options.leaderElection) this.remember(api, obj, type);
    if (this.leading) this.signal(api, obj, type, Date.now());
  }

  private remember(api: KindApi, obj: KubernetesObject, type: ResourceEvent['type']): void {
    const key = workflowIdFor(refFor(api, obj.metadata!.namespace ?? '', obj.metadata!.name!));
    if (type === 'DELETED') this.known.delete(key);
    else this.known.set(key, { api, obj });
  }

  private signal(api: KindApi, obj: KubernetesObject, type: ResourceEvent['type'], receivedAt: number): void {
    const uid = obj.metadata!.uid!;
    for (const wake of this.references.observe(api, obj, type)) this.signaler.enqueue({ ...wake, receivedAt });
    if (!this.signalFilter.admit(obj, type)) return;
    const send = () => {
      const ours = type === 'MODIFIED' && this.options.ownWrites?.take(uid, obj.metadata?.resourceVersion) === true;
      // A leader that stepped down while the event was held leaves it to the next leader's relist.
      if (ours || !this.leading) return;
      this.signaler.enqueue({
        ref: refFor(api, obj.metadata!.namespace ?? '', obj.metadata!.name!),
        event: { type, uid, generation: obj.metadata!.generation, resourceVersion: obj.metadata!.resourceVersion ?? '' },
        receivedAt,
        // Every resource Chronoplane has reconciled carries its finalizer; one without it is new.
        firstSight: type === 'ADDED' && !obj.metadata!.finalizers?.includes(FINALIZER),
      });
    };
    // While an activity here writes this object, its event may be that write's echo, arriving
    // before the write's answer: decide once the write has answered. Later events of the same
    // object wait behind it, so the workflow hears them in order.
    const writing = type === 'MODIFIED' ? this.options.ownWrites?.settled(uid) : undefined;
    const earlier = this.held.get(uid);
    if (!writing && !earlier) return send();
    const decided = Promise.all([earlier, writing])
      .then(send)
      .catch((error: unknown) => this.options.logger.error({ uid, err: String(error) }, 'cannot signal a held event'));
    this.held.set(uid, decided);
    void decided.finally(() => {
      if (this.held.get(uid) === decided) this.held.delete(uid);
    });
  }
}
