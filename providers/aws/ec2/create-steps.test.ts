// Creates made of several calls, when a call after the first fails (issue 21, finding 3): the
// resource the first call made is never lost. A VPC or subnet whose attribute call fails is
// still returned, so it is recorded and its update makes the call again; a security group whose
// default egress cannot be revoked is deleted again. EC2 is a stand-in here, since moto never
// refuses these calls; the internet gateway's case runs against moto
// (internetgateway/client.integration.test.ts) and through the engine (test/integration/ec2-one-owner.test.ts).
import { randomUUID } from 'node:crypto';
import type { EC2Client } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import type { ManagedResource } from '#core/managed-resource';
import { Ec2Api } from './ec2-api';
import { SecurityGroupExternalClient } from './securitygroup/client';
import { SubnetExternalClient } from './subnet/client';
import { VpcExternalClient } from './vpc/client';

type Answers = Record<string, (input: Record<string, unknown>) => unknown>;

/** An EC2 that answers each command by its name, fails the ones `answers` throws in, and logs them all. */
function stubEc2(answers: Answers) {
  const calls: string[] = [];
  const sdk = {
    async send(command: { constructor: { name: string }; input: Record<string, unknown> }) {
      const name = command.constructor.name.replace(/Command$/, '');
      calls.push(name);
      const answer = answers[name];
      if (!answer) throw new Error(`unexpected ${name}`);
      return answer(command.input);
    },
  } as unknown as EC2Client;
  return { ec2: new Ec2Api(sdk, { region: 'us-east-1' }), calls };
}
const refused = (code: string) => () => {
  throw Object.assign(new Error(`${code} happened`), { name: code, $fault: 'client', $metadata: { httpStatusCode: 403 } });
};

const resource = <F>(kind: string, forProvider: F): ManagedResource<F, unknown> => ({
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind,
  metadata: { name: 'x', namespace: 'default', uid: randomUUID(), generation: 1, resourceVersion: '1', annotations: {} },
  spec: { forProvider },
});

describe('a create whose later call fails', () => {
  it('returns the VPC it made, with the failure for the update to retry, and no observation to skip that update', async () => {
    const { ec2, calls } = stubEc2({
      DescribeVpcs: () => ({ Vpcs: [] }),
      CreateVpc: () => ({ Vpc: { VpcId: 'vpc-1', CidrBlock: '10.0.0.0/16', State: 'available' } }),
      ModifyVpcAttribute: refused('UnauthorizedOperation'),
    });
    const mr = resource('VPC', { region: 'us-east-1', cidrBlock: '10.0.0.0/16', enableDnsHostnames: true });
    const created = await new VpcExternalClient(ec2).create(mr as never);
    expect(created).toEqual({
      externalName: 'vpc-1',
      summary:
        'created VPC vpc-1 (10.0.0.0/16) in us-east-1; left for an update: cannot set enableDnsHostnames: UnauthorizedOperation: UnauthorizedOperation happened',
    });
    expect(calls).toEqual(['DescribeVpcs', 'CreateVpc', 'ModifyVpcAttribute']);
  });

  it('returns the subnet it made, with the failure for the update to retry', async () => {
    const { ec2 } = stubEc2({
      DescribeSubnets: () => ({ Subnets: [] }),
      CreateSubnet: () => ({ Subnet: { SubnetId: 'subnet-1', AvailabilityZone: 'us-east-1a', MapPublicIpOnLaunch: false } }),
      ModifySubnetAttribute: refused('UnauthorizedOperation'),
    });
    const mr = resource('Subnet', { region: 'us-east-1', vpcId: 'vpc-1', cidrBlock: '10.0.1.0/24', mapPublicIpOnLaunch: true });
    const created = await new SubnetExternalClient(ec2).create(mr as never);
    expect(created).toEqual({
      externalName: 'subnet-1',
      summary:
        'created subnet subnet-1 (10.0.1.0/24) in VPC vpc-1, us-east-1a; left for an update: cannot set mapPublicIpOnLaunch of subnet subnet-1: UnauthorizedOperation: UnauthorizedOperation happened',
    });
  });

  const defaultEgress = () => ({
    SecurityGroupRules: [{ SecurityGroupRuleId: 'sgr-1', IsEgress: true, IpProtocol: '-1', CidrIpv4: '0.0.0.0/0', Tags: [] }],
  });
  const groupWithRevokeRefused = (deleteGroup: Answers[string]) =>
    stubEc2({
      DescribeSecurityGroups: () => ({ SecurityGroups: [] }),
      CreateSecurityGroup: () => ({ GroupId: 'sg-1' }),
      DescribeSecurityGroupRules: defaultEgress,
      RevokeSecurityGroupEgress: refused('UnauthorizedOperation'),
      DeleteSecurityGroup: deleteGroup,
    });
  const group = () => resource('SecurityGroup', { region: 'us-east-1', vpcId: 'vpc-1', description: 'web', revokeDefaultEgress: true });

  it('deletes the security group it made again when its default egress cannot be revoked, and fails', async () => {
    const { ec2, calls } = groupWithRevokeRefused(() => ({}));
    await expect(new SecurityGroupExternalClient(ec2).create(group() as never)).rejects.toMatchObject({
      failureClass: 'NotAuthorized',
      message:
        'cannot revoke the default egress of security group sg-1: UnauthorizedOperation: UnauthorizedOperation happened; security group sg-1 was deleted again',
    });
    expect(calls.at(-1)).toBe('DeleteSecurityGroup');
  });

  it('says so when that delete fails too: the retried create finds the group by its uid tag', async () => {
    const { ec2 } = groupWithRevokeRefused(refused('RequestLimitExceeded'));
    await expect(new SecurityGroupExternalClient(ec2).create(group() as never)).rejects.toMatchObject({
      message: expect.stringMatching(
        /^cannot revoke the default egress of security group sg-1: .*; cannot delete security group sg-1 again: .*; a retried create finds it by its uid tag$/,
      ),
    });
  });
});
