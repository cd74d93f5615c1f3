// Leader election through a coordination.k8s.io Lease, with client-go's semantics, so that of
// several watchers exactly one signals at a time. No npm library for @kubernetes/client-node 1.x
// is kept well enough to depend on (one release of one, by one author), and the loop is small.
//
// Safety rests on two clocks that never compare their readings: a candidate counts a lease as
// expired only when it has seen the same record for `leaseDurationSeconds` on its own monotonic
// clock, and the holder steps down when `renewDeadlineSeconds` have passed since it *started* its
// last successful renewal, on its own monotonic clock. A renewal starts before the server writes
// it, and the candidate sees the write after it happens, so the holder has stopped before any
// candidate may take over, by leaseDuration - renewDeadline (5 s by default) to spare for timers
// that fire late. Writes go through resourceVersion: of two that race, the API server keeps one
// and answers the other 409 Conflict.
//
// Candidates also watch the Lease. Polled every retry period alone, a candidate would see the
// holder's last renewal up to a retry period late and count the lease duration from there; with
// the watch it sees every renewal within moments, so a holder that died is replaced a lease
// duration after its last renewal, and one that released the lease is replaced at once.
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { ApiException, CoordinationV1Api, V1MicroTime, Watch, type KubeConfig, type V1Lease } from '@kubernetes/client-node';

export interface LeaseTimings {
  /** How long a candidate waits, after it last saw the record change, before it takes the lease. */
  leaseDurationSeconds: number;
  /** How long the holder keeps leading without a successful renewal. Less than the lease duration. */
  renewDeadlineSeconds: number;
  /** How often the holder renews and a candidate tries (candidates with up to 20 % jitter). */
  retryPeriodSeconds: number;
}

/** client-go's defaults, which kube-controller-manager and controller-runtime also use. */
export const DEFAULT_LEASE_TIMINGS: LeaseTimings = { leaseDurationSeconds: 15, renewDeadlineSeconds: 10, retryPeriodSeconds: 2 };

interface LeaderElectorOptions {
  kubeConfig: KubeConfig;
  namespace: string;
  name: string;
  identity: string;
  timings?: Partial<LeaseTimings>;
  /** Called synchronously when this process becomes the leader. */
  onStartedLeading: () => void;
  /** Called synchronously when it stops being the leader, before anyone else can take the lease. */
  onStoppedLeading: () => void;
  /** An attempt that failed for a reason other than the lease being held (API server away, …). */
  onAttemptFailed?: (error: unknown) => void;
}

/** What a candidate knows of the Lease: its last record, and when (monotonic ms) that record first appeared. */
interface Observed {
  lease: V1Lease;
  at: number;
}

const JITTER = 0.2;

export class LeaderElector {
  private readonly api: CoordinationV1Api;
  private readonly timings: LeaseTimings;
  private observed?: Observed;
  private leading = false;
  private stepDownTimer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private wakeUp?: () => void;
  private leaseWatch?: AbortController;
  private rewatchTimer?: NodeJS.Timeout;

  constructor(private readonly options: LeaderElectorOptions) {
    this.api = options.kubeConfig.makeApiClient(CoordinationV1Api);
    this.timings = { ...DEFAULT_LEASE_TIMINGS, ...options.timings };
    const { leaseDurationSeconds, renewDeadlineSeconds, retryPeriodSeconds } = this.timings;
    if (!(renewDeadlineSeconds < leaseDurationSeconds && retryPeriodSeconds < renewDeadlineSeconds)) {
      throw new Error(
        `leader election needs retry period < renew deadline < lease duration; got ${retryPeriodSeconds} s, ${renewDeadlineSeconds} s, ${leaseDurationSeconds} s`,
      );
    }
  }

  get identity(): string {
    return this.options.identity;
  }

  isLeader(): boolean {
    return this.leading;
  }

  /** Starts trying to acquire, then renewing, in the background until stop(). */
  start(): void {
    if (this.running) return;
    this.watchLease();
    this.running = this.loop();
  }

  /**
   * Stops leading (if it was) and releases the lease by clearing its holder, so that a candidate
   * takes over at its next try instead of after the lease duration.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeUp?.();
    clearTimeout(this.rewatchTimer);
    this.leaseWatch?.abort();
    await this.running;
    const wasLeading = this.leading;
    this.stepDown();
    if (wasLeading || this.observed?.lease.spec?.holderIdentity === this.options.identity) await this.release();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const startedAt = performance.now();
      let acquired = false;
      try {
        acquired = await this.withinDeadline(this.tryAcquireOrRenew());
      } catch (error) {
        this.options.onAttemptFailed?.(error);
      }
      if (this.stopped) break;
      // A renewal that succeeded only after its deadline passed says nothing about now: the
      // holder has stepped down already, and candidates may be about to take over.
      const deadline = startedAt + this.timings.renewDeadlineSeconds * 1000;
      if (acquired && performance.now() < deadline) this.renewed(deadline);
      // Someone else holds it: the holder's deadline is no reason to keep signalling until then.
      else if (this.leading && this.heldByAnotherFor() !== undefined) this.stepDown();
      await this.sleep(this.untilNextAttempt());
    }
  }

  private renewed(deadline: number): void {
    clearTimeout(this.stepDownTimer);
    this.stepDownTimer = setTimeout(() => this.stepDown(), deadline - performance.now());
    if (!this.leading) {
      this.leading = true;
      this.options.onStartedLeading();
    }
  }

  private stepDown(): void {
    clearTimeout(this.stepDownTimer);
    this.stepDownTimer = undefined;
    if (!this.leading) return;
    this.leading = false;
    this.options.onStoppedLeading();
  }

  /** The holder renews every retry period; a candidate tries with jitter, or as soon as the lease it waits for expires. */
  private untilNextAttempt(): number {
    const period = this.timings.retryPeriodSeconds * 1000;
    if (this.leading) return period;
    const jittered = period * (1 + Math.random() * JITTER);
    const expiresIn = this.heldByAnotherFor();
    return expiresIn === undefined ? jittered : Math.min(jittered, expiresIn + 10);
  }

  /** Milliseconds until the lease another holds expires, as this process counts; undefined when nobody else holds it. */
  private heldByAnotherFor(): number | undefined {
    const spec = this.observed?.lease.spec;
    if (!this.observed || !spec?.holderIdentity || spec.holderIdentity === this.options.identity) return undefined;
    const duration = (spec.leaseDurationSeconds ?? this.timings.leaseDurationSeconds) * 1000;
    const left = this.observed.at + duration - performance.now();
    return left > 0 ? left : undefined;
  }

  /** One attempt: true when this process holds the lease after it. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const { namespace, name, identity } = this.options;
    const current = await this.read();
    // Stamped once the record is read, so that acquireTime is never before the decision to take it.
    const now = new V1MicroTime();
    if (!current) {
      const lease: V1Lease = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name, namespace },
        spec: {
          holderIdentity: identity,
          leaseDurationSeconds: this.timings.leaseDurationSeconds,
          acquireTime: now,
          renewTime: now,
          leaseTransitions: 0,
        },
      };
      return this.write(() => this.api.createNamespacedLease({ namespace, body: lease }));
    }
    this.observe(current);
    if (this.heldByAnotherFor() !== undefined) return false;
    const spec = current.spec ?? {};
    const renewing = spec.holderIdentity === identity;
    const next: V1Lease = {
      ...current,
      spec: {
        ...spec,
        holderIdentity: identity,
        leaseDurationSeconds: this.timings.leaseDurationSeconds,
        renewTime: now,
        acquireTime: renewing && spec.acquireTime ? new V1MicroTime(spec.acquireTime) : now,
        leaseTransitions: renewing ? (spec.leaseTransitions ?? 0) : (spec.leaseTransitions ?? 0) + 1,
      },
    };
    return this.write(() => this.api.replaceNamespacedLease({ namespace, name, body: next }));
  }

  /** Gives the lease up: no holder, and a duration of one second, as client-go releases it. */
  private async release(): Promise<void> {
    const { namespace, name } = this.options;
    try {
      const current = await this.withinDeadline(this.read());
      if (current?.spec?.holderIdentity !== this.options.identity) return;
      const now = new V1MicroTime();
      const released: V1Lease = {
        ...current,
        spec: { ...current.spec, holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now },
      };
      await this.withinDeadline(this.write(() => this.api.replaceNamespacedLease({ namespace, name, body: released })));
    } catch (error) {
      // Not released, it expires after the lease duration all the same.
      this.options.onAttemptFailed?.(error);
    }
  }

  private async read(): Promise<V1Lease | undefined> {
    const { namespace, name } = this.options;
    try {
      return await this.api.readNamespacedLease({ namespace, name });
    } catch (error) {
      if (error instanceof ApiException && error.code === 404) return undefined;
      throw error;
    }
  }

  /** Keeps `observed` current between attempts, and wakes a waiting candidate when the lease is given up. */
  private watchLease(): void {
    const { namespace, name, kubeConfig } = this.options;
    const watch = new Watch(kubeConfig);
    // Without the watch, the loop's reads still elect a leader, only a retry period slower; so
    // a watch that keeps failing (no `watch` permission, say) is retried less and less often.
    let failures = 0;
    const retry = () => {
      this.leaseWatch = undefined;
      const delay = Math.min(this.timings.retryPeriodSeconds * 1000 * 2 ** failures, 60_000);
      if (!this.stopped) this.rewatchTimer = setTimeout(open, delay);
    };
    const open = async () => {
      // The watch may report one failure both ways: by `done`, and by throwing.
      let ended = false;
      const end = (error: unknown) => {
        if (ended) return;
        ended = true;
        if (error) failures += 1;
        if (error && !this.stopped) this.options.onAttemptFailed?.(new Error(`cannot watch the Lease: ${String(error)}`));
        retry();
      };
      try {
        this.leaseWatch = await watch.watch(
          `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`,
          { fieldSelector: `metadata.name=${name}` },
          (phase: string, lease: V1Lease) => {
            failures = 0;
            if (phase !== 'ADDED' && phase !== 'MODIFIED') return;
            this.observe(lease);
            if (!this.leading && !lease.spec?.holderIdentity) this.wakeUp?.();
          },
          end,
        );
        if (this.stopped) this.leaseWatch.abort();
      } catch (error) {
        end(error);
      }
    };
    void open();
  }

  /** Runs a create or replace; a 409 means another process wrote the Lease first. */
  private async write(call: () => Promise<V1Lease>): Promise<boolean> {
    try {
      this.observe(await call());
      return true;
    } catch (error) {
      if (error instanceof ApiException && error.code === 409) return false;
      throw error;
    }
  }

  /** Notes when a new record was first seen: the lease duration counts from there. */
  private observe(lease: V1Lease): void {
    if (this.observed?.lease.metadata?.resourceVersion === lease.metadata?.resourceVersion) return;
    this.observed = { lease, at: performance.now() };
  }

  /** An API server that accepts the connection and never answers must not hold the loop. */
  private async withinDeadline<T>(attempt: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const ms = this.timings.renewDeadlineSeconds * 1000;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the Lease request took longer than ${ms / 1000} s`)), ms);
    });
    try {
      return await Promise.race([attempt, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
  }
}

/** hostname and pid: unique per pod (its name), and per process on one machine. */
export const defaultIdentity = (): string => `${hostname()}_${process.pid}`;
