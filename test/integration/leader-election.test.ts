// Leader election for the watcher: first the Lease loop against the real API server, with short
// durations, then two real watcher processes whose leader is killed with SIGKILL while objects
// are being created and changed.
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { CoordinationV1Api, KubeConfig, V1MicroTime, type V1Lease } from '@kubernetes/client-node';
import type { ChildProcess } from 'node:child_process';
import { ControlPlane, condition, eventually, stopChild, vpcManifest } from './harness';
import { runKubectl } from './kubectl';
import { TcpRelay } from './tcp-relay';
import { DEFAULT_LEASE_TIMINGS, LeaderElector, type LeaseTimings } from '#watcher/leader-election';
import { leaseName } from '#watcher/setup';
import { refFor, workflowIdFor } from '#core/managed-kind';
import { vpcApi } from '#providers/aws/ec2/vpc/schema';

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(inject('kubeconfigPath'));
const leases = kubeConfig.makeApiClient(CoordinationV1Api);

describe('the Lease loop', () => {
  // Short, in client-go's proportions (15 / 10 / 2).
  const timings: LeaseTimings = { leaseDurationSeconds: 3, renewDeadlineSeconds: 2, retryPeriodSeconds: 0.4 };
  const namespace = `it-lease-${process.pid}`;
  const running: Candidate[] = [];
  let leaseCount = 0;
  let name: string;

  /** One candidate, recording when (monotonic ms) it started and stopped leading. */
  class Candidate {
    readonly started: number[] = [];
    readonly stopped: number[] = [];
    readonly elector: LeaderElector;
    constructor(
      readonly identity: string,
      config = kubeConfig,
    ) {
      this.elector = new LeaderElector({
        kubeConfig: config,
        namespace,
        name,
        identity,
        timings,
        onStartedLeading: () => this.started.push(performance.now()),
        onStoppedLeading: () => this.stopped.push(performance.now()),
      });
      running.push(this);
      this.elector.start();
    }
    leads = () => this.elector.isLeader();
  }

  const lease = () => leases.readNamespacedLease({ namespace, name });
  const leaderOf = async (candidates: Candidate[]) =>
    eventually(async () => candidates.find((c) => c.leads()), `one of ${candidates.map((c) => c.identity).join(', ')} to lead`, 20_000);

  beforeAll(async () => {
    await runKubectl(['create', 'namespace', namespace]);
  });
  beforeEach(() => {
    leaseCount += 1;
    name = `lease-${leaseCount}`;
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((c) => c.elector.stop()));
  });
  afterAll(async () => {
    await runKubectl(['delete', 'namespace', namespace, '--wait=false']);
  });

  it('one acquires: it creates the Lease and holds it', async () => {
    const a = new Candidate('a');
    await leaderOf([a]);
    const { spec } = await lease();
    expect(spec).toMatchObject({ holderIdentity: 'a', leaseDurationSeconds: 3, leaseTransitions: 0 });
    expect(spec!.acquireTime).toBeTruthy();
    expect(spec!.renewTime).toBeTruthy();
  });

  it('a second waits while the holder renews, for many lease durations', async () => {
    const a = new Candidate('a');
    await leaderOf([a]);
    const b = new Candidate('b');
    const firstRenewal = new Date(String((await lease()).spec!.renewTime)).getTime();
    // Renewals go on well past a lease duration (3 s) and the renew deadline (2 s).
    await eventually(
      async () => new Date(String((await lease()).spec!.renewTime)).getTime() - firstRenewal > 3 * timings.leaseDurationSeconds * 1000,
      'renewals for three lease durations',
      30_000,
    );
    expect(a.leads()).toBe(true);
    expect(a.stopped).toEqual([]);
    expect(b.started).toEqual([]);
    expect((await lease()).spec).toMatchObject({ holderIdentity: 'a', leaseTransitions: 0 });
  });

  it('a holder that stops renewing loses the lease one lease duration after its last renewal, not before', async () => {
    // A holder that died: its record stays, and nobody renews it.
    const now = new V1MicroTime();
    await leases.createNamespacedLease({
      namespace,
      body: {
        metadata: { name, namespace },
        spec: { holderIdentity: 'dead', leaseDurationSeconds: 3, acquireTime: now, renewTime: now, leaseTransitions: 4 },
      },
    });
    const lastRenewal = performance.now();
    const b = new Candidate('b');
    await leaderOf([b]);
    const waited = (b.started[0]! - lastRenewal) / 1000;
    expect(waited).toBeGreaterThanOrEqual(timings.leaseDurationSeconds);
    expect(waited).toBeLessThan(timings.leaseDurationSeconds + 2);
    expect((await lease()).spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 5 });
  });

  it('of candidates that race for a free lease, exactly one wins', async () => {
    const candidates = ['a', 'b', 'c', 'd', 'e'].map((id) => new Candidate(id));
    const leader = await leaderOf(candidates);
    // Give the losers several tries each against the held lease.
    const renewedAt = new Date(String((await lease()).spec!.renewTime)).getTime();
    await eventually(
      async () => new Date(String((await lease()).spec!.renewTime)).getTime() - renewedAt > 2 * timings.leaseDurationSeconds * 1000,
      'renewals for two lease durations',
      30_000,
    );
    expect(candidates.filter((c) => c.started.length > 0)).toEqual([leader]);
    expect((await lease()).spec?.holderIdentity).toBe(leader.identity);
  });

  it('of candidates that race for an expired lease, exactly one wins, and the transition is counted once', async () => {
    const past = new V1MicroTime(Date.now() - 60_000);
    await leases.createNamespacedLease({
      namespace,
      body: {
        metadata: { name, namespace },
        spec: { holderIdentity: 'dead', leaseDurationSeconds: 1, acquireTime: past, renewTime: past, leaseTransitions: 0 },
      },
    });
    const candidates = ['a', 'b', 'c', 'd', 'e'].map((id) => new Candidate(id));
    const leader = await leaderOf(candidates);
    const renewedAt = new Date(String((await lease()).spec!.renewTime)).getTime();
    await eventually(
      async () => new Date(String((await lease()).spec!.renewTime)).getTime() - renewedAt > 2 * timings.leaseDurationSeconds * 1000,
      'renewals for two lease durations',
      30_000,
    );
    expect(candidates.filter((c) => c.started.length > 0)).toEqual([leader]);
    expect((await lease()).spec).toMatchObject({ holderIdentity: leader.identity, leaseTransitions: 1 });
  });

  it('a holder that stops gracefully releases the lease, and the next takes over at once', async () => {
    const a = new Candidate('a');
    await leaderOf([a]);
    const b = new Candidate('b');
    // b has seen a's record, so only a release can let it in before a lease duration.
    await eventually(async () => (await lease()).spec?.renewTime && true, 'a renewal');
    const stoppedAt = performance.now();
    await a.elector.stop();
    expect(a.stopped).toHaveLength(1);
    await leaderOf([b]);
    expect(a.stopped[0]!).toBeLessThan(b.started[0]!);
    const handover = (b.started[0]! - stoppedAt) / 1000;
    expect(handover).toBeLessThan(timings.leaseDurationSeconds / 2);
    expect((await lease()).spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
  });

  it('a holder that cannot reach the API server steps down before anyone could take the lease', async () => {
    const server = kubeConfig.getCurrentCluster()!.server;
    const relay = await TcpRelay.start(server);
    try {
      const cut = new KubeConfig();
      cut.loadFromOptions({
        clusters: kubeConfig.clusters.map((c) => ({ ...c, server: relay.url })),
        users: kubeConfig.users,
        contexts: kubeConfig.contexts,
        currentContext: kubeConfig.currentContext,
      });
      const a = new Candidate('a', cut);
      await leaderOf([a]);
      const b = new Candidate('b');
      await eventually(async () => (await lease()).spec?.holderIdentity === 'a' && true, 'a to hold the lease');
      const cutAt = performance.now();
      await relay.close();
      await leaderOf([b]);
      // a stepped down within the renew deadline of the cut (its last renewal came before it),
      // and b took over only after that, a lease duration after the last renewal it saw.
      expect(a.stopped).toHaveLength(1);
      expect((a.stopped[0]! - cutAt) / 1000).toBeLessThanOrEqual(timings.renewDeadlineSeconds + 0.5);
      expect(a.stopped[0]!).toBeLessThan(b.started[0]!);
      expect(b.started[0]! - a.stopped[0]!).toBeGreaterThanOrEqual(
        (timings.leaseDurationSeconds - timings.renewDeadlineSeconds) * 1000 - 500,
      );
      expect(a.leads()).toBe(false);
    } finally {
      await relay.close();
    }
  });

  it('refuses timings that could let two lead at once', () => {
    expect(
      () =>
        new LeaderElector({
          kubeConfig,
          namespace,
          name,
          identity: 'x',
          timings: { leaseDurationSeconds: 10, renewDeadlineSeconds: 10 },
          onStartedLeading: () => {},
          onStoppedLeading: () => {},
        }),
    ).toThrow('retry period < renew deadline < lease duration');
  });
});

describe.each([
  { hosts: 'two watchers', label: 'failover', embedded: false },
  { hosts: 'two workers with the embedded watcher', label: 'failover-embedded', embedded: true },
])('$hosts, and the leader killed with SIGKILL', ({ label, embedded }) => {
  const election = {
    ...(embedded ? { CHRONOPLANE_EMBEDDED_WATCHER: 'true' } : {}),
    CHRONOPLANE_LEADER_ELECTION: 'true',
    // Nothing but a signal may start a pass here: no steady poll, safety net or sweep within the
    // test, and no pending timer either (a change's confirming pass runs at once, without one).
    CHRONOPLANE_POLL_STEADY_SECONDS: '3600',
    CHRONOPLANE_POLL_PENDING_SECONDS: '3600',
    CHRONOPLANE_POLL_SAFETY_NET_SECONDS: '3600',
  };
  let plane: ControlPlane;
  let second: ChildProcess;
  let name: string;

  beforeAll(async () => {
    plane = await ControlPlane.start(label, election);
    second = await plane.spawnExtra(embedded ? 'worker' : 'watcher', election);
    name = leaseName({ taskQueue: plane.taskQueue, watchNamespace: plane.namespace });
  });
  afterAll(async () => {
    await stopChild(second);
    await plane?.stop();
  });

  const lease = (): Promise<V1Lease> => leases.readNamespacedLease({ namespace: plane.namespace, name });
  const tagsOf = async (vpcId: string) => Object.fromEntries((await plane.describeVpc(vpcId))!.Tags!.map((t) => [t.Key!, t.Value!]));
  const workflowStart = async (vpc: string) =>
    (await plane.temporal.workflow.getHandle(workflowIdFor(refFor(vpcApi, plane.namespace, vpc))).describe()).startTime.getTime();

  it('the other takes over within the lease duration, and every object created or changed meanwhile is reconciled', async () => {
    const holder = await eventually(async () => (await lease()).spec?.holderIdentity, 'a watcher to lead', 30_000);
    const [host, pid] = [holder.slice(0, holder.lastIndexOf('_')), Number(holder.slice(holder.lastIndexOf('_') + 1))];
    expect(host).toBe(hostname());

    // Settled objects, signalled by the first leader.
    const settled = ['kept-0', 'kept-1', 'kept-2'];
    for (const [i, vpc] of settled.entries())
      await plane.apply(vpcManifest(vpc, { cidrBlock: `10.${110 + i}.0.0/16`, tags: { round: 'before' } }));
    const ids = new Map<string, string>();
    for (const vpc of settled) ids.set(vpc, (await plane.ready('VPC', vpc, 60_000)).metadata.annotations!['crossplane.io/external-name']!);

    // Creates and changes keep coming, before the kill, through the gap, and after the takeover.
    const created: { name: string; at: number }[] = [];
    const changed = new Map<string, string>();
    let killedAt = 0;
    let takenOver = false;
    let writes = 0;
    const writer = (async () => {
      // Each round is two kubectl calls, about a second; rounds go on until one after the takeover.
      for (let round = 0, after = 0; round < 150 && after < 2; round += 1) {
        if (takenOver) after += 1;
        const vpc = `gap-${round}`;
        // When the apply began, not when kubectl returned: an apply under way at the kill may
        // have created its object, and the dying leader signalled it, before the kill.
        const applying = Date.now();
        await plane.apply(vpcManifest(vpc, { cidrBlock: `10.${120 + (round % 100)}.0.0/16` }));
        created.push({ name: vpc, at: applying });
        const edited = settled[round % settled.length]!;
        await plane.kubectl([
          'patch',
          'vpc',
          edited,
          '--type=merge',
          '-p',
          JSON.stringify({ spec: { forProvider: { tags: { round: `r${round}` } } } }),
        ]);
        changed.set(edited, `r${round}`);
        writes += 1;
      }
    })();

    await eventually(async () => writes >= 1 && true, 'the first writes');
    process.kill(pid, 'SIGKILL');
    killedAt = Date.now();
    // The dead leader's last renewal: the record it left, as last read before another took it.
    let lastRenewal = 0;
    const newHolder = await eventually(
      async () => {
        const spec = (await lease()).spec;
        if (spec?.holderIdentity === holder) lastRenewal = new Date(String(spec.renewTime)).getTime();
        return spec?.holderIdentity !== undefined && spec.holderIdentity !== '' && spec.holderIdentity !== holder ? spec : undefined;
      },
      'the other watcher to take the lease',
      40_000,
    );
    takenOver = true;
    await writer;

    const acquiredAt = new Date(String(newHolder.acquireTime)).getTime();
    const inGap = created.filter((c) => c.at > killedAt && c.at < acquiredAt);
    expect(inGap.length).toBeGreaterThan(0);

    // Every object reaches Ready, and every change is at EC2, though no poll could have run.
    for (const { name: vpc } of created) await plane.ready('VPC', vpc, 60_000);
    for (const [vpc, round] of changed) {
      await eventually(async () => (await tagsOf(ids.get(vpc)!)).round === round, `${vpc}'s tag round=${round} at EC2`, 60_000);
    }

    // Nobody signalled during the gap: the workflows of the objects created in it were all
    // started by the new leader, the first of them by its first signal.
    const starts = await Promise.all(inGap.map((c) => workflowStart(c.name)));
    const firstSignal = Math.min(...starts);
    expect(firstSignal).toBeGreaterThanOrEqual(acquiredAt);
    const seconds = (ms: number) => (ms / 1000).toFixed(1);
    console.log(
      `failover${embedded ? ' (embedded)' : ''}: ${seconds(firstSignal - killedAt)} s (kill → new leader's first signal; ` +
        `lease taken ${seconds(acquiredAt - killedAt)} s after the kill and ${seconds(acquiredAt - lastRenewal)} s after the dead leader's last renewal; ` +
        `lease duration ${DEFAULT_LEASE_TIMINGS.leaseDurationSeconds} s; ${inGap.length} objects created in the gap)`,
    );
    expect(newHolder.leaseTransitions).toBe(1);
    // Not before the lease expired, a lease duration after the last renewal (so the dead leader,
    // had it only been cut off, would have stepped down first), and at most one round trip and
    // a busy machine's timer later; the kill came after that renewal, so within the lease
    // duration of the kill too.
    const leaseDuration = DEFAULT_LEASE_TIMINGS.leaseDurationSeconds * 1000;
    expect(lastRenewal).toBeGreaterThan(0);
    expect(acquiredAt - lastRenewal).toBeGreaterThanOrEqual(leaseDuration - 1); // times are kept to the millisecond
    expect(acquiredAt - lastRenewal).toBeLessThanOrEqual(leaseDuration + 1000);
    expect(firstSignal - killedAt).toBeLessThanOrEqual(leaseDuration + 1000);
    expect(condition(await plane.getVpc('kept-0'), 'Ready')?.status).toBe('True');
  });

  it('the leader stopped with SIGTERM gives the lease up', async () => {
    const holder = (await lease()).spec!.holderIdentity!;
    const pid = Number(holder.slice(holder.lastIndexOf('_') + 1));
    if (second.pid === pid) await stopChild(second);
    else if (embedded) await plane.stopWorker();
    else await plane.stopWatcher();
    expect((await lease()).spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
  });
});
