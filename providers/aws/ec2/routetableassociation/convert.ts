// Pure conversions between EC2's view of a route table association and ours: which subnet or
// gateway the spec names, how to pick the association out of DescribeRouteTables output, what
// goes into atProvider, and what differs. No I/O here, so this is where the unit tests live.
import type { RouteTable, RouteTableAssociation } from '@aws-sdk/client-ec2';
import type { ExternalClaim, Readiness } from '#core/external-client';
import type { RouteTableAssociationObservation, RouteTableAssociationParameters } from './schema';

/** What the route table is associated with; the CRD's rule guarantees exactly one. */
export interface AssociationTarget {
  field: 'subnetId' | 'gatewayId';
  value: string;
}

export function targetOf(spec: RouteTableAssociationParameters): AssociationTarget | undefined {
  if (spec.subnetId) return { field: 'subnetId', value: spec.subnetId };
  if (spec.gatewayId) return { field: 'gatewayId', value: spec.gatewayId };
  return undefined;
}

/** The target as AssociateRouteTable takes it. */
export const targetInput = (t: AssociationTarget) => (t.field === 'subnetId' ? { SubnetId: t.value } : { GatewayId: t.value });

/** States in which an association is on its way out, or never came to be: it is not there. */
const GONE_STATES = new Set(['disassociating', 'disassociated', 'failed']);

const associationsOf = (tables: readonly RouteTable[]) => tables.flatMap((t) => t.Associations ?? []);

/** The association with this id, unless EC2 has already disassociated it. */
export function associationById(tables: readonly RouteTable[], associationId: string): RouteTableAssociation | undefined {
  const found = associationsOf(tables).find((a) => a.RouteTableAssociationId === associationId);
  return found && found.AssociationState?.State !== 'disassociated' ? found : undefined;
}

/** A live explicit association of the target with any of these tables. */
export function associationOfTarget(tables: readonly RouteTable[], target: AssociationTarget): RouteTableAssociation | undefined {
  return associationsOf(tables).find(
    (a) =>
      !a.Main &&
      (target.field === 'subnetId' ? a.SubnetId : a.GatewayId) === target.value &&
      !GONE_STATES.has(a.AssociationState?.State ?? ''),
  );
}

/**
 * What create does with an association the target already has: with this table it is an
 * earlier attempt's and is adopted; with another table it is someone else's, never taken over.
 */
export function existingAssociationConflict(
  routeTableId: string,
  target: AssociationTarget,
  found: RouteTableAssociation,
): string | undefined {
  if (found.RouteTableId === routeTableId) return undefined;
  return (
    `${target.field} ${target.value} is already associated with route table ${found.RouteTableId} ` +
    `(association ${found.RouteTableAssociationId}), not ${routeTableId}: a ${target.field === 'subnetId' ? 'subnet' : 'gateway'} ` +
    `has one route table; remove that association first`
  );
}

/**
 * Why create does not adopt an association that another RouteTableAssociation object records:
 * deleting either object would disassociate the other's. Names that object.
 */
export function associationOwnedByAnother(
  routeTableId: string,
  target: AssociationTarget,
  associationId: string,
  owner: ExternalClaim,
): string {
  const where = owner.namespace ? `${owner.namespace}/` : '';
  return (
    `route table ${routeTableId} is already associated with ${target.field} ${target.value} (association ${associationId}), ` +
    `managed by RouteTableAssociation ${where}${owner.name} (uid ${owner.uid}): it is not adopted; delete one of the two objects`
  );
}

export function toAtProvider(a: RouteTableAssociation): RouteTableAssociationObservation {
  return {
    routeTableAssociationId: a.RouteTableAssociationId,
    routeTableId: a.RouteTableId,
    subnetId: a.SubnetId,
    gatewayId: a.GatewayId,
    main: a.Main,
    associationState: a.AssociationState ? { state: a.AssociationState.State, statusMessage: a.AssociationState.StatusMessage } : undefined,
  };
}

/** EC2 lists an association once it exists; a missing state (moto omits it at times) counts as associated. */
export function readinessOf(a: RouteTableAssociation): Readiness {
  switch (a.AssociationState?.State) {
    case undefined:
    case 'associated':
      return 'Available';
    case 'associating':
      return 'Creating';
    case 'disassociating':
      return 'Deleting';
    default:
      return 'Unavailable';
  }
}

/** An association imported by its id fills in what the spec left empty. */
export function lateInitialize(
  spec: RouteTableAssociationParameters,
  a: RouteTableAssociation,
): Partial<RouteTableAssociationParameters> | undefined {
  const filled: Partial<RouteTableAssociationParameters> = {};
  if (spec.routeTableId === undefined && a.RouteTableId) filled.routeTableId = a.RouteTableId;
  // Only when neither is set: the CRD allows exactly one of them.
  if (spec.subnetId === undefined && spec.gatewayId === undefined) {
    if (a.SubnetId) filled.subnetId = a.SubnetId;
    else if (a.GatewayId) filled.gatewayId = a.GatewayId;
  }
  return Object.keys(filled).length > 0 ? filled : undefined;
}

/**
 * Every way EC2 differs from the spec, for humans. Every field is immutable, so a difference
 * (an association imported with the wrong spec) can only be fixed by a new association.
 */
export function differences(spec: RouteTableAssociationParameters, a: RouteTableAssociation): string[] {
  const out: string[] = [];
  const compare = (field: string, want: string | undefined, have: string | undefined) => {
    if (want !== undefined && want !== have) out.push(`${field}: want ${want}, have ${have ?? 'none'}`);
  };
  compare('routeTableId', spec.routeTableId, a.RouteTableId);
  compare('subnetId', spec.subnetId, a.SubnetId);
  compare('gatewayId', spec.gatewayId, a.GatewayId);
  return out;
}
