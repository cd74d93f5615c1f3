// A VPC from `kubectl apply` to Ready, through edits, drift and deletion, against the real
// API server, Temporal and moto.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateTagsCommand, DescribeVpcAttributeCommand, ModifyVpcAttributeCommand } from '@aws-sdk/client-ec2';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ControlPlane, condition, eventually, vpcManifest, type VpcObject } from './harness';
import { ownProviderConfigRef, useOwnProviderConfig } from './network';
import { TcpRelay } from './tcp-relay';
import { workflowIdFor, refFor } from '#core/managed-kind';
import { vpcApi } from '#providers/aws/ec2/vpc/schema';

let plane: ControlPlane;
beforeAll(async () => {
  plane = await ControlPlane.start('lifecycle');
});
afterAll(async () => {
  await plane?.stop();
});

const tagsOf = async (vpcId: string) => Object.fromEntries((await plane.describeVpc(vpcId))!.Tags!.map((t) => [t.Key!, t.Value!]));
const dnsHostnames = async (vpcId: string) =>
  (await plane.ec2.send(new DescribeVpcAttributeCommand({ VpcId: vpcId, Attribute: 'enableDnsHostnames' }))).EnableDnsHostnames?.Value;
const ready = (name: string) =>
  eventually(async () => {
    const vpc = await plane.getVpc(name);
    return condition(vpc, 'Ready')?.status === 'True' && condition(vpc, 'Synced')?.status === 'True' && vpc;
  }, `${name} to be Ready and Synced`);

describe('VPC lifecycle', () => {
  let vpc: VpcObject;
  let vpcId: string;

  it('provisions examples/vpc.yaml: Ready, Synced, external name, atProvider and tags', async () => {
    const example = parse(await readFile(join(import.meta.dirname, '..', '..', 'examples', 'vpc.yaml'), 'utf8'));
    await plane.apply(example);
    vpc = await ready(example.metadata.name);
    vpcId = vpc.metadata.annotations!['crossplane.io/external-name']!;
    expect(vpcId).toMatch(/^vpc-/);
    expect(vpc.status!.atProvider).toMatchObject({
      vpcId,
      state: 'available',
      cidrBlockAssociationSet: [{ cidrBlock: example.spec.forProvider.cidrBlock }],
    });
    expect(vpc.metadata.finalizers).toContain('finalizer.managedresource.crossplane.io');
    expect(vpc.status!.observedGeneration).toBe(vpc.metadata.generation);

    const tags = await tagsOf(vpcId);
    expect(tags).toMatchObject({
      ...example.spec.forProvider.tags,
      'crossplane-kind': 'vpc.ec2.aws.chronoplane.io',
      'crossplane-name': example.metadata.name,
      'crossplane-provider': 'provider-chronoplane-aws',
      'crossplane-providerconfig': 'default',
      'crossplane-providerconfig-kind': 'ClusterProviderConfig',
    });

    const columns = await plane.kubectl(['get', 'vpc', example.metadata.name]);
    expect(columns.split('\n')[0]).toMatch(/NAME\s+READY\s+SYNCED\s+EXTERNAL-NAME\s+AGE/);
    expect(columns.split('\n')[1]).toMatch(new RegExp(`${example.metadata.name}\\s+True\\s+True\\s+${vpcId}`));
  });

  it('late-initializes the fields EC2 filled in', async () => {
    const current = await eventually(async () => {
      const v = await plane.getVpc(vpc.metadata.name);
      return v?.spec.forProvider.instanceTenancy && v;
    }, 'late initialization');
    expect(current.spec.forProvider).toMatchObject({ instanceTenancy: 'default', enableDnsSupport: true });
  });

  it('runs as one workflow named after the resource, findable by search attributes, with activity summaries', async () => {
    const workflowId = workflowIdFor(refFor(vpcApi, plane.namespace, vpc.metadata.name));
    const description = await plane.temporal.workflow.getHandle(workflowId).describe();
    expect(description.status.name).toBe('RUNNING');

    const query = `ResourceKind = "VPC" AND ResourceNamespace = "${plane.namespace}" AND Ready = "True"`;
    const found = await eventually(async () => {
      const ids = await plane.workflowIds(query);
      return ids.length > 0 && ids;
    }, 'the workflow to be listed by its search attributes');
    expect(found).toEqual([workflowId]);

    const history = await plane.decodedHistory(workflowId); // payloads, summaries too, are encrypted
    const summaries = (history.events ?? [])
      .filter((e) => e.activityTaskScheduledEventAttributes)
      .map((e) => JSON.parse(Buffer.from(e.userMetadata!.summary!.data!).toString()) as string);
    expect(summaries).toContain(`create external resource for VPC ${plane.namespace}/${vpc.metadata.name}`);
  });

  it('carries spec edits to EC2: tags and enableDnsHostnames', async () => {
    await plane.kubectl([
      'patch',
      'vpc',
      vpc.metadata.name,
      '--type=merge',
      '-p',
      JSON.stringify({
        spec: { forProvider: { enableDnsHostnames: true, tags: { team: 'platform', cost: 'shared', environment: null } } },
      }),
    ]);
    await eventually(async () => (await dnsHostnames(vpcId)) === true && (await tagsOf(vpcId)).cost === 'shared', 'EC2 to follow the spec');
    const tags = await tagsOf(vpcId);
    expect(tags.team).toBe('platform');
    expect(tags.environment).toBeUndefined(); // removed from the spec, so removed from EC2
  });

  it('corrects drift made outside Chronoplane at the next poll', async () => {
    await plane.ec2.send(new ModifyVpcAttributeCommand({ VpcId: vpcId, EnableDnsHostnames: { Value: false } }));
    await plane.ec2.send(
      new CreateTagsCommand({
        Resources: [vpcId],
        Tags: [
          { Key: 'rogue', Value: 'yes' },
          { Key: 'team', Value: 'someone-else' },
        ],
      }),
    );
    await eventually(
      async () => {
        const tags = await tagsOf(vpcId);
        return (await dnsHostnames(vpcId)) === true && tags.rogue === undefined && tags.team === 'platform';
      },
      'drift to be corrected',
      30_000,
    );
  });

  it('rejects changes to immutable fields at admission, with a clear message', async () => {
    for (const [field, value] of [
      ['cidrBlock', '10.99.0.0/16'],
      ['region', 'eu-west-1'],
    ] as const) {
      const attempt = plane.kubectl([
        'patch',
        'vpc',
        vpc.metadata.name,
        '--type=merge',
        '-p',
        JSON.stringify({ spec: { forProvider: { [field]: value } } }),
      ]);
      await expect(attempt).rejects.toThrow(`${field} is immutable`);
    }
  });

  it('rejects a malformed CIDR at admission', async () => {
    await expect(plane.apply(vpcManifest('malformed', { cidrBlock: 'ten.0.0.0/16' }))).rejects.toThrow(
      'cidrBlock must be an IPv4 network in canonical CIDR notation',
    );
  });

  it('deletes the external VPC before it releases the object', async () => {
    const workflow = plane.temporal.workflow.getHandle(workflowIdFor(refFor(vpcApi, plane.namespace, vpc.metadata.name)));
    await plane.kubectl(['delete', 'vpc', vpc.metadata.name, '--wait=false']);
    let releasedBeforeDeleted = false;
    await eventually(async () => {
      // The object first, then the VPC: a VPC still there after the object was seen gone was
      // released too early. (Read at once, the two could straddle a delete and release that
      // now follow each other within milliseconds, and report a false violation.)
      const object = await plane.getVpc(vpc.metadata.name);
      const external = await plane.describeVpc(vpcId);
      if (!object && external) releasedBeforeDeleted = true;
      return !object && !external;
    }, 'the VPC and the object to be deleted');
    expect(releasedBeforeDeleted).toBe(false);

    await workflow.result(); // the workflow ends with the object
    // Provider calls are regular activities, each recorded in the history.
    const providerCalls = ((await workflow.fetchHistory()).events ?? []).map(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name,
    );
    expect(providerCalls.filter((name) => name === 'deleteExternal')).toHaveLength(1);
    const events = await plane.kubectl([
      'get',
      'events',
      '--field-selector',
      `involvedObject.name=${vpc.metadata.name}`,
      '-o',
      'jsonpath={.items[*].reason}',
    ]);
    expect(events).toContain('DeletedExternalResource');
  });

  it('leaves the external VPC in place with deletionPolicy Orphan', async () => {
    await plane.apply(vpcManifest('orphaned', { cidrBlock: '10.20.0.0/16' }, { spec: { deletionPolicy: 'Orphan' } }));
    const orphan = await ready('orphaned');
    const id = orphan.metadata.annotations!['crossplane.io/external-name']!;
    await plane.kubectl(['delete', 'vpc', 'orphaned', '--timeout=60s']);
    expect(await plane.getVpc('orphaned')).toBeUndefined();
    expect((await plane.describeVpc(id))?.State).toBe('available');
  });

  it('treats a recreated object with the same name as a new resource', async () => {
    await plane.apply(vpcManifest('reborn', { cidrBlock: '10.30.0.0/16' }, { spec: { deletionPolicy: 'Orphan' } }));
    const first = await ready('reborn');
    await plane.kubectl(['delete', 'vpc', 'reborn', '--timeout=60s']);
    await plane.apply(vpcManifest('reborn', { cidrBlock: '10.31.0.0/16' }));
    const second = await eventually(async () => {
      const v = await plane.getVpc('reborn');
      return v && v.metadata.uid !== first.metadata.uid && condition(v, 'Ready')?.status === 'True' && v;
    }, 'the new object to be Ready');
    const secondId = second.metadata.annotations!['crossplane.io/external-name']!;
    expect(secondId).not.toBe(first.metadata.annotations!['crossplane.io/external-name']);
    expect((await plane.describeVpc(secondId))?.CidrBlock).toBe('10.31.0.0/16');
    expect(await plane.vpcsTaggedWithUid(second.metadata.uid)).toHaveLength(1);
  });

  it('turns Ready=False with the connection error while its EC2 endpoint does not answer, and Ready again as soon as it does', async () => {
    const relay = await TcpRelay.start(plane.ec2Endpoint);
    try {
      const providerConfig = await useOwnProviderConfig(plane, { endpoint: relay.url });
      await plane.apply(
        vpcManifest('cut-off', { cidrBlock: '10.40.0.0/16' }, { spec: { providerConfigRef: ownProviderConfigRef(providerConfig) } }),
      );
      await ready('cut-off');

      // The kind's sweep finds the endpoint silent and wakes the VPC, whose own pass says so.
      await relay.close();
      const cutOff = await eventually(async () => {
        const v = await plane.getVpc('cut-off');
        return condition(v, 'Ready')?.status === 'False' && v;
      }, 'Ready=False while the endpoint does not answer');
      const readyCondition = condition(cutOff, 'Ready')!;
      expect(readyCondition.reason).toBe('Unavailable');
      expect(readyCondition.message).toContain(`cannot reach EC2 in region us-east-1 at ${relay.url}`);
      expect(readyCondition.message).toContain('ECONNREFUSED');
      expect(condition(cutOff, 'Synced')).toMatchObject({ status: 'False', reason: 'ReconcileError' });

      // Four failed passes in a row put its next pass 40 s away (5, 10, 20, 40 s), so Ready
      // within 30 s of the endpoint's return can only be the sweep's wake-up, not its backoff.
      await plane.failedPasses(workflowIdFor(refFor(vpcApi, plane.namespace, 'cut-off')), 4);
      await relay.open();
      const back = await eventually(
        async () => {
          const v = await plane.getVpc('cut-off');
          return condition(v, 'Ready')?.status === 'True' && condition(v, 'Synced')?.status === 'True' && v;
        },
        'Ready again once the endpoint answers, before its backoff ends',
        30_000,
      );
      expect(back.metadata.annotations!['crossplane.io/external-name']).toBe(cutOff.metadata.annotations!['crossplane.io/external-name']);
    } finally {
      await relay.close();
    }
  });
});
