// Wires EC2 SDK calls to the ExternalClient verbs for routes. Decisions live in convert.ts.
// EC2 can neither tag a route nor give it an id, so a route is found by its table and
// destination, and create is made idempotent by looking before it creates.
import {
  CreateRouteCommand,
  DeleteRouteCommand,
  DescribeRouteTablesCommand,
  ReplaceRouteCommand,
  type EC2Client,
  type Route,
  type RouteTable,
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
  differences,
  existingRouteConflict,
  immutableDifferences,
  lateInitialize,
  parseRouteExternalName,
  readinessOf,
  routeExternalName,
  routeFor,
  routeOwnedByAnother,
  targetInput,
  targetOf,
  toAtProvider,
  unavailableMessage,
  type RouteId,
  type TargetValue,
} from './convert';
import { routeApi, type RouteObservation, type RouteParameters } from './schema';

type RouteResource = ManagedResource<RouteParameters, RouteObservation>;

export const routeConnector = ec2Connector<RouteParameters, RouteObservation>(
  (api, context) => new RouteExternalClient(api, routeOwners(context)),
);

/** Route objects recording a route; a status names the route its table and destination say. */
function routeOwners(context: ConnectContext | undefined): RecordedOwners<RouteObservation> {
  return new RecordedOwners<RouteObservation>(
    routeApi,
    ({ routeTableId, destinationCidrBlock }) =>
      routeTableId && destinationCidrBlock ? routeExternalName({ routeTableId, destinationCidrBlock }) : undefined,
    context,
  );
}

export class RouteExternalClient implements ExternalClient<RouteParameters, RouteObservation> {
  constructor(
    private readonly ec2: Ec2Api,
    /** Routes carry no tags: which Route object owns a route, the Route objects say. */
    private readonly owners: RecordedOwners<RouteObservation> = routeOwners(undefined),
  ) {}

  async observe(mr: RouteResource): Promise<ExternalObservation<RouteParameters, RouteObservation>> {
    const id = recordedId(mr);
    if (!id) return ABSENT;
    const rt = await this.ec2.find(`cannot describe route table ${id.routeTableId}`, (sdk) => describeTable(sdk, id.routeTableId));
    const route = rt && routeFor(rt, id.destinationCidrBlock);
    if (!route) return ABSENT;
    // Two Route objects recording one route (a race of two creates, or one name set on both by
    // hand): the older keeps it, and the engine leaves it alone for this one.
    const claimedBy = await this.owners.ownerBefore(mr, routeExternalName(id));
    return { ...observation(mr, id, route), ...(claimedBy ? { claimedBy } : {}) };
  }

  /**
   * Routes are read through their tables: one DescribeRouteTables per 100 tables, however many
   * routes each holds. A route whose external name does not parse is left to its own pass,
   * which reports it.
   */
  async observeMany(mrs: readonly RouteResource[]): Promise<Map<string, SweptObservation<RouteObservation>>> {
    const named = withExternalNames(mrs).flatMap((n) => {
      const id = parseRouteExternalName(n.id);
      return id ? [{ ...n, route: id }] : [];
    });
    const tableIds = named.map((n) => n.route.routeTableId);
    const tables = await describeRouteTablesMatching(this.ec2, 'cannot describe route tables', 'route-table-id', tableIds);
    const byId = new Map(tables.map((rt) => [rt.RouteTableId!, rt]));
    const found = new Map(
      named.flatMap(({ id, route }) => {
        const rt = byId.get(route.routeTableId);
        const inTable = rt && routeFor(rt, route.destinationCidrBlock);
        return inTable ? [[id, { id: route, route: inTable }] as const] : [];
      }),
    );
    return sweptByUid(named, found, (mr, { id, route }) => observation(mr, id, route));
  }

  async create(mr: RouteResource) {
    const p = mr.spec.forProvider;
    const routeTableId = requiredId(p.routeTableId, 'routeTableId');
    const target = targetOf(p);
    if (!target) {
      throw new ClassifiedError(
        'InvalidInput',
        'a target is required: set gatewayId (or gatewayIdRef or gatewayIdSelector), natGatewayId (or natGatewayIdRef or natGatewayIdSelector), instanceId, networkInterfaceId or vpcPeeringConnectionId',
      );
    }
    const id: RouteId = { routeTableId, destinationCidrBlock: p.destinationCidrBlock };
    // An earlier attempt may have made the route before its external name was recorded.
    const earlier = await this.findRoute(id);
    if (earlier) return this.adopt(mr, id, target, earlier);

    // RouteAlreadyExists: a concurrent or just-finished attempt won the race; look again rather than fail.
    const created = await this.ec2.callUnless(
      `cannot create route ${p.destinationCidrBlock} in route table ${id.routeTableId}`,
      'RouteAlreadyExists',
      (sdk) =>
        sdk.send(
          new CreateRouteCommand({ RouteTableId: id.routeTableId, DestinationCidrBlock: id.destinationCidrBlock, ...targetInput(target) }),
        ),
    );
    if (!created) {
      const raced = await this.findRoute(id);
      if (!raced) {
        throw new ClassifiedError(
          'Transient',
          `EC2 says route table ${id.routeTableId} has a route for ${id.destinationCidrBlock}, but does not list it yet`,
        );
      }
      return this.adopt(mr, id, target, raced);
    }
    return {
      externalName: routeExternalName(id),
      summary: `created route ${id.destinationCidrBlock} to ${target.field} ${target.value} in route table ${id.routeTableId} in ${p.region}`,
    };
  }

  async update(mr: RouteResource): Promise<string> {
    const id = recordedId(mr)!;
    const fixed = immutableDifferences(mr.spec.forProvider, id);
    if (fixed.length > 0)
      throw new ClassifiedError('InvalidInput', `route ${routeExternalName(id)} cannot change ${fixed.join('; ')}: set at creation only`);
    const target = targetOf(mr.spec.forProvider);
    if (!target) throw new ClassifiedError('InvalidInput', `route ${routeExternalName(id)} needs exactly one target`);
    await this.ec2.call(`cannot replace route ${id.destinationCidrBlock} in route table ${id.routeTableId}`, (sdk) =>
      sdk.send(
        new ReplaceRouteCommand({ RouteTableId: id.routeTableId, DestinationCidrBlock: id.destinationCidrBlock, ...targetInput(target) }),
      ),
    );
    return `pointed route ${id.destinationCidrBlock} in route table ${id.routeTableId} at ${target.field} ${target.value}`;
  }

  async delete(mr: RouteResource): Promise<string> {
    this.owners.forget(mr);
    const id = recordedId(mr);
    if (!id) return 'no route was recorded; nothing to delete';
    // A gone route (InvalidRoute.NotFound) and a gone table (InvalidRouteTableID.NotFound) are both success.
    const deleted = await this.ec2.remove(`cannot delete route ${id.destinationCidrBlock} from route table ${id.routeTableId}`, (sdk) =>
      sdk.send(new DeleteRouteCommand({ RouteTableId: id.routeTableId, DestinationCidrBlock: id.destinationCidrBlock })),
    );
    return deleted
      ? `deleted route ${id.destinationCidrBlock} from route table ${id.routeTableId}`
      : `route ${id.destinationCidrBlock} in route table ${id.routeTableId} was already gone`;
  }

  /**
   * Takes a route already in the table as this object's: its own interrupted create's, or an
   * identical one nobody manages. Never one another Route object records: deleting either
   * object would then take the route from the other.
   */
  private async adopt(mr: RouteResource, id: RouteId, target: TargetValue, route: Route) {
    const conflict = existingRouteConflict(id, target, route);
    if (conflict) throw new ClassifiedError('InvalidInput', conflict);
    const owner = await this.owners.ownerBefore(mr, routeExternalName(id));
    if (owner) throw new ClassifiedError('InvalidInput', routeOwnedByAnother(id, owner));
    return {
      externalName: routeExternalName(id),
      summary: `found route ${id.destinationCidrBlock} to ${target.field} ${target.value} already in route table ${id.routeTableId}`,
    };
  }

  /** The table must exist to create a route in it, so a missing table is an error here. */
  private async findRoute(id: RouteId): Promise<Route | undefined> {
    const rt = await this.ec2.call(`cannot describe route table ${id.routeTableId}`, (sdk) => describeTable(sdk, id.routeTableId));
    return rt && routeFor(rt, id.destinationCidrBlock);
  }
}

async function describeTable(sdk: EC2Client, routeTableId: string): Promise<RouteTable | undefined> {
  return (await sdk.send(new DescribeRouteTablesCommand({ RouteTableIds: [routeTableId] }))).RouteTables?.[0];
}

/** The route's identity from its external name; a malformed name is the user's to fix. */
function recordedId(mr: RouteResource): RouteId | undefined {
  const name = mr.metadata.annotations?.[EXTERNAL_NAME];
  if (!name) return undefined;
  const id = parseRouteExternalName(name);
  if (!id)
    throw new ClassifiedError(
      'InvalidInput',
      `external name ${name} is not <routeTableId>_<destinationCidrBlock>, such as rtb-0abc_0.0.0.0/0`,
    );
  return id;
}

/** What observe and observeMany make of what EC2 reported: one comparison, in convert.ts. */
function observation(mr: RouteResource, id: RouteId, route: Route): ExternalObservation<RouteParameters, RouteObservation> {
  return present(mr, {
    // EC2 routes carry no tags, so nothing records an owner to check.
    tags: undefined,
    differences: differences(mr.spec.forProvider, id, route),
    readiness: readinessOf(route),
    readinessMessage: unavailableMessage(route),
    atProvider: toAtProvider(id, route),
    lateInitialized: lateInitialize(mr.spec.forProvider, id),
  });
}
