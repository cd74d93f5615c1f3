import { describe, expect, it } from 'vitest';
import { differences, immutableDifferences, lateInitialize, readinessOf, toAtProvider } from './convert';
import type { RouteTableParameters } from './schema';

const spec: RouteTableParameters = { region: 'us-east-1', vpcId: 'vpc-1', tags: { team: 'net' } };
const rt = {
  RouteTableId: 'rtb-1',
  OwnerId: '123',
  VpcId: 'vpc-1',
  Routes: [
    { DestinationCidrBlock: '10.0.0.0/16', GatewayId: 'local', State: 'active' as const, Origin: 'CreateRouteTable' as const },
    { DestinationCidrBlock: '0.0.0.0/0', NatGatewayId: 'nat-1', State: 'blackhole' as const, Origin: 'CreateRoute' as const },
  ],
  Associations: [
    { RouteTableAssociationId: 'rtbassoc-1', SubnetId: 'subnet-1', Main: false, AssociationState: { State: 'associated' as const } },
    { RouteTableAssociationId: 'rtbassoc-2', GatewayId: 'igw-1', Main: false },
  ],
  Tags: [
    { Key: 'team', Value: 'net' },
    { Key: 'crossplane-name', Value: 'x' },
  ],
};
const desiredTags = { team: 'net', 'crossplane-name': 'x' };

describe('RouteTable conversion', () => {
  it('maps DescribeRouteTables output to atProvider, routes and associations included', () => {
    expect(toAtProvider(rt)).toEqual({
      routeTableId: 'rtb-1',
      ownerId: '123',
      vpcId: 'vpc-1',
      routes: [
        { destinationCidrBlock: '10.0.0.0/16', gatewayId: 'local', state: 'active', origin: 'CreateRouteTable' },
        { destinationCidrBlock: '0.0.0.0/0', natGatewayId: 'nat-1', state: 'blackhole', origin: 'CreateRoute' },
      ],
      associations: [
        { routeTableAssociationId: 'rtbassoc-1', subnetId: 'subnet-1', main: false, associationState: 'associated' },
        { routeTableAssociationId: 'rtbassoc-2', gatewayId: 'igw-1', main: false },
      ],
    });
  });

  it('maps a table without routes or associations', () => {
    expect(toAtProvider({ RouteTableId: 'rtb-2', VpcId: 'vpc-1' })).toEqual({ routeTableId: 'rtb-2', vpcId: 'vpc-1' });
  });

  it('is ready as soon as it exists', () => {
    expect(readinessOf(rt)).toBe('Available');
  });

  it.each([
    ['an imported table whose spec names no VPC', { region: 'us-east-1' }, { vpcId: 'vpc-1' }],
    ['a spec that names its VPC', spec, undefined],
  ])('late-initializes vpcId only when empty: %s', (_, given, want) => {
    expect(lateInitialize(given, rt)).toEqual(want);
  });

  it('is up to date when the VPC and tags match', () => {
    expect(differences(spec, rt, desiredTags)).toEqual([]);
    expect(differences({ region: 'us-east-1' }, rt, desiredTags)).toEqual([]);
  });

  it('reports tag drift', () => {
    const drifted = { ...rt, Tags: [...rt.Tags, { Key: 'rogue', Value: '1' }] };
    expect(differences(spec, drifted, { ...desiredTags, team: 'platform' })).toEqual([
      'tag team: want "platform"',
      'tag rogue: not in spec',
    ]);
  });

  it('reports a table in another VPC as a difference update cannot fix', () => {
    expect(immutableDifferences({ ...spec, vpcId: 'vpc-2' }, rt)).toEqual(['vpcId: want vpc-2, have vpc-1']);
    expect(differences({ ...spec, vpcId: 'vpc-2' }, rt, desiredTags)).toEqual(['vpcId: want vpc-2, have vpc-1']);
  });
});
