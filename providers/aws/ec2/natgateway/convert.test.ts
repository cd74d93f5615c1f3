// Table tests of the NAT gateway's pure conversions: atProvider, readiness through its life,
// the earlier attempt's gateways, the client token, late init and drift.
import { describe, expect, it } from 'vitest';
import type { NatGateway } from '@aws-sdk/client-ec2';
import { UID_TAG } from '../../tags';
import {
  clientTokenFor,
  differences,
  earlierGateways,
  isGone,
  lateInitialize,
  readinessOf,
  toAtProvider,
  unavailableMessage,
} from './convert';
import type { NatGatewayParameters } from './schema';

const uid = '6f1c1b7e-3d7a-4c41-9a57-2f3b1f0e9a10';
const spec: NatGatewayParameters = { region: 'us-east-1', subnetId: 'subnet-1', allocationId: 'eipalloc-1', tags: { team: 'net' } };
const gateway: NatGateway = {
  NatGatewayId: 'nat-1',
  State: 'available',
  SubnetId: 'subnet-1',
  VpcId: 'vpc-1',
  ConnectivityType: 'public',
  CreateTime: new Date('2026-11-22T08:00:00Z'),
  NatGatewayAddresses: [
    {
      AllocationId: 'eipalloc-1',
      AssociationId: 'eipassoc-1',
      NetworkInterfaceId: 'eni-1',
      PrivateIp: '10.0.0.9',
      PublicIp: '198.51.100.7',
      IsPrimary: true,
      Status: 'succeeded',
    },
  ],
  Tags: [
    { Key: 'team', Value: 'net' },
    { Key: UID_TAG, Value: uid },
  ],
};
const desiredTags = { team: 'net', [UID_TAG]: uid };

describe('NAT gateway conversion', () => {
  it('maps DescribeNatGateways output to atProvider', () => {
    expect(toAtProvider(gateway)).toEqual({
      natGatewayId: 'nat-1',
      state: 'available',
      failureCode: undefined,
      failureMessage: undefined,
      vpcId: 'vpc-1',
      subnetId: 'subnet-1',
      connectivityType: 'public',
      createTime: '2026-11-22T08:00:00.000Z',
      natGatewayAddresses: [
        {
          allocationId: 'eipalloc-1',
          associationId: 'eipassoc-1',
          networkInterfaceId: 'eni-1',
          privateIp: '10.0.0.9',
          publicIp: '198.51.100.7',
          isPrimary: true,
          status: 'succeeded',
          failureMessage: undefined,
        },
      ],
    });
  });

  it.each([
    ['pending', 'Creating'],
    ['available', 'Available'],
    ['failed', 'Unavailable'],
    ['deleting', 'Deleting'],
  ] as const)('state %s means readiness %s', (state, readiness) => {
    expect(readinessOf({ ...gateway, State: state })).toBe(readiness);
  });

  it('only a deleted gateway is gone: a deleting one still holds its address', () => {
    expect(isGone({ ...gateway, State: 'deleted' })).toBe(true);
    expect(isGone({ ...gateway, State: 'deleting' })).toBe(false);
    expect(isGone({ ...gateway, State: 'failed' })).toBe(false);
  });

  it('explains a failed gateway in EC2\u2019s words, and nothing else', () => {
    const failed: NatGateway = {
      ...gateway,
      State: 'failed',
      FailureCode: 'Gateway.NotAttached',
      FailureMessage: 'Network vpc-1 has no Internet gateway attached',
    };
    expect(unavailableMessage(failed)).toBe('Network vpc-1 has no Internet gateway attached');
    expect(unavailableMessage({ ...failed, FailureMessage: undefined })).toBe('NAT gateway nat-1 failed (Gateway.NotAttached)');
    expect(unavailableMessage(gateway)).toBeUndefined();
    expect(unavailableMessage({ ...gateway, State: 'pending' })).toBeUndefined();
  });

  it('adopts a live gateway of this object, and counts its dead ones', () => {
    const ours = (id: string, State: NatGateway['State']): NatGateway => ({ ...gateway, NatGatewayId: id, State });
    const theirs: NatGateway = { ...gateway, NatGatewayId: 'nat-theirs', Tags: [{ Key: UID_TAG, Value: 'another-uid' }] };
    expect(earlierGateways([theirs, ours('nat-old', 'deleted'), ours('nat-2', 'pending')], uid)).toEqual({
      live: ours('nat-2', 'pending'),
      deadIds: ['nat-old'],
    });
    expect(earlierGateways([ours('nat-f', 'failed')], uid).live?.NatGatewayId).toBe('nat-f');
    expect(earlierGateways([theirs, ours('nat-a', 'deleting'), ours('nat-b', 'deleted')], uid)).toEqual({
      live: undefined,
      deadIds: ['nat-a', 'nat-b'],
    });
    expect(earlierGateways([], uid)).toEqual({ live: undefined, deadIds: [] });
  });

  it('derives a client token from the uid, renewed by every gateway that died, within EC2\u2019s 64 ASCII characters', () => {
    expect(clientTokenFor(uid, [])).toBe(uid);
    const renewed = clientTokenFor(uid, ['nat-b', 'nat-a']);
    expect(renewed).toBe(clientTokenFor(uid, ['nat-a', 'nat-b']));
    expect(renewed).not.toBe(clientTokenFor(uid, ['nat-a']));
    expect(renewed.startsWith(`${uid}-`)).toBe(true);
    expect(renewed).toMatch(/^[\x21-\x7e]{1,64}$/);
  });

  it('late-initializes the connectivity type only when EC2 reports one and the spec has none', () => {
    expect(lateInitialize({ ...spec }, gateway)).toEqual({ connectivityType: 'public' });
    expect(lateInitialize({ ...spec, connectivityType: 'public' }, gateway)).toBeUndefined();
    expect(lateInitialize({ ...spec }, { ...gateway, ConnectivityType: undefined })).toBeUndefined();
  });

  it.each<[string, Partial<NatGateway>, Record<string, string>, string[]]>([
    ['in sync', {}, desiredTags, []],
    ['state is not drift', { State: 'pending' }, desiredTags, []],
    [
      'tags changed and added outside Chronoplane',
      { Tags: [...gateway.Tags!, { Key: 'rogue', Value: '1' }] },
      { ...desiredTags, team: 'platform' },
      ['tag team: want "platform"', 'tag rogue: not in spec'],
    ],
  ])('differences: %s', (_name, change, tags, expected) => {
    expect(differences({ ...gateway, ...change }, tags)).toEqual(expected);
  });
});
