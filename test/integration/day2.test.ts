// Day-2 operations as Crossplane users know them, against the real API server, Temporal and
// moto: crossplane.io/reconcile-requested-at runs a pass now and is recorded in
// status.lastHandledReconcileAt; crossplane.io/poll-interval gives one object a poll of its own;
// and `chronoplane trace | reconcile | pause | resume`, run as the CLI a person runs.
// Every poll, sweep and safety net is an hour long here, so nothing below can come from a poll
// unless the object asked for one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { CreateTagsCommand } from '@aws-sdk/client-ec2';
import { ControlPlane, condition, eventually, vpcManifest, type VpcObject } from './harness';
import { readManifests } from './network';
import { POLL_INTERVAL, RECONCILE_REQUESTED_AT } from '#runtime/reconcile-annotations';
import { PAUSED } from '#core/annotations';

const HOUR = '3600';
let plane: ControlPlane;
beforeAll(async () => {
  plane = await ControlPlane.start('day2', {
    CHRONOPLANE_POLL_STEADY_SECONDS: HOUR,
    CHRONOPLANE_POLL_SAFETY_NET_SECONDS: HOUR,
  });
});
afterAll(async () => {
  // Deleted while the worker still runs, so no VPC is left behind at EC2.
  await plane?.kubectl(['delete', 'vpc,subnet,routetableassociation', '--all', '--wait', '--timeout=90s']).catch(() => undefined);
  await plane?.stop();
});

const repoRoot = join(import.meta.dirname, '..', '..');

/** The CLI as a person runs it: its output and exit code. */
async function chronoplane(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'cli/main.ts', ...args, '-n', plane.namespace],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          KUBECONFIG: inject('kubeconfigPath'),
          TEMPORAL_UI_URL: 'http://ui.example:8233',
          TEMPORAL_NAMESPACE: 'default',
        },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const annotate = (name: string, annotations: Record<string, string>) =>
  plane.kubectl(['annotate', 'vpc', name, '--overwrite', ...Object.entries(annotations).map(([k, v]) => `${k}=${v}`)]);
const vpcIdOf = (vpc: VpcObject) => vpc.metadata.annotations!['crossplane.io/external-name']!;
const tagsOf = async (vpcId: string) => Object.fromEntries((await plane.describeVpc(vpcId))!.Tags!.map((t) => [t.Key!, t.Value!]));
const drift = (vpcId: string) =>
  plane.ec2.send(new CreateTagsCommand({ Resources: [vpcId], Tags: [{ Key: 'team', Value: 'someone-else' }] }));
const repaired = async (vpcId: string) => (await tagsOf(vpcId)).team === 'platform';
const lastHandled = async (kind: string, name: string) =>
  ((await plane.getObject(kind, name))?.status as { lastHandledReconcileAt?: string } | undefined)?.lastHandledReconcileAt;

describe('crossplane.io/reconcile-requested-at', () => {
  it('runs a pass now, which repairs drift, and records the token in status.lastHandledReconcileAt', async () => {
    await plane.apply(vpcManifest('requested', { cidrBlock: '10.61.0.0/16', tags: { team: 'platform' } }));
    const vpcId = vpcIdOf(await plane.ready('vpc', 'requested'));
    await drift(vpcId);
    await annotate('requested', { [RECONCILE_REQUESTED_AT]: 'token-1' });
    await eventually(
      async () => (await repaired(vpcId)) && (await lastHandled('vpc', 'requested')) === 'token-1',
      'the drift repaired and token-1 recorded',
      30_000,
    );

    // Any new value asks again; status writes for other reasons keep the token recorded.
    await drift(vpcId);
    await annotate('requested', { [RECONCILE_REQUESTED_AT]: 'token-2' });
    await eventually(
      async () => (await repaired(vpcId)) && (await lastHandled('vpc', 'requested')) === 'token-2',
      'token-2 recorded',
      30_000,
    );
    expect(condition(await plane.getVpc('requested'), 'Synced')?.status).toBe('True');
  });
});

describe('crossplane.io/poll-interval', () => {
  it("polls an object at its own interval, while one without the annotation keeps the kind's", async () => {
    await plane.apply(
      vpcManifest('fast', { cidrBlock: '10.62.0.0/16', tags: { team: 'platform' } }, { annotations: { [POLL_INTERVAL]: '15s' } }),
    );
    await plane.apply(vpcManifest('slow', { cidrBlock: '10.63.0.0/16', tags: { team: 'platform' } }));
    const [fast, slow] = await Promise.all([plane.ready('vpc', 'fast'), plane.ready('vpc', 'slow')]);
    await Promise.all([drift(vpcIdOf(fast)), drift(vpcIdOf(slow))]);
    // 15 s until its next poll at most, and the pass itself.
    await eventually(() => repaired(vpcIdOf(fast)), 'the object polling every 15 s to repair its drift', 40_000);
    expect(await repaired(vpcIdOf(slow))).toBe(false);
  });

  it('says in Synced and a Warning event why a value that is not a duration is not honoured', async () => {
    await annotate('slow', { [POLL_INTERVAL]: 'every-5-minutes' });
    const vpc = await eventually(async () => {
      const object = await plane.getVpc('slow');
      return condition(object, 'Synced')?.message?.includes('"every-5-minutes" is not a duration') && object;
    }, 'Synced to name the invalid poll interval');
    expect(condition(vpc, 'Synced')?.message).toContain("the kind's default poll interval applies");
    const events = JSON.parse(await plane.kubectl(['get', 'events', '--field-selector', 'involvedObject.name=slow', '-o', 'json'])) as {
      items: { type: string; reason: string; message: string }[];
    };
    expect(events.items).toContainEqual(expect.objectContaining({ type: 'Warning', reason: 'InvalidPollInterval' }));
  });
});

describe('the chronoplane CLI', () => {
  beforeAll(async () => {
    // The example network's first rungs; the route table the association names is missing on purpose.
    for (const file of ['vpc.yaml', 'subnet-a.yaml', 'route-table-association-a.yaml']) {
      for (const manifest of await readManifests(file)) await plane.apply(manifest);
    }
    await plane.ready('subnet', 'public-a', 90_000);
    await eventually(async () => {
      const association = await plane.getObject('routetableassociation', 'public-a');
      return condition(association, 'Ready')?.message?.includes('RouteTable');
    }, 'the association to wait for its route table');
  });

  it('trace prints what an object uses and what uses it, with Synced, Ready and why not', async () => {
    const { code, stdout } = await chronoplane('trace', 'subnet/public-a');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+SYNCED\s+READY\s+STATUS$/);
    expect(lines[1]).toMatch(/^Subnet\/public-a\s+True\s+True\s+Available$/);
    expect(lines[2]).toMatch(/^├─ uses VPC\/network\s+True\s+True\s+Available$/);
    expect(lines[3]).toMatch(/^└─ used by RouteTableAssociation\/public-a\s+\S+\s+False\s+Creating: .*RouteTable .*public/);
    expect(lines).toHaveLength(4);

    const association = await chronoplane('trace', 'routetableassociation/public-a', '-o', 'wide');
    expect(association.stdout).toMatch(/├─ uses RouteTable\/public\s+-\s+-\s+NotFound: no such object/);
    expect(association.stdout).toMatch(/uses Subnet\/public-a\s+True\s+True\s+Available/);
    expect(association.stdout).toMatch(/└─ uses VPC\/network/); // the subnet's own reference, followed
    const workflowId = `RouteTableAssociation.ec2.aws.chronoplane.io/${plane.namespace}/public-a`;
    expect(association.stdout).toContain(workflowId);
    expect(association.stdout).toContain(`http://ui.example:8233/namespaces/default/workflows/${encodeURIComponent(workflowId)}`);

    const json = JSON.parse((await chronoplane('trace', 'vpc/network', '-o', 'json')).stdout);
    expect(json.children.map((c: { key: { kind: string } }) => c.key.kind)).toEqual(['Subnet']);
    expect(json.children[0].children[0]).toMatchObject({ relation: 'used by', key: { kind: 'RouteTableAssociation', name: 'public-a' } });
  });

  it('trace says what is wrong with a name it cannot trace', async () => {
    expect(await chronoplane('trace', 'vpc/nothing-here')).toMatchObject({ code: 2, stderr: expect.stringContaining('not found') });
    expect(await chronoplane('trace', 'bucket/x')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('no managed kind is called "bucket"'),
    });
  });

  it('reconcile --wait runs a pass now and returns once status records it', async () => {
    const vpcId = vpcIdOf((await plane.getVpc('network'))!);
    await plane.ec2.send(new CreateTagsCommand({ Resources: [vpcId], Tags: [{ Key: 'team', Value: 'someone-else' }] }));
    const { code, stdout } = await chronoplane('reconcile', 'vpc/network', '--wait', '--timeout', '60s');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^vpc\/network reconciled \(.+\): Synced=True Ready=True/);
    const vpc = (await plane.getVpc('network'))!;
    expect((vpc.status as { lastHandledReconcileAt?: string }).lastHandledReconcileAt).toBe(
      vpc.metadata.annotations![RECONCILE_REQUESTED_AT],
    );
    expect((await tagsOf(vpcId)).team).toBe('platform');
  });

  it('pause stops passes (a reconcile request waits for resume); resume runs the request', async () => {
    expect((await chronoplane('pause', 'vpc/network')).code).toBe(0);
    const paused = await eventually(async () => {
      const vpc = await plane.getVpc('network');
      return condition(vpc, 'Synced')?.reason === 'ReconcilePaused' && vpc;
    }, 'Synced to say ReconcilePaused');
    expect(paused.metadata.annotations?.[PAUSED]).toBe('true');

    const vpcId = vpcIdOf(paused);
    await drift(vpcId);
    const refused = await chronoplane('reconcile', 'vpc/network', '--wait');
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining('is paused') });
    const token = (await plane.getVpc('network'))!.metadata.annotations![RECONCILE_REQUESTED_AT]!;
    expect(await lastHandled('vpc', 'network')).not.toBe(token);
    expect(await repaired(vpcId)).toBe(false);

    expect((await chronoplane('resume', 'vpc/network')).code).toBe(0);
    await eventually(
      async () => (await lastHandled('vpc', 'network')) === token && (await repaired(vpcId)),
      'the request to run after resume',
      30_000,
    );
    expect((await plane.getVpc('network'))?.metadata.annotations?.[PAUSED]).toBeUndefined();
    await plane.ready('vpc', 'network');
  });
});
