// Table tests of the subnet's pure conversions: atProvider, readiness, late init and drift.
import { describe, expect, it } from 'vitest';
import type { Subnet } from '@aws-sdk/client-ec2';
import { differences, lateInitialize, readinessOf, toAtProvider } from './convert';
import type { SubnetParameters } from './schema';

const spec: SubnetParameters = { region: 'us-east-1', vpcId: 'vpc-1', cidrBlock: '10.0.1.0/24', tags: { team: 'net' } };
const subnet: Subnet = {
  SubnetId: 'subnet-1',
  SubnetArn: 'arn:aws:ec2:us-east-1:123:subnet/subnet-1',
  State: 'available',
  VpcId: 'vpc-1',
  CidrBlock: '10.0.1.0/24',
  AvailabilityZone: 'us-east-1b',
  AvailabilityZoneId: 'use1-az2',
  AvailableIpAddressCount: 251,
  DefaultForAz: false,
  MapPublicIpOnLaunch: false,
  AssignIpv6AddressOnCreation: false,
  OwnerId: '123',
  Ipv6CidrBlockAssociationSet: [],
  Tags: [
    { Key: 'team', Value: 'net' },
    { Key: 'crossplane-name', Value: 'x' },
  ],
};
const desiredTags = { team: 'net', 'crossplane-name': 'x' };

describe('subnet conversion', () => {
  it('maps DescribeSubnets output to atProvider', () => {
    expect(toAtProvider(subnet)).toEqual({
      subnetId: 'subnet-1',
      subnetArn: 'arn:aws:ec2:us-east-1:123:subnet/subnet-1',
      state: 'available',
      vpcId: 'vpc-1',
      availabilityZoneId: 'use1-az2',
      availableIpAddressCount: 251,
      defaultForAz: false,
      ownerId: '123',
      ipv6CidrBlockAssociationSet: [],
    });
  });

  it('maps IPv6 associations', () => {
    const withIpv6: Subnet = {
      ...subnet,
      Ipv6CidrBlockAssociationSet: [{ AssociationId: 'a-1', Ipv6CidrBlock: '2600:1f18::/64', Ipv6CidrBlockState: { State: 'associated' } }],
    };
    expect(toAtProvider(withIpv6).ipv6CidrBlockAssociationSet).toEqual([
      { associationId: 'a-1', ipv6CidrBlock: '2600:1f18::/64', ipv6CidrBlockState: { state: 'associated', statusMessage: undefined } },
    ]);
  });

  it.each([
    ['available', 'Available'],
    ['pending', 'Creating'],
    ['unavailable', 'Unavailable'],
    ['failed', 'Unavailable'],
    ['failed-insufficient-capacity', 'Unavailable'],
  ] as const)('state %s means readiness %s', (state, readiness) => {
    expect(readinessOf({ ...subnet, State: state })).toBe(readiness);
  });

  it('late-initializes only the fields the spec left empty', () => {
    expect(lateInitialize(spec, subnet)).toEqual({
      availabilityZone: 'us-east-1b',
      mapPublicIpOnLaunch: false,
      assignIpv6AddressOnCreation: false,
    });
    expect(lateInitialize({ ...spec, availabilityZone: 'us-east-1b', mapPublicIpOnLaunch: true }, subnet)).toEqual({
      assignIpv6AddressOnCreation: false,
    });
    expect(
      lateInitialize({ ...spec, availabilityZone: 'us-east-1b', mapPublicIpOnLaunch: false, assignIpv6AddressOnCreation: false }, subnet),
    ).toBeUndefined();
  });

  it.each<[string, Partial<SubnetParameters>, Partial<Subnet>, Record<string, string>, string[]]>([
    ['in sync', {}, {}, desiredTags, []],
    ['unset flags are not compared', {}, { MapPublicIpOnLaunch: true, AssignIpv6AddressOnCreation: true }, desiredTags, []],
    ['mapPublicIpOnLaunch drifted', { mapPublicIpOnLaunch: true }, {}, desiredTags, ['mapPublicIpOnLaunch: want true, have false']],
    [
      'assignIpv6AddressOnCreation drifted',
      { assignIpv6AddressOnCreation: false },
      { AssignIpv6AddressOnCreation: true },
      desiredTags,
      ['assignIpv6AddressOnCreation: want false, have true'],
    ],
    [
      'tags changed and added outside Chronoplane',
      {},
      { Tags: [...subnet.Tags!, { Key: 'rogue', Value: '1' }] },
      { ...desiredTags, team: 'platform' },
      ['tag team: want "platform"', 'tag rogue: not in spec'],
    ],
  ])('differences: %s', (_name, specChange, subnetChange, tags, expected) => {
    expect(differences({ ...spec, ...specChange }, { ...subnet, ...subnetChange }, tags)).toEqual(expected);
  });
});
