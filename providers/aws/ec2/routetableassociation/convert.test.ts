import { describe, expect, it } from 'vitest';
import {
  associationById,
  associationOfTarget,
  differences,
  existingAssociationConflict,
  lateInitialize,
  readinessOf,
  targetInput,
  targetOf,
  toAtProvider,
} from './convert';
import type { RouteTableAssociationParameters } from './schema';

const spec: RouteTableAssociationParameters = { region: 'us-east-1', routeTableId: 'rtb-1', subnetId: 'subnet-1' };
const associated = { State: 'associated' as const };
const subnetAssoc = {
  RouteTableAssociationId: 'rtbassoc-1',
  RouteTableId: 'rtb-1',
  SubnetId: 'subnet-1',
  Main: false,
  AssociationState: associated,
};
const tables = [
  {
    RouteTableId: 'rtb-1',
    Associations: [
      { RouteTableAssociationId: 'rtbassoc-main', RouteTableId: 'rtb-1', Main: true, AssociationState: associated },
      subnetAssoc,
      {
        RouteTableAssociationId: 'rtbassoc-old',
        RouteTableId: 'rtb-1',
        SubnetId: 'subnet-2',
        Main: false,
        AssociationState: { State: 'disassociated' as const },
      },
    ],
  },
  {
    RouteTableId: 'rtb-2',
    Associations: [{ RouteTableAssociationId: 'rtbassoc-2', RouteTableId: 'rtb-2', GatewayId: 'igw-1', Main: false }],
  },
];

describe('RouteTableAssociation target', () => {
  it.each([
    [spec, { field: 'subnetId', value: 'subnet-1' }, { SubnetId: 'subnet-1' }],
    [{ region: 'us-east-1', routeTableId: 'rtb-1', gatewayId: 'igw-1' }, { field: 'gatewayId', value: 'igw-1' }, { GatewayId: 'igw-1' }],
  ])('reads the target of %j', (given, target, input) => {
    expect(targetOf(given)).toEqual(target);
    expect(targetInput(targetOf(given)!)).toEqual(input);
  });

  it('has none when neither is set', () => {
    expect(targetOf({ region: 'us-east-1', routeTableId: 'rtb-1' })).toBeUndefined();
  });
});

describe('RouteTableAssociation lookup', () => {
  it('finds an association by id, unless it is disassociated', () => {
    expect(associationById(tables, 'rtbassoc-1')).toBe(subnetAssoc);
    expect(associationById(tables, 'rtbassoc-2')?.GatewayId).toBe('igw-1');
    expect(associationById(tables, 'rtbassoc-old')).toBeUndefined();
    expect(associationById(tables, 'rtbassoc-none')).toBeUndefined();
  });

  it('finds the live association of a subnet or a gateway in any table, never the main one', () => {
    expect(associationOfTarget(tables, { field: 'subnetId', value: 'subnet-1' })).toBe(subnetAssoc);
    expect(associationOfTarget(tables, { field: 'gatewayId', value: 'igw-1' })?.RouteTableId).toBe('rtb-2');
    expect(associationOfTarget(tables, { field: 'subnetId', value: 'subnet-2' })).toBeUndefined();
    expect(associationOfTarget([], { field: 'subnetId', value: 'subnet-1' })).toBeUndefined();
  });

  it('adopts an association with this table and refuses one with another', () => {
    expect(existingAssociationConflict('rtb-1', { field: 'subnetId', value: 'subnet-1' }, subnetAssoc)).toBeUndefined();
    expect(existingAssociationConflict('rtb-9', { field: 'subnetId', value: 'subnet-1' }, subnetAssoc)).toBe(
      'subnetId subnet-1 is already associated with route table rtb-1 (association rtbassoc-1), not rtb-9: a subnet has one route table; remove that association first',
    );
  });
});

describe('RouteTableAssociation conversion', () => {
  it('maps the association to atProvider', () => {
    expect(toAtProvider(subnetAssoc)).toEqual({
      routeTableAssociationId: 'rtbassoc-1',
      routeTableId: 'rtb-1',
      subnetId: 'subnet-1',
      main: false,
      associationState: { state: 'associated' },
    });
  });

  it.each([
    ['associated', 'Available'],
    [undefined, 'Available'],
    ['associating', 'Creating'],
    ['disassociating', 'Deleting'],
    ['failed', 'Unavailable'],
  ] as const)('state %s is %s', (State, readiness) => {
    expect(readinessOf({ ...subnetAssoc, AssociationState: State ? { State } : undefined })).toBe(readiness);
  });

  it('late-initializes what an imported association left empty, and only one target', () => {
    expect(lateInitialize({ region: 'us-east-1' }, subnetAssoc)).toEqual({ routeTableId: 'rtb-1', subnetId: 'subnet-1' });
    expect(lateInitialize({ region: 'us-east-1', gatewayId: 'igw-1' }, subnetAssoc)).toEqual({ routeTableId: 'rtb-1' });
    expect(lateInitialize(spec, subnetAssoc)).toBeUndefined();
  });

  it('is up to date when table and target match', () => {
    expect(differences(spec, subnetAssoc)).toEqual([]);
    expect(differences({ region: 'us-east-1' }, subnetAssoc)).toEqual([]);
  });

  it('reports an association imported with the wrong spec', () => {
    expect(differences({ region: 'us-east-1', routeTableId: 'rtb-2', gatewayId: 'igw-1' }, subnetAssoc)).toEqual([
      'routeTableId: want rtb-2, have rtb-1',
      'gatewayId: want igw-1, have none',
    ]);
  });
});
