// The watcher embedded in the worker: an event of the worker's own write still wakes the
// objects that depend on it, but is not signalled to the object's own workflow, which knows it.
import type { KubernetesObject } from '@kubernetes/client-node';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { KubeConfig } from '@kubernetes/client-node';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { EXTERNAL_NAME, FINALIZER } from '#core/annotations';
import type { ReconcileInput, ResourceEvent } from '#contract/reconcile-workflow';
import { OwnWrites } from '#runtime/own-writes';
import { Watcher } from './watcher';
import { WatcherMetrics } from './metrics';
import { testKindApi } from '#test/unit/kind-api';

const api = testKindApi;
const vpcApi = api('VPC');
const subnetApi = api('Subnet');

const object = (kind: string, name: string, rv: string, forProvider: Record<string, unknown>, externalName?: string): KubernetesObject =>
  ({
    apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
    kind,
    metadata: {
      name,
      namespace: 'team-a',
      uid: `uid-${name}`,
      resourceVersion: rv,
      generation: 1,
      ...(externalName && { annotations: { [EXTERNAL_NAME]: externalName } }),
    },
    spec: { forProvider },
  }) as KubernetesObject;

/** A Temporal client that records which workflows were signalled. */
function recordingClient(signalled: string[]): Client {
  const record = async (id: string) => void signalled.push(id);
  return {
    workflow: {
      signalWithStart: async (_type: string, options: { workflowId: string }) => record(options.workflowId),
      getHandle: (id: string) => ({ signal: async () => record(id) }),
    },
  } as unknown as Client;
}

/** A watcher of VPCs that sends its signals to `client`. */
const vpcWatcher = (client: Client, options: Partial<ConstructorParameters<typeof Watcher>[0]> = {}) =>
  new Watcher({ kubeConfig: new KubeConfig(), client, taskQueue: 'test', kinds: [vpcApi], logger: pino({ level: 'silent' }), ...options });

describe('watcher embedded in the worker', () => {
  it("leaves out the worker's own writes for their object, and still wakes dependents", async () => {
    const signalled: string[] = [];
    const ownWrites = new OwnWrites();
    const watcher = new Watcher({
      kubeConfig: new KubeConfig(),
      client: recordingClient(signalled),
      taskQueue: 'test',
      kinds: [vpcApi, subnetApi],
      referencesOf: (a) => (a.kind === 'Subnet' ? [{ field: 'vpcId', to: vpcApi }] : undefined),
      logger: pino({ level: 'silent' }),
      ownWrites,
    });
    watcher.handleEvent(vpcApi, object('VPC', 'net', '1', {}), 'ADDED');
    watcher.handleEvent(subnetApi, object('Subnet', 'a', '2', { vpcIdRef: { name: 'net' } }), 'ADDED');
    await watcher.stop();
    signalled.length = 0;

    // The worker records the external name it wrote; its event arrives.
    ownWrites.record('uid-net', '3');
    watcher.handleEvent(vpcApi, object('VPC', 'net', '3', {}, 'vpc-123'), 'MODIFIED');
    await watcher.stop();
    expect(signalled).toEqual(['Subnet.ec2.aws.chronoplane.io/team-a/a']);

    // Someone else's edit of the same object is signalled as ever.
    watcher.handleEvent(vpcApi, object('VPC', 'net', '4', {}, 'vpc-456'), 'MODIFIED');
    await watcher.stop();
    expect(signalled).toContain('VPC.ec2.aws.chronoplane.io/team-a/net');
  });
});

describe('watcher embedded in the worker, when the echo of a write comes before its answer', () => {
  const embedded = (signalled: string[], ownWrites: OwnWrites) => vpcWatcher(recordingClient(signalled), { ownWrites });

  it('holds the event until the write has answered, then leaves it out', async () => {
    const signalled: string[] = [];
    const ownWrites = new OwnWrites();
    const watcher = embedded(signalled, ownWrites);
    watcher.handleEvent(vpcApi, object('VPC', 'net', '1', {}), 'ADDED');
    await watcher.stop();
    signalled.length = 0;

    const answered = ownWrites.begin('uid-net');
    watcher.handleEvent(vpcApi, object('VPC', 'net', '2', {}, 'vpc-123'), 'MODIFIED');
    answered('2');
    await watcher.stop();
    expect(signalled).toEqual([]);
  });

  it("signals someone else's edit that came during our write, and what follows it, in order", async () => {
    const heard: string[] = [];
    const client = {
      workflow: {
        signalWithStart: async (_type: string, options: { signalArgs: [ResourceEvent] }) =>
          void heard.push(`${options.signalArgs[0].type}@${options.signalArgs[0].resourceVersion}`),
        getHandle: () => ({
          signal: async (_signal: unknown, event: ResourceEvent) => void heard.push(`${event.type}@${event.resourceVersion}`),
        }),
      },
    } as unknown as Client;
    const ownWrites = new OwnWrites();
    const watcher = vpcWatcher(client, { ownWrites });
    watcher.handleEvent(vpcApi, object('VPC', 'net', '1', {}), 'ADDED');
    await watcher.stop();
    heard.length = 0;

    let answered = ownWrites.begin('uid-net');
    watcher.handleEvent(vpcApi, object('VPC', 'net', '2', {}, 'set-by-hand'), 'MODIFIED');
    watcher.handleEvent(vpcApi, object('VPC', 'net', '3', {}, 'vpc-123'), 'MODIFIED');
    expect(heard).toEqual([]);
    answered('3');
    await watcher.stop();
    expect(heard).toEqual(['MODIFIED@2']);

    // An event after ours is not sent ahead of those held before it: the signaler coalesces
    // a burst to the newest, and the newest must be the deletion.
    heard.length = 0;
    answered = ownWrites.begin('uid-net');
    watcher.handleEvent(vpcApi, object('VPC', 'net', '4', {}, 'set-by-hand-again'), 'MODIFIED');
    watcher.handleEvent(vpcApi, object('VPC', 'net', '5', {}, 'vpc-456'), 'MODIFIED');
    watcher.handleEvent(vpcApi, object('VPC', 'net', '6', {}, 'vpc-456'), 'DELETED');
    answered('5');
    await watcher.stop();
    expect(heard.at(-1)).toBe('DELETED@6');
    expect(heard).not.toContain('MODIFIED@5');
  });
});

describe('watcher under leader election', () => {
  const elected = (signalled: string[]) => vpcWatcher(recordingClient(signalled), { leaderElection: true });

  it('signals nothing as a follower, then every object it knows once it leads, and nothing once it lost', async () => {
    const signalled: string[] = [];
    const watcher = elected(signalled);
    watcher.handleEvent(vpcApi, object('VPC', 'kept', '1', {}), 'ADDED');
    watcher.handleEvent(vpcApi, object('VPC', 'changed', '2', {}), 'ADDED');
    watcher.handleEvent(vpcApi, object('VPC', 'changed', '3', { cidrBlock: '10.0.0.0/16' }), 'MODIFIED');
    watcher.handleEvent(vpcApi, object('VPC', 'gone', '4', {}), 'ADDED');
    watcher.handleEvent(vpcApi, object('VPC', 'gone', '5', {}), 'DELETED');
    await watcher.stop();
    expect(signalled).toEqual([]);

    expect(watcher.startLeading()).toBe(2);
    await watcher.stop();
    expect(signalled.sort()).toEqual(['VPC.ec2.aws.chronoplane.io/team-a/changed', 'VPC.ec2.aws.chronoplane.io/team-a/kept']);

    signalled.length = 0;
    watcher.stopLeading();
    watcher.handleEvent(vpcApi, object('VPC', 'kept', '6', { cidrBlock: '10.1.0.0/16' }), 'MODIFIED');
    await watcher.stop();
    expect(signalled).toEqual([]);
  });

  it('trusts no memory of what it signalled when it leads again', async () => {
    const signalled: string[] = [];
    const watcher = elected(signalled);
    watcher.startLeading();
    watcher.handleEvent(vpcApi, object('VPC', 'net', '1', {}), 'ADDED');
    await watcher.stop();
    watcher.stopLeading();
    signalled.length = 0;

    // Unchanged since it last signalled it: another leader may have missed what came between.
    watcher.startLeading();
    await watcher.stop();
    expect(signalled).toEqual(['VPC.ec2.aws.chronoplane.io/team-a/net']);
  });

  it('signals every event at once without leader election', async () => {
    const signalled: string[] = [];
    const watcher = vpcWatcher(recordingClient(signalled));
    expect(watcher.isLeading()).toBe(true);
    watcher.handleEvent(vpcApi, object('VPC', 'net', '1', {}), 'ADDED');
    await watcher.stop();
    expect(signalled).toEqual(['VPC.ec2.aws.chronoplane.io/team-a/net']);
  });
});

describe('watcher embedded in the worker, starting workflows eagerly', () => {
  /** Records each call as `start <id>` or `signal <id>`; a start of an id in `running` finds it running. */
  function startingClient(calls: string[], running: Set<string>): Client {
    return {
      workflow: {
        start: async (_type: string, options: { workflowId: string; args: [ReconcileInput]; requestEagerStart?: boolean }) => {
          if (running.has(options.workflowId)) throw new WorkflowExecutionAlreadyStartedError('already started', options.workflowId, _type);
          expect(options.requestEagerStart).toBe(true);
          calls.push(`start ${options.workflowId} with ${options.args[0].event?.type} ${options.args[0].event?.resourceVersion}`);
          return { eagerlyStarted: true };
        },
        signalWithStart: async (_type: string, options: { workflowId: string; signalArgs: [ResourceEvent] }) =>
          void calls.push(`signal ${options.workflowId} with ${options.signalArgs[0].type} ${options.signalArgs[0].resourceVersion}`),
        getHandle: (id: string) => ({ signal: async () => void calls.push(`signal ${id}`) }),
      },
    } as unknown as Client;
  }
  const finalized = (obj: KubernetesObject): KubernetesObject => ({ ...obj, metadata: { ...obj.metadata, finalizers: [FINALIZER] } });

  it('starts the workflow of a new object with its event as input, and signals one Chronoplane has reconciled', async () => {
    const calls: string[] = [];
    const metrics = new WatcherMetrics();
    const watcher = vpcWatcher(startingClient(calls, new Set()), { eagerStart: true, metrics });
    watcher.handleEvent(vpcApi, object('VPC', 'new', '1', {}), 'ADDED');
    watcher.handleEvent(vpcApi, finalized(object('VPC', 'known', '2', {})), 'ADDED');
    await watcher.stop();
    expect(calls.sort()).toEqual([
      'signal VPC.ec2.aws.chronoplane.io/team-a/known with ADDED 2',
      'start VPC.ec2.aws.chronoplane.io/team-a/new with ADDED 1',
    ]);
    // Operators see how many starts were eager.
    expect((await metrics.eagerStarts.get()).values).toEqual([{ labels: { kind: 'VPC', eagerly: 'true' }, value: 1 }]);
  });

  it('signals a new object whose workflow turns out to be running (the name applied again while its predecessor ends)', async () => {
    const calls: string[] = [];
    const watcher = vpcWatcher(startingClient(calls, new Set(['VPC.ec2.aws.chronoplane.io/team-a/again'])), { eagerStart: true });
    watcher.handleEvent(vpcApi, object('VPC', 'again', '5', {}), 'ADDED');
    await watcher.stop();
    expect(calls).toEqual(['signal VPC.ec2.aws.chronoplane.io/team-a/again with ADDED 5']);
  });

  it('never starts eagerly without the option (a watcher in its own process has no worker to hand the task to)', async () => {
    const calls: string[] = [];
    const watcher = vpcWatcher(startingClient(calls, new Set()));
    watcher.handleEvent(vpcApi, object('VPC', 'new', '1', {}), 'ADDED');
    await watcher.stop();
    expect(calls).toEqual(['signal VPC.ec2.aws.chronoplane.io/team-a/new with ADDED 1']);
  });
});
