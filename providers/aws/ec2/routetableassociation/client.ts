// Wires EC2 SDK calls to the ExternalClient verbs for route table associations. Decisions live
// in convert.ts. EC2 cannot tag an association, so create finds an earlier attempt's by what it
// associates before it associates anything.
import {
  AssociateRouteTableCommand,
  DescribeRouteTablesCommand,
  DisassociateRouteTableCommand,
  type DescribeRouteTablesCommandInput,
  type RouteTableAssociation,
} from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '#core/annotations';
import { ClassifiedError } from '#core/errors';
import type { ConnectContext, ExternalClient, ExternalObservation, SweptObservation } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import {
  ABSENT,
  describeRouteTablesMatching,
  ec2Connector,
  present,
  requiredId,
  sweptByUid,
  withExternalNames,
  type Ec2Api,
} from '../ec2-api';
import { RecordedOwners } from '../recorded-owners';
import {
  associationById,
  associationOfTarget,
  associationOwnedByAnother,
  differences,
  existingAssociationConflict,
  lateInitialize,
  readinessOf,
  targetInput,
  targetOf,
  toAtProvider,
  type AssociationTarget,
} from './convert';
import { routeTableAssociationApi, type RouteTableAssociationObservation, type RouteTableAssociationParameters } from './schema';

type P = RouteTableAssociationParameters;
type A = RouteTableAssociationObservation;
type AssociationResource = ManagedResource<P, A>;

export const routeTableAssociationConnector = ec2Connector<P, A>(
  (api, context) => new RouteTableAssociationExternalClient(api, associationOwners(context)),
);

/** RouteTableAssociation objects recording an association; a status names it by its id. */
function associationOwners(context: ConnectContext | undefined): RecordedOwners<RouteTableAssociationObservation> {
  return new RecordedOwners<RouteTableAssociationObservation>(routeTableAssociationApi, (at) => at.routeTableAssociationId, context);
}

export class RouteTableAssociationExternalClient implements ExternalClient<P, A> {
  constructor(
    private readonly ec2: Ec2Api,
    /** Associations carry no tags: which object owns one, the RouteTableAssociation objects say. */
    private readonly owners: RecordedOwners<RouteTableAssociationObservation> = associationOwners(undefined),
  ) {}

  async observe(mr: AssociationResource): Promise<ExternalObservation<P, A>> {
    const associationId = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!associationId) return ABSENT;
    const association = await this.describe(associationId);
    if (!association) return ABSENT;
    // Two objects recording one association: the older keeps it, and the engine leaves it alone for this one.
    const claimedBy = await this.owners.ownerBefore(mr, associationId);
    return { ...observation(mr, association), ...(claimedBy ? { claimedBy } : {}) };
  }

  /** Associations are read through their tables, found by association id: one call per 100 tables. */
  async observeMany(mrs: readonly AssociationResource[]): Promise<Map<string, SweptObservation<A>>> {
    const named = withExternalNames(mrs);
    const ids = named.map((n) => n.id);
    const tables = await describeRouteTablesMatching(
      this.ec2,
      'cannot describe associations',
      'association.route-table-association-id',
      ids,
    );
    const found = new Map(
      ids.flatMap((id) => {
        const association = associationById(tables, id);
        return association ? [[id, association] as const] : [];
      }),
    );
    return sweptByUid(named, found, observation);
  }

  async create(mr: AssociationResource) {
    const p = mr.spec.forProvider;
    const routeTableId = requiredId(p.routeTableId, 'routeTableId');
    const target = targetOf(p);
    if (!target)
      throw new ClassifiedError('InvalidInput', 'subnetId is required: set subnetId, subnetIdRef or subnetIdSelector, or gatewayId');

    // An earlier attempt may have associated the table before its external name was recorded.
    const earlier = await this.findByTarget(target, routeTableId, 'before');
    if (earlier) return this.adopt(mr, routeTableId, target, earlier);

    // Resource.AlreadyAssociated: real EC2's answer when the subnet or gateway already has a
    // table; which one is found below.
    const associated = await this.ec2.callUnless(
      `cannot associate route table ${routeTableId} with ${target.field} ${target.value}`,
      'Resource.AlreadyAssociated',
      (sdk) => sdk.send(new AssociateRouteTableCommand({ RouteTableId: routeTableId, ...targetInput(target) })),
    );
    if (associated) {
      const associationId = associated.AssociationId!;
      return {
        externalName: associationId,
        summary: `associated route table ${routeTableId} with ${target.field} ${target.value} (${associationId}) in ${p.region}`,
      };
    }
    const existing = await this.findByTarget(target, routeTableId, 'after-conflict');
    if (!existing) {
      throw new ClassifiedError(
        'Transient',
        `EC2 says ${target.field} ${target.value} is already associated, but does not list the association yet`,
      );
    }
    return this.adopt(mr, routeTableId, target, existing);
  }

  async update(mr: AssociationResource): Promise<string> {
    const associationId = mr.metadata.annotations![EXTERNAL_NAME]!;
    const association = await this.describe(associationId);
    if (!association) return `association ${associationId} is gone; nothing to update`;
    const diff = differences(mr.spec.forProvider, association);
    if (diff.length > 0) {
      throw new ClassifiedError(
        'InvalidInput',
        `association ${associationId} cannot change ${diff.join('; ')}: make a new RouteTableAssociation instead`,
      );
    }
    return `association ${associationId} is already up to date`;
  }

  async delete(mr: AssociationResource): Promise<string> {
    this.owners.forget(mr);
    const associationId = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!associationId) return 'no association was recorded; nothing to delete';
    const deleted = await this.ec2.remove(`cannot disassociate ${associationId}`, (sdk) =>
      sdk.send(new DisassociateRouteTableCommand({ AssociationId: associationId })),
    );
    return deleted ? `disassociated ${associationId}` : `association ${associationId} was already gone`;
  }

  /**
   * Takes an association the target already has with this table as this object's: its own
   * interrupted create's, or one nobody manages. Never one another object records: deleting
   * either object would then disassociate the other's.
   */
  private async adopt(mr: AssociationResource, routeTableId: string, target: AssociationTarget, found: RouteTableAssociation) {
    const conflict = existingAssociationConflict(routeTableId, target, found);
    if (conflict) throw new ClassifiedError('InvalidInput', conflict);
    const associationId = found.RouteTableAssociationId!;
    const owner = await this.owners.ownerBefore(mr, associationId);
    if (owner) throw new ClassifiedError('InvalidInput', associationOwnedByAnother(routeTableId, target, associationId, owner));
    return {
      externalName: associationId,
      summary: `found association ${associationId} of route table ${routeTableId} with ${target.field} ${target.value}`,
    };
  }

  private async describe(associationId: string): Promise<RouteTableAssociation | undefined> {
    const tables = await this.describeTables(`cannot describe association ${associationId}`, {
      Filters: [{ Name: 'association.route-table-association-id', Values: [associationId] }],
    });
    return associationById(tables, associationId);
  }

  /**
   * A subnet's association is found in any table with the association.subnet-id filter; moto
   * (5.2.5) quietly answers AssociateRouteTable with a subnet's association to another table,
   * so this look before associating is also what catches that conflict there. moto lacks the
   * association.gateway-id filter, so a gateway is looked for in its own table first, and
   * across tables only after real EC2 said Resource.AlreadyAssociated.
   */
  private async findByTarget(target: AssociationTarget, routeTableId: string, when: 'before' | 'after-conflict') {
    const input: DescribeRouteTablesCommandInput =
      target.field === 'subnetId'
        ? { Filters: [{ Name: 'association.subnet-id', Values: [target.value] }] }
        : when === 'before'
          ? { RouteTableIds: [routeTableId] }
          : { Filters: [{ Name: 'association.gateway-id', Values: [target.value] }] };
    const tables = await this.describeTables(`cannot look for an association of ${target.field} ${target.value}`, input);
    return associationOfTarget(tables, target);
  }

  private async describeTables(action: string, input: DescribeRouteTablesCommandInput) {
    const found = await this.ec2.call(action, (sdk) => sdk.send(new DescribeRouteTablesCommand(input)));
    return found.RouteTables ?? [];
  }
}

/** What observe and observeMany make of what EC2 reported: one comparison, in convert.ts. */
function observation(mr: AssociationResource, association: RouteTableAssociation): ExternalObservation<P, A> {
  return present(mr, {
    // EC2 associations carry no tags, so nothing records an owner to check.
    tags: undefined,
    differences: differences(mr.spec.forProvider, association),
    readiness: readinessOf(association),
    atProvider: toAtProvider(association),
    lateInitialized: lateInitialize(mr.spec.forProvider, association),
  });
}
