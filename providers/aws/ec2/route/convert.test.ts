import { describe, expect, it } from 'vitest';
import {
  differences,
  existingRouteConflict,
  immutableDifferences,
  lateInitialize,
  parseRouteExternalName,
  readinessOf,
  routeExternalName,
  routeFor,
  targetInput,
  targetMatches,
  targetOf,
  toAtProvider,
  unavailableMessage,
} from './convert';
import type { RouteParameters } from './schema';

const id = { routeTableId: 'rtb-1', destinationCidrBlock: '0.0.0.0/0' };
const spec: RouteParameters = { region: 'us-east-1', routeTableId: 'rtb-1', destinationCidrBlock: '0.0.0.0/0', gatewayId: 'igw-1' };
const route = { DestinationCidrBlock: '0.0.0.0/0', GatewayId: 'igw-1', State: 'active' as const, Origin: 'CreateRoute' as const };
const table = {
  RouteTableId: 'rtb-1',
  Routes: [
    { DestinationCidrBlock: '10.0.0.0/16', GatewayId: 'local', State: 'active' as const, Origin: 'CreateRouteTable' as const },
    route,
  ],
};

describe('Route external name', () => {
  it('joins and splits the table and the destination', () => {
    expect(routeExternalName(id)).toBe('rtb-1_0.0.0.0/0');
    expect(parseRouteExternalName('rtb-1_0.0.0.0/0')).toEqual(id);
  });

  it.each(['rtb-1', '_0.0.0.0/0', 'rtb-1_', ''])('rejects %j', (name) => {
    expect(parseRouteExternalName(name)).toBeUndefined();
  });
});

describe('Route target', () => {
  it.each([
    [{ gatewayId: 'igw-1' }, { field: 'gatewayId', value: 'igw-1' }, { GatewayId: 'igw-1' }],
    [{ natGatewayId: 'nat-1' }, { field: 'natGatewayId', value: 'nat-1' }, { NatGatewayId: 'nat-1' }],
    [{ instanceId: 'i-1' }, { field: 'instanceId', value: 'i-1' }, { InstanceId: 'i-1' }],
    [{ networkInterfaceId: 'eni-1' }, { field: 'networkInterfaceId', value: 'eni-1' }, { NetworkInterfaceId: 'eni-1' }],
    [{ vpcPeeringConnectionId: 'pcx-1' }, { field: 'vpcPeeringConnectionId', value: 'pcx-1' }, { VpcPeeringConnectionId: 'pcx-1' }],
  ])('reads %j and sends it as EC2 wants', (fields, target, input) => {
    const given = { region: 'us-east-1', destinationCidrBlock: '0.0.0.0/0', ...fields };
    expect(targetOf(given)).toEqual(target);
    expect(targetInput(targetOf(given)!)).toEqual(input);
  });

  it('has no target when none is set', () => {
    expect(targetOf({ region: 'us-east-1', destinationCidrBlock: '0.0.0.0/0' })).toBeUndefined();
  });

  it('compares only the spec’s own field: EC2 reports an instance target with its interface', () => {
    const viaInstance = { DestinationCidrBlock: '0.0.0.0/0', InstanceId: 'i-1', NetworkInterfaceId: 'eni-1', State: 'active' as const };
    expect(targetMatches({ field: 'instanceId', value: 'i-1' }, viaInstance)).toBe(true);
    expect(targetMatches({ field: 'networkInterfaceId', value: 'eni-1' }, viaInstance)).toBe(true);
    expect(targetMatches({ field: 'instanceId', value: 'i-2' }, viaInstance)).toBe(false);
  });
});

describe('Route conversion', () => {
  it('finds the route for a destination', () => {
    expect(routeFor(table, '0.0.0.0/0')).toBe(route);
    expect(routeFor(table, '10.9.0.0/16')).toBeUndefined();
    expect(routeFor({ RouteTableId: 'rtb-2' }, '0.0.0.0/0')).toBeUndefined();
  });

  it('maps the route to atProvider', () => {
    expect(toAtProvider(id, { ...route, InstanceOwnerId: '123' })).toEqual({
      routeTableId: 'rtb-1',
      destinationCidrBlock: '0.0.0.0/0',
      gatewayId: 'igw-1',
      instanceOwnerId: '123',
      state: 'active',
      origin: 'CreateRoute',
    });
  });

  it.each([
    ['active', 'Available'],
    ['blackhole', 'Unavailable'],
    [undefined, 'Creating'],
  ] as const)('state %s is %s', (State, readiness) => {
    expect(readinessOf({ ...route, State })).toBe(readiness);
  });

  it('says why a blackhole route is unusable', () => {
    expect(unavailableMessage({ ...route, GatewayId: undefined, NatGatewayId: 'nat-1', State: 'blackhole' })).toBe(
      'route to 0.0.0.0/0 is a blackhole: its target (natGatewayId nat-1) is gone or unusable',
    );
    expect(unavailableMessage(route)).toBeUndefined();
  });

  it('late-initializes routeTableId from the external name only when the spec left it empty', () => {
    expect(lateInitialize({ ...spec, routeTableId: undefined }, id)).toEqual({ routeTableId: 'rtb-1' });
    expect(lateInitialize(spec, id)).toBeUndefined();
  });

  it('is up to date when the target matches', () => {
    expect(differences(spec, id, route)).toEqual([]);
  });

  it('reports a repointed route', () => {
    expect(differences({ ...spec, gatewayId: undefined, natGatewayId: 'nat-1' }, id, route)).toEqual([
      'target: want natGatewayId nat-1, have gatewayId igw-1',
    ]);
  });

  it('reports what update cannot fix', () => {
    const other = { ...spec, routeTableId: 'rtb-2', destinationCidrBlock: '10.1.0.0/16' };
    expect(immutableDifferences(other, id)).toEqual([
      'routeTableId: want rtb-2, have rtb-1',
      'destinationCidrBlock: want 10.1.0.0/16, have 0.0.0.0/0',
    ]);
  });
});

describe('Route adoption', () => {
  it('adopts a route with the same target', () => {
    expect(existingRouteConflict(id, { field: 'gatewayId', value: 'igw-1' }, route)).toBeUndefined();
  });

  it('refuses a route to another target, and says how to manage it', () => {
    expect(existingRouteConflict(id, { field: 'natGatewayId', value: 'nat-1' }, route)).toBe(
      'route table rtb-1 already has a route for 0.0.0.0/0 to gatewayId igw-1, not to natGatewayId nat-1: delete that route, ' +
        'or manage it by setting the crossplane.io/external-name annotation to rtb-1_0.0.0.0/0',
    );
  });
});
